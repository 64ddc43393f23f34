// Shapes shared by the queue, the worker and the routes. Rows are the data module's own types
// (inferred from its models), and the service is the module service itself.
import type { InferTypeOf } from "@medusajs/framework/types"
import type { EffectiveSettings } from "../sync/settings"
import type CatalogSyncRun from "../modules/catalog_sync/models/catalog-sync-run"
import type { CatalogSyncStateRow } from "../modules/catalog_sync/models/catalog-sync-state"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"

export type { CatalogSyncModuleService }

/** "reprice": new pricing rules applied to the stored costs (src/sync-run/reprice-run.ts), no API request. */
export type RunMode = "changes" | "full" | "reprice"
export type RunTrigger = "schedule" | "manual" | "settings" | "retry" | "rules_changed"
export type RunStatus = "queued" | "running" | "paused" | "succeeded" | "failed" | "interrupted"

export type RunJobData = {
  /** Set for enqueued runs; scheduled jobs carry none and the worker creates the row. */
  runId?: string
  mode: RunMode
  trigger: RunTrigger
}

/** A mcs_sync_run row. */
export type RunRow = InferTypeOf<typeof CatalogSyncRun>
/** The mcs_sync_state row. */
export type StateRow = CatalogSyncStateRow

/**
 * Whether the catalog refused the key or plan for these settings: a block holds for the settings
 * revision it was found with (a save of another key or address lifts it), and for every revision
 * while a save that keeps it is landing (blocked_revision null: the save's two writes, the
 * settings' new revision and the block's, are not one, and a scheduled run between them asked the
 * catalog with the refused key).
 */
export function isBlocked(state: Pick<StateRow, "blocked_code" | "blocked_revision">, settings: Pick<EffectiveSettings, "revision">): boolean {
  return !!state.blocked_code && (state.blocked_revision === null || state.blocked_revision === settings.revision)
}
