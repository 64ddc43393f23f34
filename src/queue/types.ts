// Shapes shared by the queue, the worker and the routes.
import type { EffectiveSettings, SettingsPatch, CatalogSyncPluginOptions } from "../sync/settings"

export type RunMode = "changes" | "full"
export type RunTrigger = "schedule" | "manual" | "settings" | "retry"
export type RunStatus = "queued" | "running" | "succeeded" | "failed" | "interrupted"

export type RunJobData = {
  /** Set for enqueued runs; scheduled jobs carry none and the worker creates the row. */
  runId?: string
  mode: RunMode
  trigger: RunTrigger
}

export type RunRow = {
  id: string
  trigger: string
  mode: RunMode
  status: RunStatus
  started_at: Date | string | null
  finished_at: Date | string | null
  error_code: string | null
  error_message: string | null
  job_id: string | null
  progress?: unknown
  rejected_items?: unknown
  created_at?: Date | string
  [field: string]: unknown
}

export type StateRow = {
  id: string
  phase: string
  cursor: string | null
  current_run_id: string | null
  blocked_code: string | null
  blocked_message: string | null
  blocked_revision: number | null
  [field: string]: unknown
}

/** The part of the catalog_sync module service the queue uses (keeps this folder testable). */
export interface CatalogSyncServiceLike {
  getPluginOptions(): CatalogSyncPluginOptions
  getEffectiveSettings(): Promise<EffectiveSettings>
  saveSettings(patch: SettingsPatch): Promise<EffectiveSettings>
  getState(): Promise<StateRow>
  updateState(patch: Record<string, unknown>): Promise<unknown>
  createCatalogSyncRuns(data: Record<string, unknown>): Promise<RunRow>
  updateCatalogSyncRuns(data: Record<string, unknown>): Promise<RunRow>
  retrieveCatalogSyncRun(id: string, config?: Record<string, unknown>): Promise<RunRow>
  listCatalogSyncRuns(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<RunRow[]>
  listAndCountCatalogSyncRuns(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<[RunRow[], number]>
  listAndCountCatalogProductMaps(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<[unknown[], number]>
  listCatalogProductMaps(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<any[]>
}

/** A run's failure codes that are worth retrying with backoff. */
export const TRANSIENT_ERROR_CODES = new Set([
  "network_error",
  "timeout",
  "internal_error",
  "service_unavailable",
  "server_error",
  "bad_gateway",
  "gateway_timeout",
  "rate_limited",
  "invalid_response",
])

/** 401/403: the schedule stops until the settings change. */
export const BLOCKING_ERROR_CODES = new Set(["invalid_api_key", "plan_required"])

export function isBlocked(state: Pick<StateRow, "blocked_code" | "blocked_revision">, settings: Pick<EffectiveSettings, "revision">): boolean {
  return !!state.blocked_code && state.blocked_revision === settings.revision
}
