// This instance's page writer: a BullMQ worker on the page-writes queue (page-writes-queue.ts),
// taking pages any instance's run dispatched. Before writing, it checks the run's fence (the run
// must still hold the run lock: a run that lost it writes nothing) and checks the plan again
// against the map rows as they are now (a card overtaken meanwhile is not applied). A job whose
// writer died stalls and is failed, never written twice at once.
import { randomUUID } from "node:crypto"
import { hostname } from "node:os"
import { UnrecoverableError, Worker } from "bullmq"
import type Redis from "ioredis"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { withoutStaleCards } from "../sync/stale-cards"
import type { PagePlan } from "../sync/plan-page"
import { localPageWriter } from "../sync-run/write-page"
import { readMapRows } from "../modules/catalog_sync/sql/product-map"
import { PAGE_WRITES_QUEUE_NAME, type PageWriteJob, type PageWriteResult } from "./page-writes-queue"
import type { RunLivenessLike } from "./run-liveness"
import type { SyncHeapGrowth } from "./heap-growth"

export class PageWritesWorker {
  readonly worker: Worker<PageWriteJob, PageWriteResult>

  constructor(input: {
    connection: Redis
    prefix: string
    /** Pages written at once in this process. */
    concurrency: number
    /** BullMQ's job lock: a page job whose writer died is failed after about this long. */
    jobLockMs: number
    liveness: Pick<RunLivenessLike, "holder">
    container: () => MedusaContainer
    logger: Pick<Logger, "info" | "warn" | "error">
    /** Held while a page is written here (V8's heap growth; see heap-growth.ts). */
    heapGrowth?: Pick<SyncHeapGrowth, "hold">
  }) {
    const { liveness, logger } = input
    this.worker = new Worker<PageWriteJob, PageWriteResult>(
      PAGE_WRITES_QUEUE_NAME,
      async (job) => {
        const { runId, page } = job.data
        const holder = await liveness.holder()
        if (holder !== runId)
          throw new UnrecoverableError(`run ${runId} no longer holds the run lock (held by ${holder ?? "none"}); page ${page + 1} not written`)
        const started = Date.now()
        const releaseHeapGrowth = input.heapGrowth?.hold()
        try {
          logger.info(`catalog sync: page ${page + 1} of run ${runId}: writing here (process ${process.pid})`)
          const container = input.container()
          // A job an earlier version of the plugin queued (an upgrade with pages in flight) may carry its plan as JSON text.
          const queued = job.data.input.plan as PagePlan | string
          const plan: PagePlan = typeof queued === "string" ? JSON.parse(queued) : queued
          const ids = [...plan.create, ...plan.update, ...plan.stockOnly].map((p) => p.catalogId)
          const rows = await readMapRows(container, ids)
          const checked = withoutStaleCards(plan, rows)
          if (checked.stale.length)
            logger.info(`catalog sync: page ${page + 1} of run ${runId}: ${checked.stale.length} cards overtaken since planning, not applied`)
          const result = await localPageWriter(container)({ ...job.data.input, plan: checked.plan })
          logger.info(`catalog sync: page ${page + 1} of run ${runId}: written here in ${Date.now() - started} ms`)
          return { ...result, stale: checked.stale }
        } finally {
          releaseHeapGrowth?.()
        }
      },
      {
        // Recorded on each job it takes (job.processedBy) and on its Redis connection: a page
        // whose writer's connection is gone is known lost (PageWritesQueue.othersSettled).
        name: pageWriterName(),
        connection: input.connection,
        prefix: input.prefix,
        concurrency: input.concurrency,
        lockDuration: input.jobLockMs,
        stalledInterval: Math.max(1_000, Math.floor(input.jobLockMs / 2)),
        // A stalled page (its writer died, or its process was blocked past the lock) is failed,
        // never handed out again: the run fails, and its retry replays the page from the cursor.
        maxStalledCount: 0,
      }
    )
    this.worker.on("failed", (job, e) => logger.warn(`catalog sync: page write ${job?.id ?? "?"} failed: ${e?.message ?? e}`))
    this.worker.on("error", (e) => logger.warn(`catalog sync: page writer: ${e?.message ?? e}`))
  }

  async close(): Promise<void> {
    await this.worker.waitUntilReady().catch(() => undefined)
    await this.worker.close()
  }
}

/** This process's page writer, unique across instances and restarts (no ":": BullMQ's name mark). */
export function pageWriterName(): string {
  return `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`.replace(/:/g, "-")
}
