// The BullMQ queue of page writes: a run's reader dispatches each page it planned (plain data:
// the page workflow's input) and waits for it; any instance's page writer (page-writes-worker.ts)
// takes it. The reader alone stores cursors, in page order (src/sync-run/ordered-cursor.ts).
import { Queue, QueueEvents } from "bullmq"
import type Redis from "ioredis"
import type { SyncCatalogPageInput, SyncCatalogPageResult } from "../workflows/sync-catalog-page"

export const PAGE_WRITES_QUEUE_NAME = "catalog-sync-page-writes"

export type PageWriteJob = {
  /** The run that planned the page: its fence token (the writer writes only while it holds the run lock). */
  runId: string
  /** The page's number in the run (0, 1, …), for the log. */
  page: number
  input: SyncCatalogPageInput
}

/** What a writer hands back: the workflow's result, and the cards it found overtaken (not applied). */
export type PageWriteResult = SyncCatalogPageResult & { stale: string[] }

export class PageWritesQueue {
  readonly queue: Queue<PageWriteJob, PageWriteResult>
  readonly #events: QueueEvents

  constructor(input: { queueConnection: Redis; eventsConnection: Redis; prefix: string }) {
    this.queue = new Queue(PAGE_WRITES_QUEUE_NAME, { connection: input.queueConnection, prefix: input.prefix })
    this.#events = new QueueEvents(PAGE_WRITES_QUEUE_NAME, { connection: input.eventsConnection, prefix: input.prefix })
  }

  async init(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.#events.waitUntilReady()])
  }

  /** Page writers connected to the queue, on every instance. */
  writers(): Promise<number> {
    return this.queue.getWorkersCount()
  }

  /**
   * Waits while a page of another run is being written (its reader died after dispatching it;
   * its writer had passed the fence): a run that replays those pages must not write them at the
   * same time. A writer that died meanwhile has its job failed by BullMQ's stall check, so this
   * ends; it gives up after `timeoutMs` and says so.
   */
  async othersSettled(runId: string, timeoutMs: number, pollMs = 500): Promise<boolean> {
    const until = Date.now() + timeoutMs
    for (;;) {
      const active = await this.queue.getActive()
      if (!active.some((job) => job?.data?.runId && job.data.runId !== runId)) return true
      if (Date.now() >= until) return false
      await new Promise((r) => setTimeout(r, pollMs))
    }
  }

  /**
   * Dispatches a page and waits until a writer committed it. Rejects when the write failed, or
   * when its writer died (a stalled page job is failed, never handed out again: the run fails
   * and its retry replays the page from the stored cursor).
   */
  async write(job: PageWriteJob): Promise<PageWriteResult> {
    const added = await this.queue.add("page", job, {
      jobId: `${job.runId}-page-${job.page}`,
      attempts: 1,
      removeOnComplete: { age: 3_600, count: 1_000 },
      removeOnFail: { age: 24 * 3_600, count: 1_000 },
    })
    try {
      return await added.waitUntilFinished(this.#events)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw Object.assign(new Error(`page ${job.page + 1} of run ${job.runId} was not written: ${reason}`), { code: "page_write_failed" })
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.#events.close(), this.queue.close()])
  }
}
