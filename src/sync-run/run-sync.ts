// runSync: one sync run, from "running" to its end (docs/contracts.md "runSync").
// The changes feed page by page: each page is written, then its cursor stored; a refused cursor
// restarts a full pass; a full pass ends with a sweep. Every removal of the run is held
// (held-removals.ts) until it has read its last page, then judged by the safety brake together
// and applied only then. The parts share one state (sync-run-state.ts): the reader
// (page-reader.ts), the page window (page-window.ts) and dispatch (page-dispatch.ts), the
// recorder of the run row (run-recorder.ts), the brake (run-brake.ts) over the held removals
// (run-holds.ts), the sweep (sweep.ts) and the run's end (run-end.ts).
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { CatalogClient } from "../catalog-client/catalog-client"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"
import type { CatalogSyncStateRow } from "../modules/catalog_sync/models/catalog-sync-state"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import { afterPage, restartPosition, startPosition, type ResumeOf } from "../sync/run-state"
import type { EffectiveSettings } from "../sync/settings"
import { ensureShopSetup } from "../workflows/ensure-shop-setup"
import { growthAnalyzerFor } from "./analyze-as-it-grows"
import { rejectedLogLine } from "./counts"
import { PageDispatch } from "./page-dispatch"
import { pageImagesFor } from "./page-images"
import { PageReader } from "./page-reader"
import { PageWindow } from "./page-window"
import { pageWritersFor } from "./page-writers"
import { finishPendingRemovals } from "./pending-removals"
import { RunBrake } from "./run-brake"
import type { RunDependencies } from "./run-dependencies"
import { endAfterError, endPaused, endRun, type RunEnding, type RunSyncResult } from "./run-end"
import type { RunFence } from "./run-fence"
import { bringFilterUpToDate } from "./run-filter"
import { beginPass } from "./run-pass"
import { RunHolds } from "./run-holds"
import { foldPage, foldRemoved, pageLogLine, RunRecorder } from "./run-recorder"
import { RunReferenceData } from "./run-reference-data"
import { RunReferences } from "./run-references"
import { repriceRun } from "./reprice-run"
import { holdScope, markSeenInPass } from "./sweep"
import { newSyncRunState } from "./sync-run-state"
import type { PageOutcome } from "./write-page"
import { watchEventLoop } from "./event-loop-delay"
import { WritePacing } from "./write-pacing"
import { chooseWritePath, withWritePath } from "../shop-writer/choose-shop-writer"

export type { RunSyncResult } from "./run-end"

/** How often a long page's write reports progress (products written so far, the ticking timer). */
const PAGE_PROGRESS_EVERY_MS = 2_500

export interface RunSyncInput {
  runId: string
  mode: "changes" | "full" | "reprice"
  settings: EffectiveSettings
  client: CatalogClient
  signal: AbortSignal
  /**
   * The run lock this run holds (the worker takes it, which also sets the state's
   * current_run_id, and releases it, which clears it: the lock alone owns that token). Every
   * state change (cursor included) goes through it, fenced, and it is checked before every page
   * write and the sweep: a run that lost its lock stores nothing and writes no further page.
   */
  fence: RunFence
  /** Set when this run continues an interrupted or failed run (trigger "retry"). */
  resume?: ResumeOf | null
  /** What the runtime hands the run: page writers, write concurrency, test hooks, clock (run-dependencies.ts). */
  dependencies: RunDependencies
}

const newPassId = () => `pass_${randomUUID()}`

export async function runSync(container: MedusaContainer, input: RunSyncInput): Promise<RunSyncResult> {
  // The run's writer, chosen once: every write of the run, on any instance, goes its way (src/shop-writer).
  return withWritePath(await chooseWritePath(container), () => runWithItsWriter(container, input))
}

async function runWithItsWriter(container: MedusaContainer, input: RunSyncInput): Promise<RunSyncResult> {
  // New pricing rules over the stored costs: no page, no API request.
  if (input.mode === "reprice") return repriceRun(container, input)
  const { runId, mode, settings, client, signal, fence, dependencies } = input
  const { hooks, now } = dependencies
  const service = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  // Mirrored images (setting mirror_images): its own downloads, closed when the run ends.
  const images = settings.mirrorImages ? pageImagesFor(container, client.addressPolicy, settings.removalMode) : null
  const syncState = (await service.getState()) as CatalogSyncStateRow
  const storeState = (patch: Record<string, unknown>) => fence.updateState(syncState.id, patch)
  await fence.check()
  const state = newSyncRunState({ runId, mode, resume: input.resume }, now())
  const recorder = new RunRecorder(service, state, now)
  await recorder.started()
  const ending: RunEnding = { container, logger, state, recorder, images, storeState, settingsRevision: settings.revision, signal }
  // What the run's work cost the process's other requests: logged when the run ends.
  const eventLoop = watchEventLoop()
  // Pages being written: the run ends only once they settled.
  let pagesInFlight: PageWindow<PageOutcome> | null = null
  // The run's page writes in this process, paced (write-pacing.ts): their cost logged when the run ends.
  let writePacing: WritePacing | null = null
  const runStarted = performance.now()
  try {
    const holds = new RunHolds(container, { runId, mode: settings.removalMode, beforeChunk: () => fence.check(), removed: images?.sweptRemoved })
    // Removals the admin confirmed at a pause: exactly those, before any page is read.
    if ((await holds.count("approved")).total) {
      state.phase = "removing"
      foldRemoved(state.counts, await holds.apply("approved"))
      await recorder.counts()
    }
    const placement = await ensureShopSetup(container, settings)
    // Removals an open order held back, finished once nothing is reserved (before this run's pages).
    await fence.check()
    const finished = await finishPendingRemovals(container, logger, runId)
    // The products it removed are this run's removals, counted as its own (the change log has their
    // rows); a product it removed sizes of is an update of it (not a product removed).
    if (finished.removedProducts.length || finished.sizesRemovedOf.length) {
      state.counts.removed += finished.removedProducts.length
      state.counts.updated += finished.sizesRemovedOf.length
      await recorder.counts()
    }
    const start = startPosition(syncState, mode, settings.pricing, newPassId, input.resume ?? null)
    // Reference lists only when due (full pass, stale, or a page with an unknown category/brand).
    const references = await RunReferenceData.open(container, new RunReferences(container, client, syncState, settings, logger), start.fullPassId !== null)
    // The safety brake over removals and steep price drops, against the shop's catalog now.
    const brake = await RunBrake.open(container, service, settings.brake, syncState.brake_memory)
    state.position = { cursor: start.cursor, fullPassId: start.fullPassId }
    logger.info(
      `catalog sync: run ${runId} (${mode}${input.resume ? `, resuming pass ${input.resume.passId ?? "none"}` : ""}) starts: ` +
        `${start.reason}, ${start.cursor ? "from the stored cursor" : "without a cursor"}, pass ${start.fullPassId ?? "none"}`
    )
    const passes = { container, settings, state, recorder, storeState, now }
    await beginPass(passes, state.position)
    const pageParts = { container, settings, placement, images, writeConcurrency: dependencies.writeConcurrency, state, references }
    // A filter changed since the shop was last brought in line with it (a pass from the start needs none).
    if (state.position.cursor !== null) await bringFilterUpToDate({ ...pageParts, client, signal, logger, fence, brake, storeState }, syncState.applied_filter)

    // Pages are read in order (one cursor), then planned and judged by the brake, and written by
    // the run's page writers (page-writers.ts): in this process one after another, or several at
    // once on every instance. They are taken back in page order (page-window.ts).
    const writers = await pageWritersFor(container, runId, logger, dependencies.pageWrites)
    const pageWindow = (pagesInFlight = new PageWindow<PageOutcome>(writers.inFlight))
    const reader = new PageReader(client, signal, () => state.counts.requests_used++)
    const reportInsidePage = () => recorder.insidePage()
    const pacing = (writePacing = new WritePacing())
    const pages = new PageDispatch({ ...pageParts, hooks, fence, brake, holds, reader, window: pageWindow, writers, pacing, planned: reportInsidePage })
    // Only while pages are being written: the run's own updates between pages must land last.
    const ticker = setInterval(() => pageWindow.writing && reportInsidePage(), PAGE_PROGRESS_EVERY_MS)
    // The tables a first sync fills analyzed as they grow (analyze-as-it-grows.ts).
    const analyzer = growthAnalyzerFor(container, logger)
    reader.readFrom(state.position.cursor)
    try {
      for (;;) {
        state.phase = state.position.fullPassId ? "full_export" : "changes"
        await pages.fill()
        // The next page in order whose write committed (a write's failure is thrown here).
        const taken = await pageWindow.take()
        if (!taken) {
          if (reader.restartFor) {
            logger.warn(`catalog sync: ${reader.restartFor}, restarting without a cursor (restart ${++state.restarts})`)
            state.position = restartPosition(newPassId)
            await beginPass(passes, state.position)
            reader.readFrom(null)
            continue
          }
          if (signal.aborted) return await endRun(ending, "interrupted")
          if (reader.hasMore) continue
          throw new Error(`catalog sync run ${runId}: no page left to take back before the feed's end`)
        }
        await recorder.pageTaken()
        const { page, fetchWaitMs, writeStarted } = taken
        const outcome = taken.outcome!
        // Nothing of this page was written and its cursor is not stored: the run continues here.
        if (outcome.paused) return await endPaused(ending, outcome.paused)
        logger.info(pageLogLine(state.counts.pages + 1, page, outcome, fetchWaitMs, Date.now() - writeStarted))
        for (const record of foldPage(state, page, outcome)) logger.warn(rejectedLogLine(record))
        analyzer.after(state.counts.created)
        await markSeenInPass(service, state.position.fullPassId, [...page.rejected, ...outcome.rejected])
        const next = afterPage(state.position, page, settings.pricing)
        if (next.sweepPassId) {
          state.phase = "sweep"
          await fence.check()
          // Held before the pass's last cursor is stored; judged and applied below, with the run's other removals.
          await holdScope(container, { unseenInPass: next.sweepPassId }, brake.discarded, "sweep", runId)
          await storeState({ last_full_pass_finished_at: now() })
        }
        await storeState({ ...next.state })
        state.position = { cursor: next.state.cursor, fullPassId: next.state.full_pass_id }
        await recorder.page()
        if (next.done) break
        if (signal.aborted && pageWindow.idle) return await endRun(ending, "interrupted")
      }
    } finally {
      clearInterval(ticker)
      // A run stopped by a shutdown leaves the last ANALYZE to the run that continues it.
      if (signal.aborted) await analyzer.settle()
      else await analyzer.finish(state.counts.created)
    }
    // The run has read its last page: its held removals, judged together, applied only now.
    const held = await holds.count("held")
    if (held.total) {
      state.phase = "judging removals"
      await fence.check()
      const pause = await brake.judgeHeld(held, holds)
      if (pause) return await endPaused(ending, pause)
      state.phase = "removing"
      await recorder.progress()
      await hooks.beforeHeldApply()
      foldRemoved(state.counts, await holds.apply("held"))
    }
    const memory = brake.memoryAfterRun()
    if (memory) await storeState({ brake_memory: memory })
    return await endRun(ending, "succeeded")
  } catch (error) {
    // No page of this run may still be written once it ends (the run that continues it replays them).
    await pagesInFlight?.settle()
    return endAfterError(ending, error)
  } finally {
    logger.info(eventLoop.stop())
    if (writePacing) logger.info(writePacing.summary(performance.now() - runStarted))
  }
}
