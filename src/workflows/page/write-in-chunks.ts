// Per-product fault containment for a page's creates and updates: items are written in
// `concurrency` concurrent chunks; a chunk whose workflow fails (it compensated, or for updates
// rewrites the same values again) is written again item by item, so one product that cannot be
// written does not take the others down with it. What still fails alone is judged
// (src/sync/write-failures.ts): the product's fault → a rejected item; the system's → the page fails.
// A chunk that failed on a lost database connection or run lock fails the page at once.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { RejectedItem } from "../../catalog-client/items"
import { judgeFailures, needsProbe } from "../../sync/write-failures"
import { noteProductsWritten } from "./write-progress"
import { databaseAnswers } from "../../bulk-write/connection"
import { isLostFooting } from "../../sync/failure-class"

export interface ChunkedWrite<T, R> {
  /** Items written, with their results, in the input order. */
  written: { item: T; result: R }[]
  /** Items whose write failed even alone. */
  failed: { item: T; error: unknown }[]
}

export async function writeInChunks<T, R>(items: T[], concurrency: number, run: (chunk: T[]) => Promise<R[]>): Promise<ChunkedWrite<T, R>> {
  const out: ChunkedWrite<T, R> = { written: [], failed: [] }
  if (!items.length) return out
  const size = Math.ceil(items.length / concurrency)
  const chunks: T[][] = []
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size))
  // Each chunk that commits moves the run's progress inside the page (write-progress.ts).
  const settled = await Promise.allSettled(chunks.map((chunk) => run(chunk).then((r) => (noteProductsWritten(chunk.length), r))))
  for (const [c, chunk] of chunks.entries()) {
    const outcome = settled[c]
    if (outcome.status === "fulfilled") {
      chunk.forEach((item, i) => out.written.push({ item, result: outcome.value[i] }))
      continue
    }
    // A lost database connection or run lock fails the chunk for no product's reason: the page fails
    // (the run resumes), no item is tried again alone or judged.
    if (isLostFooting(outcome.reason)) throw outcome.reason
    if (chunk.length === 1) {
      out.failed.push({ item: chunk[0], error: outcome.reason })
      continue
    }
    for (const item of chunk) {
      try {
        const [result] = await run([item])
        out.written.push({ item, result })
      } catch (error) {
        if (isLostFooting(error)) throw error
        out.failed.push({ item, error })
      }
    }
  }
  return out
}

/** Failures become rejected items of the run, unless their cause is the system's (then the page fails). */
export async function rejectOrThrow(
  container: MedusaContainer,
  failed: { item: { catalogId: string }; error: unknown }[],
  writtenCount: number
): Promise<RejectedItem[]> {
  const failures = failed.map((f) => ({ catalogId: f.item.catalogId, error: f.error }))
  // The database answering is proof that a failure of unknown cause was the product's.
  const healthy = needsProbe(failures, writtenCount) ? await databaseAnswers(container) : false
  const verdict = judgeFailures(failures, writtenCount, healthy)
  if ("fatal" in verdict) throw verdict.fatal
  return verdict.rejected
}
