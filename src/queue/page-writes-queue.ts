// The BullMQ queue of page writes: a run's reader dispatches each page it planned (plain data:
// the page's plan and settings) and waits for it; any instance's page writer (page-writes-worker.ts)
// takes it. The reader alone stores cursors, in page order (src/sync-run/ordered-cursor.ts).
import { Queue, QueueEvents } from "bullmq"
import type Redis from "ioredis"
import type { SyncCatalogPageResult } from "../workflows/sync-catalog-page"
import type { PageToWrite } from "../workflows/page/page-context"

export const PAGE_WRITES_QUEUE_NAME = "catalog-sync-page-writes"

/** How BullMQ marks a named worker's connection: "<prefix>:<queue>:w:<name>". */
const WRITER_NAME_MARK = ":w:"
/**
 * How long a page writer must be missing from Redis before its page is taken for lost: longer
 * than a reconnect (the connection's name comes back with it), short beside a resume.
 */
export const WRITER_GONE_GRACE_MS = 3_000

export type PageWriteJob = {
  /** The run that planned the page: its fence token (the writer writes only while it holds the run lock). */
  runId: string
  /** The page's number in the run (0, 1, …), for the log. */
  page: number
  input: PageToWrite
}

/** What a writer hands back: the workflow's result, and the cards it found overtaken (not applied). */
export type PageWriteResult = SyncCatalogPageResult & { stale: string[] }

export class PageWritesQueue {
  readonly queue: Queue<PageWriteJob, PageWriteResult>
  readonly #events: QueueEvents

  /** @param onError told of the queue's and its event stream's errors (Redis down); without a listener they are printed unhandled. */
  constructor(input: { queueConnection: Redis; eventsConnection: Redis; prefix: string; onError?: (source: string, e: Error) => void }) {
    this.queue = new Queue(PAGE_WRITES_QUEUE_NAME, { connection: input.queueConnection, prefix: input.prefix })
    this.#events = new QueueEvents(PAGE_WRITES_QUEUE_NAME, { connection: input.eventsConnection, prefix: input.prefix })
    const onError = input.onError ?? (() => undefined)
    this.queue.on("error", (e) => onError("page-writes queue", e))
    this.#events.on("error", (e) => onError("page-writes events", e))
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
   * same time. A page whose writer's process is gone (its named connection left Redis, for
   * WRITER_GONE_GRACE_MS) is not waited for: it can never commit, and BullMQ would count it
   * active until its job lock lapsed and a stall check failed it (up to 1.5 job locks, a minute
   * and a half by default), which held every resume after a worker's crash that long. Gives up
   * after `timeoutMs` and says so.
   */
  async othersSettled(runId: string, timeoutMs: number, pollMs = 500): Promise<boolean> {
    const until = Date.now() + timeoutMs
    const goneSince = new Map<string, number>()
    for (;;) {
      const others = (await this.queue.getActive()).filter((job) => job?.data?.runId && job.data.runId !== runId)
      if (!others.length) return true
      const live = others.some((job) => job.processedBy) ? await this.liveWriterNames() : new Set<string>()
      const now = Date.now()
      const waitedFor = others.filter((job) => {
        if (!job.processedBy || live.has(job.processedBy)) return true
        const since = goneSince.get(job.id!) ?? now
        goneSince.set(job.id!, since)
        return now - since < WRITER_GONE_GRACE_MS
      })
      if (!waitedFor.length) return true
      if (now >= until) return false
      await new Promise((r) => setTimeout(r, pollMs))
    }
  }

  /** The names of the page writers whose process is connected to Redis now (page-writes-worker.ts names each). */
  async liveWriterNames(): Promise<Set<string>> {
    const names = new Set<string>()
    for (const client of await this.queue.getWorkers()) {
      const name = typeof client.name === "string" ? client.name : ""
      const at = name.lastIndexOf(WRITER_NAME_MARK)
      if (at >= 0) names.add(name.slice(at + WRITER_NAME_MARK.length))
    }
    return names
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
