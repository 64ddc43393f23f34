// The whole catalog through the changes feed (no cursor = full export), as NDJSON: one card
// per line, ids as decimal strings so any JSON reader keeps them exact. Written to FILE.partial
// and renamed at the end, so a broken export never looks complete. Memory stays flat: one page
// at a time, writes wait for the stream to drain.
import { createWriteStream } from "node:fs"
import { rename, unlink } from "node:fs/promises"
import { once } from "node:events"
import type { CatalogClient } from "../catalog-client"
import type { RejectedItem } from "../items"

export interface ExportProgress {
  pages: number
  products: number
  removed: number
  rejected: number
}

export interface ExportResult extends ExportProgress {
  cursor: string
  rejectedItems: RejectedItem[]
}

export interface ExportOptions {
  out: string
  limit?: number
  signal?: AbortSignal
  onPage?: (progress: ExportProgress, rejected: RejectedItem[]) => void
}

/** Keep at most this many rejected items in the result (the count stays exact). */
const REJECTED_KEPT = 1000

export async function exportCatalog(client: CatalogClient, options: ExportOptions): Promise<ExportResult> {
  const partial = `${options.out}.partial`
  const stream = createWriteStream(partial, { encoding: "utf8" })
  const progress: ExportProgress = { pages: 0, products: 0, removed: 0, rejected: 0 }
  const rejectedItems: RejectedItem[] = []
  let cursor: string | null = null
  try {
    for (;;) {
      const page = await client.getChangesPage({ cursor, limit: options.limit ?? 200 }, { signal: options.signal })
      let chunk = ""
      for (const item of page.items) {
        if ("product" in item) {
          chunk += JSON.stringify(item.product) + "\n"
          progress.products++
        } else {
          progress.removed++
        }
      }
      if (chunk && !stream.write(chunk)) await once(stream, "drain")
      progress.pages++
      progress.rejected += page.rejected.length
      for (const r of page.rejected) if (rejectedItems.length < REJECTED_KEPT) rejectedItems.push(r)
      cursor = page.nextCursor
      options.onPage?.({ ...progress }, page.rejected)
      if (!page.hasMore) break
    }
    stream.end()
    await once(stream, "finish")
    await rename(partial, options.out)
    return { ...progress, cursor: cursor!, rejectedItems }
  } catch (error) {
    stream.destroy()
    await unlink(partial).catch(() => {})
    throw error
  }
}
