// The catalog_sync_runtime module's service: this process's queue (every worker mode), worker
// (worker and shared modes only), run lock and catalog client factory. Shaped like Medusa's
// event-bus-redis: the loader resolves the configuration and opens Redis; the application
// hooks start the worker and close everything, so `medusa db:migrate` (workerMode "server")
// never starts a worker and every connection is closed when the app stops.
import { container as appContainer } from "@medusajs/framework"
import { guardSchemaAtStart } from "../../shop-writer/choose-shop-writer"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type Redis from "ioredis"
import { CATALOG_SYNC_MODULE, type CatalogSyncModuleService } from "../catalog_sync"
import { CatalogClientFactory } from "../../queue/catalog-client-factory"
import { CatalogSyncQueue } from "../../queue/catalog-sync-queue"
import { CatalogSyncWorker } from "../../queue/catalog-sync-worker"
import { queueFirstSyncIfNeverSynced } from "../../queue/first-sync"
import { PageWritesQueue } from "../../queue/page-writes-queue"
import { PageWritesWorker } from "../../queue/page-writes-worker"
import { SyncHeapGrowth } from "../../queue/heap-growth"
import { CatalogSyncAlerts } from "../../queue/catalog-sync-alerts"
import type { RedisConnections } from "../../queue/redis"
import { RunLiveness } from "../../queue/run-liveness"
import type { CatalogSyncPluginOptions } from "../../sync/settings"
import { lowerProcessPriority } from "../../queue/worker-priority"
// The run loop (runSync). The one import of it in the runtime: the worker is handed this function.
import { runSync } from "../../sync-run/run-sync"
import { runDependencies, type RunDependencies } from "../../sync-run/run-dependencies"
import type { RuntimeConfig, WorkerMode } from "./config"
import { RUNTIME_CONFIG_KEY, RUNTIME_REDIS_KEY } from "./loader"

type InjectedDependencies = {
  logger: Logger
  [ContainerRegistrationKeys.PG_CONNECTION]: ConstructorParameters<typeof RunLiveness>[0]
  [RUNTIME_CONFIG_KEY]: RuntimeConfig
  [RUNTIME_REDIS_KEY]: RedisConnections | null
}

export default class CatalogSyncRuntimeService {
  protected readonly logger_: Logger
  protected readonly config_: RuntimeConfig
  protected readonly redis_: RedisConnections | null
  protected readonly pg_: InjectedDependencies[typeof ContainerRegistrationKeys.PG_CONNECTION]
  /** Builds the catalog clients of runs and routes (one rate limit per key, in Redis when there is one). */
  readonly clients: CatalogClientFactory
  #queue: Promise<CatalogSyncQueue> | null = null
  #worker: CatalogSyncWorker | null = null
  /** Where runs of this process dispatch pages when they keep several in flight. */
  #pageWrites: PageWritesQueue | null = null
  /** This process's page writer (CATALOG_SYNC_PAGE_WRITERS > 0). */
  #pageWriter: PageWritesWorker | null = null
  #starting: Promise<void> | null = null
  /** V8's heap growth, held while a run or a page write is in progress in this process. */
  readonly #heapGrowth: SyncHeapGrowth
  /** Notifications to the shop owner (the Notification module's feed, and email when set up). */
  readonly alerts: CatalogSyncAlerts

  constructor(deps: InjectedDependencies) {
    this.logger_ = deps.logger
    this.config_ = deps[RUNTIME_CONFIG_KEY]
    this.redis_ = deps[RUNTIME_REDIS_KEY]
    this.pg_ = deps[ContainerRegistrationKeys.PG_CONNECTION]
    this.clients = new CatalogClientFactory({
      options: this.config_.options,
      env: this.config_.env,
      redis: () => this.commandRedis(),
      prefix: this.config_.redisPrefix,
    })
    this.#heapGrowth = new SyncHeapGrowth({ percent: this.config_.heapGrowth.percent })
    this.alerts = new CatalogSyncAlerts({
      container: () => this.appContainer_(),
      logger: this.logger_,
    })
  }

  // Invoked by Medusa (modules-sdk MedusaModule) in every process that boots the app, including
  // `medusa db:migrate` (which forces workerMode "server"). Medusa swallows a hook's error, so
  // each one logs its own.
  __hooks = {
    onApplicationStart: async () => {
      // The schema guard at start: a difference is logged now, not at the first write.
      await guardSchemaAtStart(this.config_.writePath, this.appContainer_()).catch((e) =>
        this.logger_.warn(`catalog sync: schema check failed: ${e?.message ?? e}`)
      )
      this.#starting ??= this.start_().catch((e) => {
        this.logger_.error(`catalog sync: could not start the queue: ${e?.message ?? e}`)
      })
      await this.#starting
    },
    onApplicationPrepareShutdown: async () => {
      await this.stopWorker_()
    },
    onApplicationShutdown: async () => {
      await this.close_()
    },
  }

  /** The plugin options this process started with. */
  get options(): CatalogSyncPluginOptions {
    return this.config_.options
  }

  get workerMode(): WorkerMode {
    return this.config_.workerMode
  }

  /** Whether this process runs syncs. */
  get runsWorker(): boolean {
    return this.#worker !== null
  }

  /**
   * Where a run of this process dispatches its pages, and how many it keeps in flight; null when
   * pages are written in the run's own process, one after another (CATALOG_SYNC_PAGES_IN_FLIGHT 1).
   */
  pageWrites(): { queue: PageWritesQueue; inFlight: number; settleTimeoutMs: number } | null {
    if (!this.#pageWrites || this.config_.pagesInFlight <= 1) return null
    // A dead writer's page is failed by BullMQ's stall check within about twice the job lock.
    return { queue: this.#pageWrites, inFlight: this.config_.pagesInFlight, settleTimeoutMs: 2 * this.config_.jobLockMs + 5_000 }
  }

  /** What a run of this process depends on: page writers, write concurrency, test hooks, clock. */
  runDependencies(): RunDependencies {
    return runDependencies(this.config_.env, this.pageWrites())
  }

  /** The connection for locks, mutexes and the shared rate limit; null without Redis or once stopped. */
  commandRedis(): Redis | null {
    return this.redis_?.commands() ?? null
  }

  /** How often the schedule polls with these settings (the test interval when one is set). */
  pollEveryMs(settings: { pollIntervalMinutes: number }): number {
    return this.config_.scheduleEveryMs ?? settings.pollIntervalMinutes * 60_000
  }

  /** The queue, opened on first use (routes on server-mode instances enqueue through it). */
  async queue(): Promise<CatalogSyncQueue> {
    if (this.#starting) await this.#starting
    if (!this.redis_ || this.redis_.closed) {
      throw new Error("The catalog sync queue is not available: Redis is not configured or the app is stopping")
    }
    this.#queue ??= this.openQueue_(this.redis_).catch((e) => {
      this.#queue = null
      throw e
    })
    return this.#queue
  }

  protected async openQueue_(redis: RedisConnections): Promise<CatalogSyncQueue> {
    const queue = new CatalogSyncQueue({
      queueConnection: redis.connect("queue"),
      redis: redis.commands()!,
      prefix: this.config_.redisPrefix,
      service: () => this.dataService_(),
      liveness: this.liveness_(),
      retryBackoffMs: this.config_.retryBackoffMs,
      scheduleEveryMs: this.config_.scheduleEveryMs,
      onResumeStalled: (row, stalled) => this.alerts.notify({ kind: "resume_stalled", runId: row.id, stalled }),
      onError: (e) => this.logger_.warn(`catalog sync queue: ${e?.message ?? e}`),
    })
    await queue.init()
    return queue
  }

  protected async start_(): Promise<void> {
    if (!this.redis_) {
      this.logger_.warn("catalog sync: no Redis URL (plugin option redisUrl or projectConfig.redisUrl); scheduling and runs are off")
      return
    }
    if (this.config_.workerMode === "server") return // the queue is opened on first use, for enqueueing
    const queue = await this.openQueueNow_()
    await queue.syncSchedule(await this.dataService_().getEffectiveSettings())
    await this.startPageWrites_(this.redis_)
    // The worker resumes interrupted work (a run whose process died) as soon as it exists.
    this.#worker = new CatalogSyncWorker({
      connection: this.redis_.connect("worker"),
      prefix: this.config_.redisPrefix,
      liveness: this.liveness_(),
      queue,
      container: this.appContainer_(),
      service: () => this.dataService_(),
      // The run gets what it depends on from here (this instance's page-writes queue among them):
      // it never looks the runtime up nor reads the environment.
      runSync: (container, input) => runSync(container, { ...input, dependencies: this.runDependencies() }),
      clients: this.clients,
      logger: this.logger_,
      retryBackoffMs: this.config_.retryBackoffMs,
      jobLockMs: this.config_.jobLockMs,
      heapGrowth: this.#heapGrowth,
      alerts: this.alerts,
    })
    // Redis back after an outage (perhaps restarted empty): re-create the schedule and queue
    // settings at once rather than at the recovery loop's next pass.
    this.redis_.commands()?.on("ready", () => this.#worker?.recover())
    this.logger_.info(`catalog sync: worker started (mode ${this.config_.workerMode}, Redis prefix "${this.config_.redisPrefix}")`)
    this.logHeapGrowth_()
    this.lowerWorkerPriority_()
    await this.queueFirstSyncAtBoot_(queue)
  }

  /** The page-writes queue a run dispatches to, and this process's page writer when it has one. */
  protected async startPageWrites_(redis: RedisConnections): Promise<void> {
    const { pageWriters, pagesInFlight, redisPrefix: prefix } = this.config_
    if (pagesInFlight > 1) {
      const pages = new PageWritesQueue({
        queueConnection: redis.connect("page-writes"),
        eventsConnection: redis.connect("page-events"),
        prefix,
        onError: (source, e) => this.logger_.warn(`catalog sync ${source}: ${e?.message ?? e}`),
      })
      await pages.init()
      this.#pageWrites = pages
    }
    if (pageWriters > 0) {
      this.#pageWriter = new PageWritesWorker({
        connection: redis.connect("page-writer"),
        prefix,
        concurrency: pageWriters,
        jobLockMs: this.config_.jobLockMs,
        liveness: this.liveness_(),
        container: () => this.appContainer_(),
        logger: this.logger_,
        heapGrowth: this.#heapGrowth,
      })
    }
    if (pagesInFlight > 1 || pageWriters > 0) {
      this.logger_.info(`catalog sync: pages in flight per run ${pagesInFlight}, page writers in this process ${pageWriters}`)
    }
  }

  /** queue() without waiting for start (start itself opens it). */
  protected openQueueNow_(): Promise<CatalogSyncQueue> {
    this.#queue ??= this.openQueue_(this.redis_!)
    return this.#queue
  }

  /**
   * Options that already hold a base URL and key: a shop that never synced starts its first
   * full sync at boot (on instances that run the worker; never during `medusa db:migrate`).
   */
  protected async queueFirstSyncAtBoot_(queue: CatalogSyncQueue): Promise<void> {
    try {
      const queued = await queueFirstSyncIfNeverSynced({ service: this.dataService_(), queue })
      if (queued && !queued.alreadyRunning) this.logger_.info(`catalog sync: first full sync queued at start (run ${queued.run.id})`)
    } catch (e: any) {
      this.logger_.warn(`catalog sync: could not queue the first sync: ${e?.message ?? e}`)
    }
  }

  /** Before the container goes: stop the worker, checkpointing the run in progress. */
  protected async stopWorker_(): Promise<void> {
    const worker = this.#worker
    this.#worker = null
    if (worker) {
      this.logger_.info("catalog sync: stopping the worker (the run in progress stops at a page boundary)")
      await worker.close().catch((e) => this.logger_.warn(`catalog sync: worker close: ${e?.message ?? e}`))
    }
    // After the run stopped: its pages in flight were waited for (some perhaps written here).
    const pageWriter = this.#pageWriter
    this.#pageWriter = null
    if (pageWriter) await pageWriter.close().catch((e) => this.logger_.warn(`catalog sync: page writer close: ${e?.message ?? e}`))
  }

  /** A worker instance yields the CPU to a server instance on the same machine (src/queue/worker-priority.ts). */
  protected lowerWorkerPriority_(): void {
    const { workerNice } = this.config_
    if (this.config_.workerMode !== "worker") return
    const outcome = lowerProcessPriority(workerNice)
    this.logger_.info(
      "left" in outcome
        ? "catalog sync: this worker instance keeps its CPU priority (workerNice 0)"
        : `catalog sync: this worker instance runs at nice ${outcome.nice} (${outcome.threads} threads set; workerNice), so a server instance on the same machine answers shoppers first`
    )
  }

  /** What this process does with V8's heap growth while it syncs, said once at start. */
  protected logHeapGrowth_(): void {
    const { percent, leftToV8, ownerFlag, v8Factor } = this.config_.heapGrowth
    const said =
      leftToV8 === "owner_flag"
        ? `the process was started with ${ownerFlag}; V8's heap growth is left as it sets`
        : leftToV8 === "option"
          ? "V8's heap growth is left to V8 while syncing (syncHeapGrowthPercent 0, the default)"
          : leftToV8 === "v8_no_higher"
            ? `V8's heap growth is left to V8 while syncing: its own largest factor for this heap, ${v8Factor.toFixed(1)}×, is no more than syncHeapGrowthPercent's`
            : `while syncing, V8's heap grows by ${percent} % between full collections, in place of V8's own factor of up to ${v8Factor.toFixed(1)}× (syncHeapGrowthPercent)`
    this.logger_.info(`catalog sync: ${said}`)
  }

  /** Closes the queue and every Redis connection this process opened. */
  protected async close_(): Promise<void> {
    await this.stopWorker_()
    // Alerts of this process still being sent (recovery's among them) before Redis closes.
    await this.alerts.settle()
    this.#heapGrowth.close()
    const queue = this.#queue
    this.#queue = null
    if (queue) await queue.then((q) => q.close()).catch(() => undefined)
    const pages = this.#pageWrites
    this.#pageWrites = null
    if (pages) await pages.close()
    await this.redis_?.closeAll()
  }

  protected liveness_(): RunLiveness {
    return new RunLiveness(this.pg_)
  }

  /**
   * The app's container. A plugin module's own container holds neither the other modules nor
   * the workflows a run needs, so the data module and runSync are reached through the app's,
   * only once the application has started.
   */
  protected appContainer_(): MedusaContainer {
    return appContainer
  }

  protected dataService_(): CatalogSyncModuleService {
    return this.appContainer_().resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  }
}
