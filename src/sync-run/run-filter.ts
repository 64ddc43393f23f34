// The shop's filter brought up to date by a run that continues a cursor (a pass from the start
// reads the whole catalog through the filter and needs none): the cards the new filter adds are
// written outside the feed, and a narrowed filter's removals held with the run's other ones.
import type { Logger } from "@medusajs/framework/types"
import type { CatalogClient } from "../catalog-client/catalog-client"
import { appliedFilterOf } from "../catalog-filter/filter-change"
import { applyFilterChange } from "./filter-change"
import { pageContextFor, type PageContextParts } from "./page-dispatch"
import type { RunBrake } from "./run-brake"
import type { RunFence } from "./run-fence"
import { foldFilterWrite } from "./run-recorder"
import { holdScope } from "./sweep"
import { writePage } from "./write-page"

export interface FilterParts extends PageContextParts {
  client: CatalogClient
  signal: AbortSignal
  logger: Pick<Logger, "info">
  fence: RunFence
  brake: Pick<RunBrake, "discarded">
  storeState(patch: Record<string, unknown>): Promise<void>
}

/** `applied`: the filter the shop was last brought in line with (the state's applied_filter). */
export async function bringFilterUpToDate(run: FilterParts, applied: unknown): Promise<void> {
  const { state, settings, references, fence } = run
  state.phase = "filter"
  const changed = await applyFilterChange(appliedFilterOf(applied), settings.filter, references.categoryTree, {
    client: run.client,
    signal: run.signal,
    onRequest: () => state.counts.requests_used++,
    log: (line) => run.logger.info(line),
    writeCards: async (items) => {
      await references.forCards(items)
      await fence.check()
      foldFilterWrite(state.counts, await writePage(items, pageContextFor(run, null)))
    },
    holdAllBut: async (kept) => {
      await fence.check()
      return holdScope(run.container, { notIn: kept }, run.brake.discarded, "filter", state.runId)
    },
  })
  if (changed) await run.storeState({ applied_filter: settings.filter })
}
