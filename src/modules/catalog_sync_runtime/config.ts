// The runtime's configuration, resolved once when the module loads: plugin options first,
// then Medusa's project config, then the environment (parsed in src/config/environment.ts).
// Nothing of the runtime reads options or the environment anywhere else.
import type { CatalogSyncPluginOptions } from "../../sync/settings"
import type { WritePath } from "../../sync/settings/plugin-options"
import { parseEnvironment, readEnvironment, type PluginEnvironment, type WorkerMode } from "../../config/environment"
import { DEFAULT_WORKER_NICE } from "../../queue/worker-priority"
import { DEFAULT_SYNC_HEAP_GROWTH_PERCENT, ownerHeapGrowthFlag, semiSpaceMbOf, v8LargestGrowthFactor } from "../../queue/heap-growth"

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
  /** Test hook: the scheduler fires every N ms instead of the settings' interval (never in production). */
  scheduleEveryMs: number | null
  /**
   * V8's heap growth while this process syncs: percent null leaves V8's policy alone (option or
   * env 0; ownerFlag, the process's own growth flag, which always wins; or V8's own largest
   * factor for this heap, v8Factor, no more than the one asked for).
   */
  heapGrowth: HeapGrowthConfig
  /** How product changes are written (option writePath over CATALOG_SYNC_WRITE_PATH; default "bulk"). */
  writePath: WritePath
  /** The niceness a worker instance takes (option workerNice over CATALOG_SYNC_WORKER_NICE; default 10); 0 in other modes. */
  workerNice: number
  /** Values of the environment or options that did not parse (ignored); the loader logs them. */
  problems: string[]
}

export type HeapGrowthConfig = {
  /** The growth held while syncing; null: V8's policy is left alone, for leftToV8's reason. */
  percent: number | null
  leftToV8: "owner_flag" | "option" | "v8_no_higher" | null
  /** The process's own growth flag, when it was started with one. */
  ownerFlag: string | null
  /** The largest factor V8's own policy may use for this heap size limit. */
  v8Factor: number
}

export const DEFAULT_REDIS_PREFIX = "mcs"
export const DEFAULT_RETRY_BACKOFF_MS = 30_000
export const DEFAULT_JOB_LOCK_MS = 60_000

export function resolveRuntimeConfig(input: {
  options?: CatalogSyncPluginOptions | null
  projectConfig?: { redisUrl?: string; workerMode?: string } | null
  env?: PluginEnvironment
  /** The process's command-line options for Node (default process.execArgv). */
  execArgv?: readonly string[]
  /** V8's heap size limit in bytes (default this process's). */
  heapSizeLimit?: number
  /** V8's version (default this process's): it sizes the young generation within that limit. */
  v8Version?: string
}): RuntimeConfig {
  const options = input.options ?? {}
  const env = input.env ?? readEnvironment()
  const parsed = parseEnvironment(env)
  const values = parsed.values
  const problems = parsed.problems.map((p) => `environment ${p}`)
  const projectMode = input.projectConfig?.workerMode
  const workerMode: WorkerMode =
    projectMode === "shared" || projectMode === "worker" || projectMode === "server" ? projectMode : (values.MEDUSA_WORKER_MODE ?? "shared")
  const processOptions = [...(input.execArgv ?? process.execArgv), ...(env.NODE_OPTIONS?.split(/\s+/) ?? [])]
  const heapGrowth = resolveHeapGrowth(
    options.syncHeapGrowthPercent,
    values.CATALOG_SYNC_HEAP_GROWTH_PERCENT,
    processOptions,
    v8LargestGrowthFactor(input.heapSizeLimit, semiSpaceMbOf(processOptions, input.v8Version))
  )
  if (heapGrowth.problem) problems.push(heapGrowth.problem)
  // A test hook a production deployment must not reach by accident: a leftover variable would
  // poll the catalog every few seconds, on the shop's quota.
  let scheduleEveryMs = values.CATALOG_SYNC_SCHEDULE_EVERY_MS ?? null
  if (scheduleEveryMs !== null && env.NODE_ENV === "production") {
    problems.push(
      "environment CATALOG_SYNC_SCHEDULE_EVERY_MS is a test hook, ignored when NODE_ENV is production; the schedule follows the poll interval of the settings"
    )
    scheduleEveryMs = null
  }
  let writePath: WritePath = values.CATALOG_SYNC_WRITE_PATH ?? "bulk"
  if (options.writePath !== undefined && options.writePath !== null) {
    if (options.writePath === "bulk" || options.writePath === "workflows") writePath = options.writePath
    else problems.push(`plugin option writePath=${JSON.stringify(options.writePath)} is not valid ("bulk" or "workflows"); ignored`)
  }
  let workerNice = values.CATALOG_SYNC_WORKER_NICE ?? DEFAULT_WORKER_NICE
  if (options.workerNice !== undefined && options.workerNice !== null) {
    if (Number.isInteger(options.workerNice) && options.workerNice >= 0 && options.workerNice <= 19) workerNice = options.workerNice
    else problems.push(`plugin option workerNice=${JSON.stringify(options.workerNice)} is not valid (a whole number from 0 to 19); ignored`)
  }
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
    scheduleEveryMs,
    heapGrowth: heapGrowth.config,
    writePath,
    // A process that serves the shop keeps its priority: lowering it would slow the shop too.
    workerNice: workerMode === "worker" ? workerNice : 0,
    problems,
  }
}

/**
 * The option over the environment over the default; a process flag of the owner's over all; and
 * only a factor below V8's own largest (holding a small heap to 2× would let it grow more).
 */
function resolveHeapGrowth(
  option: unknown,
  fromEnv: number | undefined,
  processOptions: readonly string[],
  v8Factor: number
): { config: HeapGrowthConfig; problem?: string } {
  let problem: string | undefined
  let chosen = fromEnv ?? DEFAULT_SYNC_HEAP_GROWTH_PERCENT
  if (option !== undefined && option !== null) {
    if (typeof option === "number" && Number.isInteger(option) && option >= 0 && option <= 300) chosen = option
    else problem = `plugin option syncHeapGrowthPercent=${JSON.stringify(option)} is not valid (a whole number from 0 to 300); ignored`
  }
  const ownerFlag = ownerHeapGrowthFlag(processOptions)
  const leftToV8 = ownerFlag ? "owner_flag" : chosen === 0 ? "option" : 1 + chosen / 100 >= v8Factor ? "v8_no_higher" : null
  return { config: { percent: leftToV8 ? null : chosen, leftToV8, ownerFlag, v8Factor }, problem }
}
