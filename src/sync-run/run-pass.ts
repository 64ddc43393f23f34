// A full pass begun by a sync run: the sync state moved to it (its old cursor dropped), and the
// run's progress told its id and the catalog's expected size.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Position } from "../sync/run-state"
import type { EffectiveSettings } from "../sync/settings"
import { expectedCatalogTotal } from "./expected-total"
import type { RunRecorder } from "./run-recorder"
import type { SyncRunState } from "./sync-run-state"

export interface PassParts {
  container: MedusaContainer
  settings: Pick<EffectiveSettings, "filter">
  state: SyncRunState
  recorder: RunRecorder
  storeState(patch: Record<string, unknown>): Promise<void>
  now: () => Date
}

/** At the run's start and after each restart: a position without a cursor begins a pass. */
export async function beginPass(run: PassParts, pos: Position): Promise<void> {
  const { state } = run
  if (pos.cursor === null) {
    // The old cursor goes with the old pass: were it kept, a run that dies before this
    // pass commits a page would let the next run continue the old feed under the new
    // pass id, and the sweep would then remove every product not changed since.
    await run.storeState({
      cursor: null,
      cursor_pricing: null,
      full_pass_id: pos.fullPassId,
      full_pass_started_at: run.now(),
      phase: "full_export",
      // A pass from the start reads the whole catalog through the filter (filterPageItems).
      applied_filter: run.settings.filter,
    })
  }
  // Recorded only once the state holds the pass, so a run continuing this one resumes a
  // pass that really began (else, for a full run, it begins one).
  state.passId = pos.fullPassId ?? state.passId
  // A full pass reads the whole catalog: its expected size gives the admin a percent and an ETA.
  // Only a figure for the admin: a failed read leaves it unknown rather than failing the run.
  if (pos.fullPassId) state.expected = await expectedCatalogTotal(run.container, state.startedAt, state.runId).catch(() => ({ total: null, source: null }))
  await run.recorder.progress()
}
