// runSync: one sync run, from "running" to its end (docs/contracts.md "runSync").
// The changes feed page by page: each page is written, then its cursor stored; a
// refused cursor restarts a full pass; a full pass ends with a sweep. Every removal of the run
// is held (held-removals.ts) until it has read its last page, then judged by the safety brake
// together and applied only then.
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"
import type { CatalogSyncStateRow } from "../modules/catalog_sync/models/catalog-sync-state"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import { InvalidApiKeyError, PlanRequiredError } from "../catalog-client/errors"
import type { CatalogClient, ChangesPage } from "../catalog-client/catalog-client"
import { afterPage, MAX_RESTARTS, restartPosition, restartReason, startPosition, type Position, type ResumeOf } from "../sync/run-state"
import { LostRunLockError, type RunFence } from "./run-fence"
import { beforeHeldApply, beforePageWrite } from "./test-hooks"
import type { EffectiveSettings } from "../sync/settings"
import { ensureShopSetup } from "../workflows/ensure-shop-setup"
import { finishPendingRemovals } from "./pending-removals"
import { runErrorOf, runErrorText } from "../sync/write-failures"
import { emptyCounts, MAX_REJECTED_ON_RUN, rejectedLogLine, toRunRecord, type RunCounts, type RunRejectedItem } from "./counts"
import { categoryIdsFor } from "../workflows/extras"
import { RunReferences } from "./run-references"
import { holdScope, type RemovalScope } from "./sweep"
import { applyPending, countPending, heldIds, heldSample, holdRemovals, markPaused, releaseHolds, type HeldCounts } from "./held-removals"
import { appliedFilterOf } from "../catalog-filter/filter-change"
import { applyFilterChange } from "./filter-change"
import { filterPageItems } from "./filter-pages"
import { finishPage, preparePage, writePage, type PageContext, type PageOutcome } from "./write-page"
import { OrderedCursor, pageSlot, type PageSlot } from "./ordered-cursor"
import { pageWritersFor, type PageWrites } from "./page-writers"
import type { PagePlan } from "../sync/plan-page"
import { pageImagesFor } from "./page-images"
import { addOmitted, type Omitted } from "../sync/change-log-policy"
import { expectedCatalogTotal, type ExpectedTotal } from "./expected-total"
import { productsWritten } from "../workflows/page/write-progress"
import { pruneChangeLog } from "./change-log-retention"
import { categoryPathIn, loadCatalogCategoryTree } from "./catalog-category-tree"
import { repriceRun } from "./reprice-run"
import { brakeMemoryOf, SafetyBrake, type BrakePause } from "../sync/safety-brake"
import { currentPricesOf, shopCatalogPrices, withTitles } from "./brake-reads"
import { activeCatalogProducts } from "./product-map"
import { GrowthAnalyzer } from "./analyze-as-it-grows"
import { knexOf } from "../bulk-write/sql"

/** How often a long page's write reports progress (products written so far, the ticking timer). */
const PAGE_PROGRESS_EVERY_MS = 2_500

/** Products per page: the API's maximum. */
export const PAGE_SIZE = 200

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
  /** The runtime's page-writes queue when pages may be written on several instances; else this process writes them. */
  pageWrites?: PageWrites | null
}

export interface RunSyncResult {
  /** "paused": the safety brake stopped the run before a page; it waits for the admin (confirm / discard). */
  status: "succeeded" | "failed" | "interrupted" | "paused"
  errorCode?: string
}

const newPassId = () => `pass_${randomUUID()}`

export async function runSync(container: MedusaContainer, input: RunSyncInput): Promise<RunSyncResult> {
  // New pricing rules over the stored costs: no page, no API request.
  if (input.mode === "reprice") return repriceRun(container, input)
  const mode = input.mode
  const service = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const { runId, settings, client, signal } = input
  const counts: RunCounts = emptyCounts()
  const rejected: RunRejectedItem[] = []
  // rejected_items is a json column, typed by the model as an object; it holds this list.
  const rejectedColumn = () => rejected as unknown as Record<string, unknown>
  let restarts = 0
  let phase = "starting"
  // The pass this run works in (inherited when it resumes one): a run that continues this one
  // after a crash continues that pass, keeping its id so the sweep still happens.
  let passId: string | null = input.resume?.passId ?? null
  // Kept in the progress so the next resume can tell whether this one moved the cursor.
  const resumeOf = input.resume ? { resumed: true, ...(input.resume.bookkeeping ?? {}) } : {}
  // What the admin's progress reads: products done, the expected total, changes with no log row.
  let itemsDone = 0
  // Products the catalog sent (pages in flight included) and when its first page came: the
  // progress model's read count and the start of the rate behind the ETA (src/sync/run-progress.ts).
  let itemsRead = 0
  let readingSince: string | null = null
  let expected: ExpectedTotal | null = null
  let omitted: Omitted = {}
  const progress = () => ({
    phase,
    restarts,
    pass_id: passId,
    items_done: itemsDone,
    items_read: itemsRead,
    reading_since: readingSince,
    ...(expected ? { expected_total: expected.total, expected_total_source: expected.source } : {}),
    ...(Object.keys(omitted).length ? { change_log_omitted: omitted } : {}),
    ...resumeOf,
  })

  // Mirrored images (setting mirror_images): its own downloads, closed when the run ends.
  const images = settings.mirrorImages ? pageImagesFor(container, client.addressPolicy, settings.removalMode) : null
  const fence = input.fence
  const state = (await service.getState()) as CatalogSyncStateRow
  const storeState = (patch: Record<string, unknown>) => fence.updateState(state.id, patch)
  await fence.check()
  const startedAt = new Date()
  await service.updateCatalogSyncRuns({ id: runId, status: "running", started_at: startedAt, progress: progress() })

  const finish = async (status: RunSyncResult["status"], error?: unknown): Promise<RunSyncResult> => {
    const failure = error === undefined ? undefined : runErrorOf(error)
    const errorCode = failure?.code
    if (images && status === "succeeded") {
      const rewritten = await images.revisitDue().catch((e) => (logger.warn(`catalog sync: retrying images failed: ${runErrorText(e)}`), 0))
      if (rewritten) logger.info(`catalog sync: images of ${rewritten} products mirrored on retry`)
    }
    await images?.close()
    await service.updateCatalogSyncRuns({
      id: runId,
      status,
      finished_at: new Date(),
      ...counts,
      rejected_items: rejectedColumn(),
      progress: progress(),
      error_code: errorCode ?? null,
      error_message: failure?.message ?? null,
    })
    // A run that got through clears an earlier 401/403 block. (The worker's lease release
    // clears current_run_id after this returns.)
    if (status === "succeeded") await storeState({ blocked_code: null, blocked_message: null, blocked_revision: null })
    await pruneChangeLog(container).catch((e) => logger.warn(`catalog sync: change-log cleanup failed: ${runErrorText(e)}`))
    return errorCode ? { status, errorCode } : { status }
  }

  // The run's held removals, judged together once it read its last page, are past the brake:
  // nothing of them was removed; they stay held for the admin's answer (the cursor already moved
  // past them: they are durably held), which the run that continues it applies.
  const pauseRun = async (held: BrakePause): Promise<RunSyncResult> => {
    phase = "paused"
    logger.warn(`catalog sync: run ${runId} paused by the safety brake: ${held.reasons.map((r) => r.message).join("; ")}`)
    const pause = await withTitles(container, held)
    await service.updateCatalogSyncRuns({ id: runId, brake: pause as unknown as Record<string, unknown> })
    return finish("paused")
  }

  // Pages being written (by this process or the page writers): the run ends only once they settled.
  const writing = new Map<number, Promise<void>>()
  try {
    const db = knexOf(container)
    const countRemoved = (removed: HeldCounts) => {
      counts.removed += removed.feed + removed.filter
      counts.swept += removed.sweep
    }
    const applyHeld = (status: "held" | "approved") =>
      applyPending(container, status, { mode: settings.removalMode, runId, beforeChunk: () => fence.check(), removed: images?.sweptRemoved })
    // Removals the admin confirmed at a pause: exactly those, before any page is read.
    if ((await countPending(db, "approved")).total) {
      phase = "removing"
      countRemoved(await applyHeld("approved"))
      await service.updateCatalogSyncRuns({ id: runId, ...counts, progress: progress() })
    }
    const setup = await ensureShopSetup(container, settings)
    // Removals an open order held back, finished once nothing is reserved (before this run's pages).
    await fence.check()
    await finishPendingRemovals(container, logger)
    const start = startPosition(state, mode, settings.pricing, newPassId, input.resume ?? null)
    // Reference lists only when due (full pass, stale, or a page with an unknown category/brand).
    const references = new RunReferences(container, client, state, settings, logger)
    let refs = await references.start(start.fullPassId !== null)
    // Prices come from each size's cost by the shop's rules; categories inherit down the tree.
    // The safety brake over removals and steep price drops (src/sync/safety-brake.ts), against the
    // shop's catalog products and prices now.
    const brake = new SafetyBrake(
      await activeCatalogProducts(container),
      await shopCatalogPrices(container),
      settings.brake,
      brakeMemoryOf(state.brake_memory),
    )
    let treeOfRefs = refs
    let categoryTree = await loadCatalogCategoryTree(container)
    let categoryPathOf = categoryPathIn(categoryTree)
    let position: Position = { cursor: start.cursor, fullPassId: start.fullPassId }
    logger.info(
      `catalog sync: run ${runId} (${input.mode}${input.resume ? `, resuming pass ${input.resume.passId ?? "none"}` : ""}) starts: ` +
        `${start.reason}, ${start.cursor ? "from the stored cursor" : "without a cursor"}, pass ${start.fullPassId ?? "none"}`
    )
    const beginPass = async (pos: Position) => {
      if (pos.cursor === null) {
        // The old cursor goes with the old pass: were it kept, a run that dies before this
        // pass commits a page would let the next run continue the old feed under the new
        // pass id, and the sweep would then remove every product not changed since.
        await storeState({
          cursor: null,
          cursor_pricing: null,
          full_pass_id: pos.fullPassId,
          full_pass_started_at: new Date(),
          phase: "full_export",
          // A pass from the start reads the whole catalog through the filter (filterPageItems).
          applied_filter: settings.filter,
        })
      }
      // Recorded only once the state holds the pass, so a run continuing this one resumes a
      // pass that really began (else, for a full run, it begins one).
      passId = pos.fullPassId ?? passId
      // A full pass reads the whole catalog: its expected size gives the admin a percent and an ETA.
      // Only a figure for the admin: a failed read leaves it unknown rather than failing the run.
      if (pos.fullPassId) expected = await expectedCatalogTotal(container, startedAt, runId).catch(() => ({ total: null, source: null }))
      await service.updateCatalogSyncRuns({ id: runId, progress: progress() })
    }
    await beginPass(position)

    // The shop's products under the filter the feed is read through: defined per page and for the filter's own listings.
    const pageContext = (fullPassId: string | null): PageContext => ({
      container,
      runId,
      mapContext: {
        primaryLanguage: settings.primaryLanguage,
        vocabulary: settings.vocabulary,
        salesChannelId: setup.salesChannelId,
        stockLocationId: setup.stockLocationId,
        categoryIdsFor: (product) => categoryIdsFor(product, refs),
        pricing: { rules: settings.pricingRules, categoryPathOf },
      },
      placement: setup,
      removalMode: settings.removalMode,
      fullPassId,
      refs,
      settings,
      images,
    })

    // A filter changed since the shop was last brought in line with it (a pass from the start needs none).
    if (position.cursor !== null) {
      phase = "filter"
      const changed = await applyFilterChange(appliedFilterOf(state.applied_filter), settings.filter, categoryTree, {
        client,
        signal,
        onRequest: () => counts.requests_used++,
        log: (line) => logger.info(line),
        writeCards: async (items) => {
          refs = await references.forPage(items, false)
          await fence.check()
          const outcome = await writePage(items, pageContext(null))
          counts.created += outcome.plan.create.length
          counts.updated += outcome.plan.update.length
          counts.stock_only += outcome.plan.stockOnly.length
          counts.unchanged += outcome.plan.unchanged.length
          counts.skipped += outcome.rejected.length
        },
        holdAllBut: async (kept) => {
          await fence.check()
          return holdScope(container, { notIn: kept }, brake.discarded, "filter", runId)
        },
      })
      if (changed) await storeState({ applied_filter: settings.filter })
    }

    const fetchPage = (cursor: string | null) => {
      counts.requests_used++
      const promise = client.getChangesPage({ cursor, limit: PAGE_SIZE }, { signal })
      promise.catch(() => undefined) // awaited later; keep an early failure from being "unhandled"
      return promise
    }

    // Pages are read in order (one cursor), then planned and judged by the brake here, and
    // written by the run's page writers (page-writers.ts): in this process one after another, or
    // several at once on every instance. They are taken back below in page order: a page's
    // cursor is stored only once it and every earlier page committed (ordered-cursor.ts).
    const writers = await pageWritersFor(container, runId, logger, input.pageWrites ?? null)
    const order = new OrderedCursor(writers.inFlight)
    type PageInFlight = { seq: number; page: ChangesPage; fetchWaitMs: number; writeStarted: number; planned: PagePlan | null; outcome?: PageOutcome }
    const open = new Map<number, PageInFlight>()
    const ready: PageInFlight[] = []
    let writeFailure: { error: unknown } | null = null
    let unsent: { page: ChangesPage; fetchWaitMs: number } | null = null
    let reading = true
    // A refused cursor: the run restarts once the pages in flight are taken back.
    let restartFor: string | null = null
    let writtenMark = productsWritten()
    let reported: Promise<unknown> = Promise.resolve()
    // Inside long pages: products written so far, every few seconds. The counts stay those of
    // written pages: a page's plan is not yet a write (the admin showed planned updates as done).
    function reportInsidePage() {
      itemsDone = counts.items_seen + (productsWritten() - writtenMark)
      reported = service.updateCatalogSyncRuns({ id: runId, progress: progress() }).catch(() => undefined)
    }
    const committed = (entry: PageInFlight) => {
      for (const seq of order.commit(entry.seq)) ready.push(open.get(seq)!)
    }

    const dispatch = async (page: ChangesPage, fetchWaitMs: number, slot: PageSlot) => {
      refs = await references.forPage(page.items, position.fullPassId !== null)
      if (refs !== treeOfRefs) {
        treeOfRefs = refs
        categoryTree = await loadCatalogCategoryTree(container)
        categoryPathOf = categoryPathIn(categoryTree)
      }
      const seq = order.dispatch(slot)
      itemsRead += page.items.length + page.rejected.length
      readingSince ??= new Date().toISOString()
      const entry: PageInFlight = { seq, page, fetchWaitMs, writeStarted: 0, planned: null }
      open.set(seq, entry)
      const ctx: PageContext = {
        ...pageContext(position.fullPassId),
        brake: {
          read: (ids) => currentPricesOf(container, ids, (of) => service.catalogIdsWithLockedField(of, "prices")),
          check: (plan, current) => brake.check(plan, current),
        },
        onPlanned: (plan) => {
          entry.planned = plan
          reportInsidePage()
        },
      }
      await beforePageWrite(seq + 1, mode)
      // Fencing: a run that lost its lock writes no page (a page writer checks again).
      await fence.check()
      entry.writeStarted = Date.now()
      // Cards outside the shop's filter are written as removals (never created; removed if the shop has them).
      const prepared = await preparePage(filterPageItems(page.items, settings.filter, categoryTree), ctx)
      if (prepared.paused) {
        // Nothing of this page is written; it is taken back after the pages before it.
        entry.outcome = { plan: prepared.plan, rejected: [], timings: { plan: Date.now() - prepared.started }, changeLog: { stored: 0, omitted: {} }, paused: prepared.paused }
        reading = false
        committed(entry)
        return
      }
      // The page's removals are held before its write, so before its cursor can be stored; a
      // product the page sends again is no longer held for removal.
      const back = [...prepared.plan.create, ...prepared.plan.update, ...prepared.plan.stockOnly, ...prepared.plan.unchanged].map((p) => p.catalogId)
      await releaseHolds(db, back)
      await holdRemovals(db, prepared.held, "feed", runId)
      // Counted now: the next page is judged with this one's drops.
      brake.written()
      const write = (async () => {
        try {
          entry.outcome = await finishPage(prepared, await writers.write(prepared.input, seq), ctx)
          committed(entry)
        } catch (error) {
          writeFailure ??= { error }
        } finally {
          writing.delete(seq)
        }
      })()
      writing.set(seq, write)
    }

    // Only while pages are being written: the run's own updates between pages must land last.
    const ticker = setInterval(() => writing.size && reportInsidePage(), PAGE_PROGRESS_EVERY_MS)
    // The tables a first sync fills analyzed as they grow (analyze-as-it-grows.ts).
    const analyzer = new GrowthAnalyzer(knexOf(container), logger)
    let pending: Promise<ChangesPage> | null = fetchPage(position.cursor)
    try {
      for (;;) {
        phase = position.fullPassId ? "full_export" : "changes"
        // Read and dispatch pages while the window has room.
        for (;;) {
          if (writeFailure || restartFor) break
          if (unsent && signal.aborted) unsent = null
          if (!unsent) {
            if (!reading || !pending || order.open >= order.limit) break
            const waitStarted = Date.now()
            let page: ChangesPage
            try {
              page = await pending
            } catch (error) {
              const reason = restartReason(error)
              if (reason && restarts < MAX_RESTARTS && !signal.aborted) {
                restartFor = reason
                break
              }
              throw error
            }
            // Read the next page while this one is written.
            pending = page.hasMore && !signal.aborted ? fetchPage(page.nextCursor) : null
            if (!pending) reading = false
            unsent = { page, fetchWaitMs: Date.now() - waitStarted }
          }
          const slot = pageSlot(unsent.page.items, refs)
          if (!order.mayDispatch(slot)) break
          const { page, fetchWaitMs } = unsent
          unsent = null
          await dispatch(page, fetchWaitMs, slot)
        }

        // The next page in order whose write committed.
        while (!ready.length && writing.size) await Promise.race(writing.values())
        const taken = ready.shift()
        if (!taken) {
          if (writeFailure) throw (writeFailure as { error: unknown }).error
          if (restartFor) {
            restarts++
            logger.warn(`catalog sync: ${restartFor}, restarting without a cursor (restart ${restarts})`)
            restartFor = null
            position = restartPosition(newPassId)
            await beginPass(position)
            pending = fetchPage(null)
            reading = true
            continue
          }
          if (signal.aborted) {
            phase = "interrupted"
            return await finish("interrupted")
          }
          if (unsent || (reading && pending)) continue
          throw new Error(`catalog sync run ${runId}: no page left to take back before the feed's end`)
        }
        open.delete(taken.seq)
        // A report still in flight must not land after the page's own counts.
        await reported
        writtenMark = productsWritten()
        const { page, fetchWaitMs, writeStarted } = taken
        const outcome = taken.outcome!
        if (outcome.paused) {
          // Nothing of this page was written and its cursor is not stored: the run continues here.
          phase = "paused"
          logger.warn(`catalog sync: run ${runId} paused by the safety brake: ${outcome.paused.reasons.map((r) => r.message).join("; ")}`)
          const pause = await withTitles(container, outcome.paused)
          await service.updateCatalogSyncRuns({ id: runId, brake: pause as unknown as Record<string, unknown> })
          return await finish("paused")
        }
        const plan = outcome.plan
        logger.info(
          `catalog sync page ${counts.pages + 1}: ${page.items.length} items (create ${plan.create.length}, update ${plan.update.length}, ` +
            `stock ${plan.stockOnly.length}, unchanged ${plan.unchanged.length}, remove ${plan.remove.length}, rejected ${page.rejected.length + outcome.rejected.length}); ` +
            `waited ${fetchWaitMs} ms for the page, wrote in ${Date.now() - writeStarted} ms ${JSON.stringify(outcome.timings)}`
        )
        const pageRejected = [...page.rejected, ...outcome.rejected]
        counts.pages++
        counts.items_seen += page.items.length + page.rejected.length
        counts.created += plan.create.length
        analyzer.after(counts.created)
        counts.updated += plan.update.length
        counts.stock_only += plan.stockOnly.length
        counts.unchanged += plan.unchanged.length
        counts.removed += plan.remove.length
        counts.skipped += pageRejected.length
        itemsDone = counts.items_seen
        omitted = addOmitted(omitted, outcome.changeLog.omitted)
        for (const r of pageRejected) {
          const record = toRunRecord(r)
          if (rejected.length < MAX_REJECTED_ON_RUN) rejected.push(record)
          logger.warn(rejectedLogLine(record))
        }
        // Kept cards with a part dropped (an image URL that is not http(s)): recorded, not skipped.
        for (const w of page.warnings ?? []) {
          const record = toRunRecord(w, { kept: true })
          if (rejected.length < MAX_REJECTED_ON_RUN) rejected.push(record)
          logger.warn(rejectedLogLine(record))
        }

        // A rejected card says nothing about whether its product is still on sale: during a
        // full pass its product (if the shop has it) counts as seen, so the sweep keeps it.
        const rejectedIds = pageRejected.map((r) => r.id).filter((id): id is string => Boolean(id))
        if (position.fullPassId && rejectedIds.length) {
          await service.updateCatalogProductMaps({
            selector: { catalog_id: rejectedIds },
            data: { last_seen_pass: position.fullPassId },
          })
        }

        const next = afterPage(position, page, settings.pricing)
        if (next.sweepPassId) {
          phase = "sweep"
          await fence.check()
          // Held before the pass's last cursor is stored; judged and applied below, with the run's other removals.
          const scope: RemovalScope = { unseenInPass: next.sweepPassId }
          await holdScope(container, scope, brake.discarded, "sweep", runId)
          await storeState({ last_full_pass_finished_at: new Date() })
        }
        await storeState({ ...next.state })
        position = { cursor: next.state.cursor, fullPassId: next.state.full_pass_id }
        await service.updateCatalogSyncRuns({ id: runId, ...counts, rejected_items: rejectedColumn(), progress: progress() })

        if (next.done) break
        if (signal.aborted && !writing.size && !ready.length) {
          phase = "interrupted"
          return await finish("interrupted")
        }
      }
    } finally {
      clearInterval(ticker)
      await analyzer.settle()
    }
    // The run has read its last page: its held removals, judged together, applied only now.
    const held = await countPending(db, "held")
    if (held.total) {
      phase = "judging removals"
      await fence.check()
      const judged = brake.checkRemovals(held.total, await heldSample(db))
      if (judged) {
        await markPaused(db, runId)
        const removal_ids = await heldIds(db, runId)
        return await pauseRun({ ...judged, removal_ids, price_drops: {}, held: { feed: held.feed, sweep: held.sweep, filter: held.filter } })
      }
      phase = "removing"
      await service.updateCatalogSyncRuns({ id: runId, progress: progress() })
      await beforeHeldApply()
      countRemoved(await applyHeld("held"))
    }
    phase = "done"
    const memory = brake.memoryAfterRun()
    if (memory) await storeState({ brake_memory: memory })
    return await finish("succeeded")
  } catch (error) {
    // No page of this run may still be written once it ends (the run that continues it replays them).
    await Promise.allSettled(writing.values())
    if (error instanceof LostRunLockError) {
      // Another run may own the state now: touch nothing of it; only this run's own row.
      await images?.close()
      const message = runErrorOf(error).message
      logger.error(message)
      await service.updateCatalogSyncRuns({
        id: runId,
        status: "interrupted",
        finished_at: new Date(),
        ...counts,
        rejected_items: rejectedColumn(),
        progress: { ...progress(), phase: "interrupted" },
        error_code: error.code,
        error_message: message,
      })
      return { status: "interrupted", errorCode: error.code }
    }
    if (error instanceof InvalidApiKeyError || error instanceof PlanRequiredError) {
      await storeState({
        blocked_code: error.code,
        blocked_message: error.message,
        blocked_revision: settings.revision,
      })
    }
    if (signal.aborted && (error as { name?: string })?.name === "AbortedError") {
      phase = "interrupted"
      return await finish("interrupted")
    }
    logger.error(`catalog sync run ${runId} failed: ${runErrorText(error, { withStack: true })}`)
    phase = "failed"
    return await finish("failed", error)
  }
}
