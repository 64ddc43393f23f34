// A run's pages on their way to the writers: read in feed order (page-reader.ts), each planned and
// judged by the brake here, its removals held, then handed to the run's page writers through the
// page window (page-window.ts), which takes them back in feed order.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { EffectiveSettings } from "../sync/settings"
import { categoryIdsFor } from "../workflows/extras"
import type { Placement } from "../workflows/page-input"
import { filterPageItems } from "./filter-pages"
import { pageSlot, type PageSlot } from "./ordered-cursor"
import type { PageImages } from "./page-images"
import type { ReadPage, PageReader } from "./page-reader"
import type { PageWindow } from "./page-window"
import type { PageWriters } from "./page-writers"
import type { RunBrake } from "./run-brake"
import type { RunFence } from "./run-fence"
import type { RunHolds } from "./run-holds"
import type { RunReferenceData } from "./run-reference-data"
import type { SyncRunState } from "./sync-run-state"
import type { WritePacing } from "./write-pacing"
import type { PaceRecord } from "../bulk-write/write-pace"
import type { SyncCatalogPageResult } from "../workflows/sync-catalog-page"
import type { RunHooks } from "./test-hooks"
import { finishPage, preparePage, type PageContext, type PageOutcome } from "./write-page"

/** What a page's context is made of. */
export interface PageContextParts {
  container: MedusaContainer
  settings: EffectiveSettings
  placement: Placement
  images: PageImages | null
  writeConcurrency: number
  state: SyncRunState
  references: RunReferenceData
  /** The run's lock: its page writes are fenced by it. */
  fence?: RunFence
}

/** How a page is written: the shop's placement, reference data and settings, in this pass (null: outside one). */
export function pageContextFor(parts: PageContextParts, fullPassId: string | null): PageContext {
  const { container, settings, placement, images, references, state } = parts
  return {
    container,
    runId: state.runId,
    mapContext: {
      primaryLanguage: settings.primaryLanguage,
      vocabulary: settings.vocabulary,
      salesChannelId: placement.salesChannelId,
      stockLocationId: placement.stockLocationId,
      // The reference data when the card is mapped (a page may add brands for later pages).
      categoryIdsFor: (product) => categoryIdsFor(product, references.refs),
      pricing: { rules: settings.pricingRules, categoryPathOf: references.categoryPaths() },
    },
    placement,
    removalMode: settings.removalMode,
    fullPassId,
    refs: references.refs,
    settings,
    writeConcurrency: parts.writeConcurrency,
    images,
    fence: parts.fence?.writeFence?.() ?? null,
  }
}

export interface PageDispatchParts extends PageContextParts {
  hooks: RunHooks
  fence: RunFence
  brake: RunBrake
  holds: RunHolds
  reader: PageReader
  window: PageWindow<PageOutcome>
  writers: PageWriters
  /** Paces the pages written in this process over the time the API leaves between pages. */
  pacing: WritePacing
  /** Told when a page was planned (the admin's progress shows what pages in flight found). */
  planned(): void
}

export class PageDispatch {
  constructor(private readonly run: PageDispatchParts) {}

  /** Reads pages and dispatches them while the window has room, until one must wait, a write failed or the cursor was refused. */
  async fill(): Promise<void> {
    const { reader, window, state } = this.run
    while (!window.failed && !reader.restartFor) {
      const read = await reader.next(state.restarts, window.hasRoom)
      if (!read) return
      // The slot with the reference data known before the page: a page naming new ones is written alone.
      const slot = pageSlot(read.page.items, this.run.references.refs)
      if (!window.mayDispatch(slot)) return
      reader.taken()
      await this.#dispatch(read, slot)
    }
  }

  async #dispatch({ page, fetchWaitMs }: ReadPage, slot: PageSlot): Promise<void> {
    const { settings, references, state, window, brake, holds, fence } = this.run
    await references.forPage(page.items, state.position.fullPassId !== null)
    const entry = window.open(page, fetchWaitMs, slot)
    state.itemsRead += page.items.length + page.rejected.length
    state.moreToRead = page.hasMore
    state.readingSince ??= new Date().toISOString()
    const ctx: PageContext = {
      ...pageContextFor(this.run, state.position.fullPassId),
      brake: brake.forPage(),
      onPlanned: (plan) => {
        entry.planned = plan
        this.run.planned()
      },
    }
    await this.run.hooks.beforePageWrite(entry.seq + 1, state.mode)
    // Fencing: a run that lost its lock writes no page (a page writer checks again).
    await fence.check()
    entry.writeStarted = Date.now()
    // Cards outside the shop's filter are written as removals (never created; removed if the shop has them).
    const prepared = await preparePage(filterPageItems(page.items, settings.filter, references.categoryTree), ctx)
    if (prepared.paused) {
      // Nothing of this page is written, nor read after it; it is taken back after the pages before it.
      this.run.reader.stop()
      window.settled(entry, {
        plan: prepared.plan,
        rejected: [],
        timings: { plan: Date.now() - prepared.started },
        changeLog: { stored: 0, omitted: {} },
        paused: prepared.paused,
      })
      return
    }
    // The page's removals are held before its write, so before its cursor can be stored; a
    // product the page sends again is no longer held for removal.
    const { create, update, stockOnly, unchanged } = prepared.plan
    await holds.holdPage(
      [...create, ...update, ...stockOnly, ...unchanged].map((p) => p.catalogId),
      prepared.held
    )
    // Counted now: the next page is judged with this one's drops.
    brake.written()
    const { writers, pacing, reader } = this.run
    // Written here: spread over the slack the previous page's write left before this page came.
    const pacer = writers.local ? pacing.forPage(fetchWaitMs, reader.nextPage) : null
    window.write(entry, async () => {
      let result: SyncCatalogPageResult
      let paced: PaceRecord | null
      try {
        result = await writers.write(prepared.input, entry.seq, pacer)
      } finally {
        paced = pacer && pacing.written(pacer)
      }
      const outcome = await finishPage(prepared, result, ctx)
      // The page's log line says how it was paced (the pauses it took, the points it could pause at).
      if (paced) outcome.timings = { ...outcome.timings, paced: Math.round(paced.pausedMs), pauses: paced.pauses, pace_points: paced.points }
      return outcome
    })
  }
}
