// The plugin's per-process runtime: Redis connections, the queue (every mode) and the worker
// (worker and shared modes only). Started from the catalog_sync module's onApplicationStart
// hook, closed from its shutdown hooks, so `medusa db:migrate` (workerMode "server") never
// starts a worker and every connection is closed when the app stops.
import type Redis from "ioredis"
import type { CatalogSyncPluginOptions } from "../sync/settings"
import { closeRedis, createRedis, redisPrefix } from "./redis"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import { container as appContainer } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { RunLiveness } from "./run-liveness"
import { CatalogSyncQueue } from "./catalog-sync-queue"
import { CatalogSyncWorker, type RunSyncFn } from "./catalog-sync-worker"
import type { CatalogSyncServiceLike } from "./types"

type Logger = { info(m: string): void; warn(m: string): void; error(m: string, e?: unknown): void }

export type WorkerMode = "shared" | "worker" | "server"

class CatalogSyncRuntime {
  #options: CatalogSyncPluginOptions = {}
  #logger: Logger = console
  #container: any = null
  #redisUrl: string | null = null
  #workerMode: WorkerMode = "shared"
  #prefix = redisPrefix()
  #connections: Redis[] = []
  #commands: Redis | null = null
  #queue: CatalogSyncQueue | null = null
  #worker: CatalogSyncWorker | null = null
  #starting: Promise<void> | null = null
  #stopped = false

  /** The plugin options this process started with ({} before start). */
  get options(): CatalogSyncPluginOptions {
    return this.#options
  }

  get workerMode(): WorkerMode {
    return this.#workerMode
  }

  /** Whether this process runs syncs. */
  get runsWorker(): boolean {
    return this.#worker !== null
  }

  start(input: { options: CatalogSyncPluginOptions; logger: Logger }): Promise<void> {
    this.#starting ??= this.#start(input).catch((e) => {
      this.#logger.error(`catalog sync: could not start the queue: ${e?.message ?? e}`)
    })
    return this.#starting
  }

  async #start({ options, logger }: { options: CatalogSyncPluginOptions; logger: Logger }): Promise<void> {
    this.#options = options
    this.#logger = logger
    const container = appContainer
    this.#container = container
    const config = container.resolve("configModule") as any
    this.#workerMode = (config?.projectConfig?.workerMode ?? process.env.MEDUSA_WORKER_MODE ?? "shared") as WorkerMode
    this.#redisUrl = options.redisUrl || config?.projectConfig?.redisUrl || process.env.REDIS_URL || null
    this.#prefix = redisPrefix()
    if (!this.#redisUrl) {
      logger.warn("catalog sync: no Redis URL (plugin option redisUrl or projectConfig.redisUrl); scheduling and runs are off")
      return
    }
    if (this.#workerMode === "server") return // the queue is opened lazily for enqueueing
    const runSync = loadRunSync() // now, so a broken engine shows at start rather than at the first run
    const queue = await this.queue()
    await queue.syncSchedule(await this.#service().getEffectiveSettings())
    // The worker resumes interrupted work (a run whose process died) as soon as it exists.
    this.#worker = new CatalogSyncWorker({
      connection: this.#connect("worker"),
      prefix: this.#prefix,
      liveness: this.#liveness(),
      queue,
      container,
      service: () => this.#service(),
      runSync: () => runSync,
      logger,
    })
    logger.info(`catalog sync: worker started (mode ${this.#workerMode}, Redis prefix "${this.#prefix}")`)
  }

  #liveness(): RunLiveness {
    return new RunLiveness(this.#container.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  }

  #service(): CatalogSyncServiceLike {
    return this.#container.resolve(CATALOG_SYNC_MODULE)
  }

  #connect(name: string): Redis {
    const redis = createRedis(this.#redisUrl!, name)
    redis.on("error", (e) => this.#logger.warn(`catalog sync redis (${name}): ${e.message}`))
    this.#connections.push(redis)
    return redis
  }

  /** The connection for locks, mutexes and the shared rate limit; null without Redis. */
  commandRedis(): Redis | null {
    if (!this.#redisUrl || this.#stopped) return null
    this.#commands ??= this.#connect("commands")
    return this.#commands
  }

  /** The queue, opened on first use (routes on server-mode instances enqueue through it). */
  async queue(): Promise<CatalogSyncQueue> {
    if (this.#starting) await this.#starting
    if (this.#queue) return this.#queue
    if (!this.#redisUrl || this.#stopped) {
      throw new Error("The catalog sync queue is not available: Redis is not configured or the app is stopping")
    }
    const queue = new CatalogSyncQueue({
      queueConnection: this.#connect("queue"),
      redis: this.commandRedis()!,
      prefix: this.#prefix,
      service: () => this.#service(),
      liveness: this.#liveness(),
    })
    await queue.init()
    this.#queue ??= queue
    return this.#queue
  }

  /** Before the container goes: stop the worker, checkpointing the run in progress. */
  async prepareShutdown(): Promise<void> {
    const worker = this.#worker
    this.#worker = null
    if (worker) {
      this.#logger.info("catalog sync: stopping the worker (the run in progress stops at a page boundary)")
      await worker.close().catch((e) => this.#logger.warn(`catalog sync: worker close: ${e?.message ?? e}`))
    }
  }

  /** Closes the queue and every Redis connection this process opened. */
  async shutdown(): Promise<void> {
    await this.prepareShutdown()
    this.#stopped = true
    const queue = this.#queue
    this.#queue = null
    if (queue) await queue.close().catch(() => undefined)
    const connections = this.#connections
    this.#connections = []
    this.#commands = null
    await Promise.all(connections.map(closeRedis))
    // Ready for another start in the same process (medusa develop reloads in place).
    this.#starting = null
    this.#stopped = false
  }
}

/**
 * The engine's runSync. Required lazily: the engine imports module links, which import this
 * module's definition, so a top-level import would be circular while the module loads.
 */
function loadRunSync(): RunSyncFn {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const mod = require("../sync-run/run-sync") as typeof import("../sync-run/run-sync")
  return mod.runSync as RunSyncFn
}

export const catalogSyncRuntime = new CatalogSyncRuntime()
