// The image mirror: turns products' catalog galleries into the shop's own copies. Thin: the
// decisions are in plan.ts, the bytes come from download.ts, the records and files go through
// the two ports below (medusa.ts binds them to the catalog_sync module and Medusa's File module).
import type { DownloadOutcome, ImageDownloader } from "./download"
import { extensionOf, type RasterType } from "./image-type"
import { concurrencyLimit } from "./limiter"
import {
  collectable,
  galleryUrls,
  mirrorable,
  placeBytes,
  refChanges,
  retryDelayMs,
  shopGallery,
  urlsToDownload,
  type ImageRef,
  type MirrorRecord,
  type ProductGallery,
} from "./plan"

export type ImageRecordFields = Omit<MirrorRecord, "id"> & {
  mime_type?: string | null
  size_bytes?: number | null
  last_error?: string | null
}

/** The mirror's records (mcs_mirrored_image and mcs_mirrored_image_ref). */
export interface MirrorStore {
  listImagesByUrl(urls: string[]): Promise<MirrorRecord[]>
  listImagesByHash(hashes: string[]): Promise<MirrorRecord[]>
  listImagesByFileId(fileIds: string[]): Promise<Pick<MirrorRecord, "id" | "file_id">[]>
  /** Records without a file whose next attempt is at or before `now`, oldest first, at most `limit`. */
  listDueFailures(now: Date, limit: number): Promise<MirrorRecord[]>
  createImage(row: ImageRecordFields): Promise<MirrorRecord>
  updateImage(id: string, patch: Partial<ImageRecordFields>): Promise<void>
  deleteImages(ids: string[]): Promise<void>
  listRefsByProducts(catalogIds: string[]): Promise<ImageRef[]>
  listRefsByUrls(urls: string[]): Promise<ImageRef[]>
  createRefs(refs: ImageRef[]): Promise<void>
  deleteRefs(ids: string[]): Promise<void>
}

/** Where the bytes are stored (Medusa's File module, whatever provider the shop configured). */
export interface FileStore {
  upload(file: { filename: string; mimeType: RasterType; bytes: Buffer }): Promise<{ id: string; url: string }>
  delete(ids: string[]): Promise<void>
}

export interface MirrorResult {
  /** catalog id → the gallery to write, main first: shop URLs, or catalog URLs not mirrored (yet). */
  galleries: Map<string, string[]>
  /** URLs fetched in this call (each at most once). */
  fetched: number
  /** Files uploaded (new bytes) and downloads that reused a stored file (same bytes elsewhere). */
  uploaded: number
  reusedByHash: number
  failed: Array<{ url: string; reason: string }>
  /** URLs products stopped using: pass to collect() once the products' writes committed. */
  released: string[]
}

export interface ImageMirror {
  mirrorGalleries(products: readonly ProductGallery[]): Promise<MirrorResult>
  /** Drops every reference of removed products; returns the URLs to collect. */
  releaseProducts(catalogIds: readonly string[]): Promise<string[]>
  /**
   * Catalog ids of products showing a catalog URL whose download is due again: the catalog may
   * never send those cards again, so a later run revisits them (mirrorGalleries with their
   * stored gallery, then an images-only update).
   */
  productsWithDueImages(limit?: number): Promise<string[]>
  /** Deletes records no product references and files no remaining record uses. */
  collect(candidateUrls: readonly string[]): Promise<{ records: number; files: string[] }>
}

export interface ImageMirrorDeps {
  store: MirrorStore
  files: FileStore
  downloader: Pick<ImageDownloader, "download">
  now?: () => Date
  logger?: { warn(message: string): void }
  /** Uploads and record writes at once (default 4). */
  storeConcurrency?: number
}

const unique = <T>(items: Iterable<T>) => [...new Set(items)]

export function createImageMirror(deps: ImageMirrorDeps): ImageMirror {
  const { store, files, downloader } = deps
  const now = deps.now ?? (() => new Date())

  /** Stores one downloaded URL: the existing file of the same bytes, else a new upload. */
  async function storeSuccess(
    outcome: Extract<DownloadOutcome, { ok: true }>,
    previous: MirrorRecord | undefined,
    byHash: Map<string, MirrorRecord[]>
  ): Promise<{ record: MirrorRecord; uploaded: boolean }> {
    const placed = placeBytes(outcome.hash, byHash.get(outcome.hash) ?? [])
    let file: { file_id: string; shop_url: string }
    let uploaded = false
    if ("reuse" in placed) file = placed.reuse
    else {
      const stored = await files.upload({
        filename: `catalog-image-${outcome.hash.slice(0, 32)}.${extensionOf(outcome.type)}`,
        mimeType: outcome.type,
        bytes: outcome.bytes,
      })
      file = { file_id: stored.id, shop_url: stored.url }
      uploaded = true
    }
    const fields: ImageRecordFields = {
      source_url: outcome.url,
      content_hash: outcome.hash,
      ...file,
      mime_type: outcome.type,
      size_bytes: outcome.bytes.length,
      failure_count: 0,
      last_error: null,
      next_attempt_at: null,
    }
    let record: MirrorRecord
    if (previous) {
      await store.updateImage(previous.id, fields)
      record = { ...previous, ...fields }
    } else {
      record = await store.createImage(fields).catch(async (error) => {
        // Another writer recorded this URL meanwhile (unique source_url): keep theirs and
        // drop our upload unless something uses it.
        const [theirs] = await store.listImagesByUrl([outcome.url])
        if (!theirs) throw error
        if (uploaded && theirs.file_id !== file.file_id) await files.delete([file.file_id]).catch(() => undefined)
        uploaded = false
        return theirs
      })
    }
    const list = byHash.get(outcome.hash) ?? []
    list.push(record)
    byHash.set(outcome.hash, list)
    return { record, uploaded }
  }

  async function storeFailure(url: string, reason: string, previous: MirrorRecord | undefined): Promise<MirrorRecord> {
    const failure_count = (previous?.failure_count ?? 0) + 1
    const fields = {
      failure_count,
      last_error: reason,
      next_attempt_at: new Date(now().getTime() + retryDelayMs(failure_count)),
    }
    if (previous) {
      await store.updateImage(previous.id, fields)
      return { ...previous, ...fields }
    }
    return store.createImage({ source_url: url, content_hash: null, file_id: null, shop_url: null, ...fields }).catch(async (error) => {
      const [theirs] = await store.listImagesByUrl([url])
      if (!theirs) throw error
      return theirs
    })
  }

  return {
    async mirrorGalleries(products) {
      const galleries = products.map((p) => ({ catalogId: p.catalogId, urls: galleryUrls(p.images) }))
      const allUrls = unique(galleries.flatMap((g) => g.urls).filter(mirrorable))
      const records = new Map((await store.listImagesByUrl(allUrls)).map((r) => [r.source_url, r] as const))
      const toFetch = urlsToDownload(allUrls, records, now())

      const outcomes = await Promise.all(toFetch.map((url) => downloader.download(url)))
      const hashes = unique(outcomes.flatMap((o) => (o.ok ? [o.hash] : [])))
      const byHash = new Map<string, MirrorRecord[]>()
      for (const r of hashes.length ? await store.listImagesByHash(hashes) : []) {
        byHash.set(r.content_hash!, [...(byHash.get(r.content_hash!) ?? []), r])
      }
      let uploaded = 0
      let reusedByHash = 0
      const failed: MirrorResult["failed"] = []
      // Outcomes with the same bytes are stored one after another (they share one upload);
      // different bytes and failures are stored a few at a time.
      const groups = new Map<string, DownloadOutcome[]>()
      for (const o of outcomes) {
        const key = o.ok ? `hash:${o.hash}` : `url:${o.url}`
        groups.set(key, [...(groups.get(key) ?? []), o])
      }
      const writes = concurrencyLimit(deps.storeConcurrency ?? 4)
      await Promise.all(
        [...groups.values()].map((group) =>
          writes.run(async () => {
            for (const outcome of group) {
              const previous = records.get(outcome.url)
              if (outcome.ok) {
                const stored = await storeSuccess(outcome, previous, byHash)
                if (stored.uploaded) uploaded++
                else reusedByHash++
                records.set(outcome.url, stored.record)
              } else {
                failed.push({ url: outcome.url, reason: outcome.reason })
                records.set(outcome.url, await storeFailure(outcome.url, outcome.reason, previous))
                deps.logger?.warn(`catalog sync: image ${outcome.url} not mirrored: ${outcome.reason}`)
              }
            }
          })
        )
      )
      failed.sort((a, b) => toFetch.indexOf(a.url) - toFetch.indexOf(b.url))

      const existingRefs = await store.listRefsByProducts(unique(galleries.map((g) => g.catalogId)))
      const { add, remove } = refChanges(galleries, existingRefs)
      if (add.length) await store.createRefs(add)
      if (remove.length) await store.deleteRefs(remove.map((r) => r.id!).filter(Boolean))

      return {
        galleries: new Map(galleries.map((g) => [g.catalogId, shopGallery(g.urls, records)])),
        fetched: toFetch.length,
        uploaded,
        reusedByHash,
        failed,
        released: unique(remove.map((r) => r.source_url)),
      }
    },

    async releaseProducts(catalogIds) {
      if (catalogIds.length === 0) return []
      const refs = await store.listRefsByProducts([...catalogIds])
      if (refs.length) await store.deleteRefs(refs.map((r) => r.id!).filter(Boolean))
      return unique(refs.map((r) => r.source_url))
    },

    async productsWithDueImages(limit = 500) {
      const due = await store.listDueFailures(now(), limit)
      if (due.length === 0) return []
      const refs = await store.listRefsByUrls(due.map((r) => r.source_url))
      return unique(refs.map((r) => r.catalog_id))
    },

    async collect(candidateUrls) {
      const urls = unique(candidateUrls)
      if (urls.length === 0) return { records: 0, files: [] }
      const candidates = await store.listImagesByUrl(urls)
      const referenced = new Set((await store.listRefsByUrls(urls)).map((r) => r.source_url))
      const fileIds = unique(candidates.map((c) => c.file_id).filter((f): f is string => !!f))
      const users = fileIds.length ? await store.listImagesByFileId(fileIds) : []
      const plan = collectable(candidates, referenced, users)
      // Records first: a file must never be gone while a record still serves its URL.
      if (plan.recordIds.length) await store.deleteImages(plan.recordIds)
      if (plan.fileIds.length) await files.delete(plan.fileIds)
      return { records: plan.recordIds.length, files: plan.fileIds }
    },
  }
}
