// The one file that reads environment variables. Every other file takes what it needs from
// readEnvironment() (or is handed it), so the plugin's whole environment is listed here.
// parseEnvironment() types and validates (zod) the variables the runtime module resolves once.
import { z } from "zod"

/** Every variable the plugin reads, trimmed; undefined when unset or blank. */
export interface PluginEnvironment {
  /** Secret for the saved key's encryption (plugin option encryptionKey first). */
  CATALOG_SYNC_ENCRYPTION_KEY?: string
  /** "true"/"1"/"yes": let the plugin reach non-public addresses (option allowPrivateNetworks first). */
  CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS?: string
  /** Prefix of every Redis key of the plugin (default "mcs"). */
  CATALOG_SYNC_REDIS_PREFIX?: string
  /** Ceiling on the limits adopted from /v1/me (option rateLimitCeiling first). */
  CATALOG_SYNC_MAX_RPM?: string
  CATALOG_SYNC_MAX_CONCURRENT?: string
  /** Concurrent write chunks per page. */
  CATALOG_SYNC_WRITE_CONCURRENCY?: string
  /** Pages this process writes at once for any instance's run (its page writer; default 0: none). */
  CATALOG_SYNC_PAGE_WRITERS?: string
  /** Pages a run keeps being written at once (default 1: written in the run's own process, in order). */
  CATALOG_SYNC_PAGES_IN_FLIGHT?: string
  /** "1": log the time of each write step. */
  CATALOG_SYNC_PROFILE?: string
  /**
   * Test-only: schedule every N ms instead of the poll interval (ignored when NODE_ENV is
   * "production"); retry backoff; client retries.
   */
  CATALOG_SYNC_SCHEDULE_EVERY_MS?: string
  CATALOG_SYNC_RETRY_BACKOFF_MS?: string
  CATALOG_SYNC_JOB_LOCK_MS?: string
  CATALOG_SYNC_CLIENT_MAX_RETRIES?: string
  /** Idle-poll economy: how old the reference lists and the /v1/me limits may get (default 1 h each). */
  CATALOG_SYNC_REFERENCE_MAX_AGE_MS?: string
  CATALOG_SYNC_LIMITS_MAX_AGE_MS?: string
  /** Test-only page hooks (see src/sync-run/test-hooks.ts). */
  CATALOG_SYNC_TEST_PAGE_DELAY_MS?: string
  CATALOG_SYNC_TEST_BLOCK_LOOP_MS?: string
  CATALOG_SYNC_TEST_HOOK_MODE?: string
  CATALOG_SYNC_TEST_HELD_APPLY_DELAY_MS?: string
  /** Test-only: change-log rows a run stores at most, instead of the policy's cap. */
  CATALOG_SYNC_TEST_CHANGE_LOG_CAP?: string
  /** Opt-in V8 heap growth held while syncing, in percent (option syncHeapGrowthPercent first; 0, the default: V8's own). */
  CATALOG_SYNC_HEAP_GROWTH_PERCENT?: string
  /** How product changes are written: "bulk" (default) or "workflows" (option writePath first). */
  CATALOG_SYNC_WRITE_PATH?: string
  /** A worker instance's niceness, 0 to 19 (option workerNice first; default 10). */
  CATALOG_SYNC_WORKER_NICE?: string
  /** Node's own: the process's options (its --max-semi-space-size sizes the heap V8 may grow into). */
  NODE_OPTIONS?: string
  /** Node's convention: "production" turns the test-only schedule hook off. */
  NODE_ENV?: string
  /** Medusa's own: the worker mode and Redis URL when medusa-config does not set them. */
  MEDUSA_WORKER_MODE?: string
  REDIS_URL?: string
}

const NAMES: (keyof PluginEnvironment)[] = [
  "CATALOG_SYNC_ENCRYPTION_KEY",
  "CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS",
  "CATALOG_SYNC_REDIS_PREFIX",
  "CATALOG_SYNC_MAX_RPM",
  "CATALOG_SYNC_MAX_CONCURRENT",
  "CATALOG_SYNC_WRITE_CONCURRENCY",
  "CATALOG_SYNC_PAGE_WRITERS",
  "CATALOG_SYNC_PAGES_IN_FLIGHT",
  "CATALOG_SYNC_PROFILE",
  "CATALOG_SYNC_SCHEDULE_EVERY_MS",
  "CATALOG_SYNC_RETRY_BACKOFF_MS",
  "CATALOG_SYNC_JOB_LOCK_MS",
  "CATALOG_SYNC_CLIENT_MAX_RETRIES",
  "CATALOG_SYNC_REFERENCE_MAX_AGE_MS",
  "CATALOG_SYNC_LIMITS_MAX_AGE_MS",
  "CATALOG_SYNC_TEST_PAGE_DELAY_MS",
  "CATALOG_SYNC_TEST_BLOCK_LOOP_MS",
  "CATALOG_SYNC_TEST_HOOK_MODE",
  "CATALOG_SYNC_TEST_HELD_APPLY_DELAY_MS",
  "CATALOG_SYNC_TEST_CHANGE_LOG_CAP",
  "CATALOG_SYNC_HEAP_GROWTH_PERCENT",
  "CATALOG_SYNC_WRITE_PATH",
  "CATALOG_SYNC_WORKER_NICE",
  "NODE_OPTIONS",
  "NODE_ENV",
  "MEDUSA_WORKER_MODE",
  "REDIS_URL",
]

/**
 * The plugin's environment, read now (not at import time: tests and the demo set variables
 * before a run, and a value read once at load would miss them).
 */
export function readEnvironment(env: Record<string, string | undefined> = process.env): PluginEnvironment {
  const out: PluginEnvironment = {}
  for (const name of NAMES) {
    const value = env[name]?.trim()
    if (value) out[name] = value
  }
  return out
}

/** The process's environment as a plain record, for entry points that pass it on (the CLI). */
export function processEnvironment(): Record<string, string | undefined> {
  return process.env
}

/** Medusa's worker modes (projectConfig.workerMode, env MEDUSA_WORKER_MODE). */
export type WorkerMode = "shared" | "worker" | "server"

const positiveInt = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER)
const flag = z.string().transform((v) => /^(true|1|yes)$/i.test(v))

/** How each variable is parsed; a value that fails is treated as unset (and reported). */
const typedSchemas = {
  CATALOG_SYNC_ENCRYPTION_KEY: z.string(),
  CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS: flag,
  CATALOG_SYNC_REDIS_PREFIX: z.string(),
  CATALOG_SYNC_MAX_RPM: positiveInt,
  CATALOG_SYNC_MAX_CONCURRENT: positiveInt,
  CATALOG_SYNC_SCHEDULE_EVERY_MS: z.coerce.number().positive().finite(),
  CATALOG_SYNC_RETRY_BACKOFF_MS: z.coerce.number().positive().finite(),
  CATALOG_SYNC_PAGE_WRITERS: z.coerce.number().int().min(0).max(64),
  CATALOG_SYNC_PAGES_IN_FLIGHT: z.coerce.number().int().min(1).max(64),
  CATALOG_SYNC_JOB_LOCK_MS: z.coerce.number().int().min(1000).max(3_600_000),
  CATALOG_SYNC_CLIENT_MAX_RETRIES: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  CATALOG_SYNC_REFERENCE_MAX_AGE_MS: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  CATALOG_SYNC_LIMITS_MAX_AGE_MS: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  CATALOG_SYNC_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300),
  CATALOG_SYNC_WRITE_PATH: z.enum(["bulk", "workflows"]),
  CATALOG_SYNC_WORKER_NICE: z.coerce.number().int().min(0).max(19),
  MEDUSA_WORKER_MODE: z.enum(["shared", "worker", "server"]),
  REDIS_URL: z.string(),
} as const

type TypedName = keyof typeof typedSchemas

/** The variables the runtime uses, parsed: numbers as numbers, flags as booleans. */
export type TypedEnvironment = { [K in TypedName]?: z.output<(typeof typedSchemas)[K]> }

/**
 * The runtime's variables parsed with zod. A value that does not parse counts as unset, as it
 * always did (the default applies), and is named in `problems` so the loader can say so.
 */
export function parseEnvironment(raw: PluginEnvironment = readEnvironment()): { values: TypedEnvironment; problems: string[] } {
  const values: Record<string, unknown> = {}
  const problems: string[] = []
  for (const name of Object.keys(typedSchemas) as TypedName[]) {
    const value = raw[name]
    if (value === undefined) continue
    const parsed = typedSchemas[name].safeParse(value)
    if (parsed.success) values[name] = parsed.data
    else
      problems.push(
        `${name}=${name === "CATALOG_SYNC_ENCRYPTION_KEY" ? "…" : JSON.stringify(value)} is not valid (${parsed.error.issues[0]?.message ?? "invalid"}); ignored`
      )
  }
  return { values: values as TypedEnvironment, problems }
}
