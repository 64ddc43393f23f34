// Who writes a run's pages: this process, one page after another (the default), or, when the
// runtime keeps several pages in flight (CATALOG_SYNC_PAGES_IN_FLIGHT > 1) and a page writer is
// connected, the page writers of every instance through the page-writes queue. The runtime hands
// the run its page-writes queue (RunDependencies.pageWrites): the run never looks the runtime up.
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import type { SyncCatalogPageResult } from "../workflows/sync-catalog-page"
import type { PageToWrite } from "../workflows/page/page-context"
import { localPageWriter } from "./write-page"
import { withWritePace, type PagePacer } from "../bulk-write/write-pace"

export type PageWriters = {
  /** Pages kept in flight at once. */
  inFlight: number
  /** Whether pages are written in this process, one after another (then their writes may be paced). */
  local: boolean
  /** Writes page `page` (0, 1, … in the run) and resolves once it committed; a local write is paced by `pacer`. */
  write(input: PageToWrite, page: number, pacer?: PagePacer | null): Promise<SyncCatalogPageResult>
}

/** The page-writes queue as a run uses it (src/queue/page-writes-queue.ts). */
export type PageWritesQueueLike = {
  othersSettled(runId: string, timeoutMs: number): Promise<boolean>
  writers(): Promise<number>
  write(job: { runId: string; page: number; input: PageToWrite }): Promise<SyncCatalogPageResult>
}

/** What the runtime hands a run when pages may be written on several instances. */
export type PageWrites = { queue: PageWritesQueueLike; inFlight: number; settleTimeoutMs: number }

export async function pageWritersFor(
  container: MedusaContainer,
  runId: string,
  logger: Pick<Logger, "info" | "warn">,
  pages: PageWrites | null
): Promise<PageWriters> {
  const local = localPageWriter(container)
  const here: PageWriters = { inFlight: 1, local: true, write: (input, _page, pacer) => withWritePace(pacer, () => local(input)) }
  if (!pages) return here
  // Pages of a run whose reader died may still be written: this run replays them, so it waits.
  if (!(await pages.queue.othersSettled(runId, pages.settleTimeoutMs).catch(() => false))) {
    logger.warn(`catalog sync: run ${runId}: pages of an earlier run were still being written after ${pages.settleTimeoutMs} ms`)
  }
  const writers = await pages.queue.writers().catch(() => 0)
  if (!writers) {
    logger.warn(`catalog sync: run ${runId}: no page writer is connected (CATALOG_SYNC_PAGE_WRITERS); its pages are written here, one after another`)
    return here
  }
  logger.info(`catalog sync: run ${runId} keeps ${pages.inFlight} pages in flight (${writers} page writers connected)`)
  return {
    inFlight: pages.inFlight,
    local: false,
    // Any instance may write it: the page goes as JSON.
    write: (input, page) => pages.queue.write({ runId, page, input }),
  }
}
