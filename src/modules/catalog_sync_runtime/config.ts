// The runtime's configuration, resolved once when the module loads: plugin options first,
// then Medusa's project config, then the environment (parsed in src/config/environment.ts).
// Nothing of the runtime reads options or the environment anywhere else.
import type { CatalogSyncPluginOptions } from "../../sync/settings"
import { parseEnvironment, readEnvironment, type PluginEnvironment, type WorkerMode } from "../../config/environment"

export type { WorkerMode }

export type RuntimeConfig = {
  /** The plugin options as given in medusa-config (the client factory reads its own fields). */
  options: CatalogSyncPluginOptions
  /** The raw environment the client factory falls back to (encryption secret, private networks, ceilings). */
  env: PluginEnvironment
  /** null: no Redis, so no queue, no schedule and no runs. */
  redisUrl: string | null
  workerMode: WorkerMode
  /** Every Redis key of the plugin starts with it ("mcs" unless CATALOG_SYNC_REDIS_PREFIX). */
  redisPrefix: string
  /** First retry delay of a failed run (doubling per attempt). */
  retryBackoffMs: number
  /** BullMQ's job lock (a job whose lock lapses is handed out again as stalled; liveness never depends on it). */
  jobLockMs: number
  /** Pages this process writes at once for any run (its page writer); 0: no page writer here. */
  pageWriters: number
  /** Pages a run keeps in flight; 1: written in the run's own process, one after another. */
  pagesInFlight: number
  /** Test hook: the scheduler fires every N ms instead of the settings' interval. */
  scheduleEveryMs: number | null
  /** Values of the environment that did not parse (ignored); the loader logs them. */
  problems: string[]
}

export const DEFAULT_REDIS_PREFIX = "mcs"
export const DEFAULT_RETRY_BACKOFF_MS = 30_000
export const DEFAULT_JOB_LOCK_MS = 60_000

export function resolveRuntimeConfig(input: {
  options?: CatalogSyncPluginOptions | null
  projectConfig?: { redisUrl?: string; workerMode?: string } | null
  env?: PluginEnvironment
}): RuntimeConfig {
  const options = input.options ?? {}
  const env = input.env ?? readEnvironment()
  const { values, problems } = parseEnvironment(env)
  const projectMode = input.projectConfig?.workerMode
  const workerMode: WorkerMode =
    projectMode === "shared" || projectMode === "worker" || projectMode === "server" ? projectMode : values.MEDUSA_WORKER_MODE ?? "shared"
  return {
    options,
    env,
    redisUrl: options.redisUrl || input.projectConfig?.redisUrl || values.REDIS_URL || null,
    workerMode,
    redisPrefix: values.CATALOG_SYNC_REDIS_PREFIX ?? DEFAULT_REDIS_PREFIX,
    retryBackoffMs: values.CATALOG_SYNC_RETRY_BACKOFF_MS ?? DEFAULT_RETRY_BACKOFF_MS,
    jobLockMs: values.CATALOG_SYNC_JOB_LOCK_MS ?? DEFAULT_JOB_LOCK_MS,
    pageWriters: values.CATALOG_SYNC_PAGE_WRITERS ?? 0,
    pagesInFlight: values.CATALOG_SYNC_PAGES_IN_FLIGHT ?? 1,
    scheduleEveryMs: values.CATALOG_SYNC_SCHEDULE_EVERY_MS ?? null,
    problems,
  }
}
