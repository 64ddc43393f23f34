// What a sync run depends on beyond its container and its job: handed to runSync by the runtime
// (src/modules/catalog_sync_runtime), which resolves them once at start, so no part of the run
// reads the environment or looks the runtime up.
import type { PluginEnvironment } from "../config/environment"
import { writeConcurrency } from "../sync/write-concurrency"
import type { PageWrites } from "./page-writers"
import { testHooksFrom, type RunHooks } from "./test-hooks"

export interface RunDependencies {
  /** The runtime's page-writes queue when pages may be written on several instances; null: this process writes them. */
  pageWrites: PageWrites | null
  /** Concurrent workflows per page's creates and updates (CATALOG_SYNC_WRITE_CONCURRENCY). */
  writeConcurrency: number
  /** Test-only holds (test-hooks.ts); no-ops in production. */
  hooks: RunHooks
  /** The clock of the dates a run stores (started, finished, a pass's start and end). */
  now: () => Date
}

/** A run's dependencies from the runtime's resolved environment and its page-writes queue. */
export function runDependencies(env: PluginEnvironment, pageWrites: PageWrites | null): RunDependencies {
  return {
    pageWrites,
    writeConcurrency: writeConcurrency(env.CATALOG_SYNC_WRITE_CONCURRENCY),
    hooks: testHooksFrom(env),
    now: () => new Date(),
  }
}
