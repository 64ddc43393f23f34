// Binds the mirror's ports to Medusa: records in the catalog_sync module, bytes in the File
// module (Modules.FILE: the local provider, S3, or whatever the shop configured). createFiles
// takes the content as a base64 string (CreateFileDTO); files are public, as product images are.
import { Modules } from "@medusajs/framework/utils"
import type { IFileModuleService } from "@medusajs/framework/types"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import { createImageDownloader, type ImageDownloadOptions } from "./download"
import { createImageMirror, type FileStore, type ImageMirror, type MirrorStore } from "./mirror"
import type { ImageRef, MirrorRecord } from "./plan"

/** The generated CRUD methods of the catalog_sync service this port uses. */
export interface MirrorRecordsService {
  listCatalogMirroredImages(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<any[]>
  createCatalogMirroredImages(data: Record<string, unknown>): Promise<any>
  updateCatalogMirroredImages(data: Record<string, unknown>): Promise<any>
  deleteCatalogMirroredImages(ids: string[]): Promise<void>
  listCatalogMirroredImageRefs(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<any[]>
  createCatalogMirroredImageRefs(data: Record<string, unknown>[]): Promise<any>
  deleteCatalogMirroredImageRefs(ids: string[]): Promise<void>
}

const IMAGE_FIELDS = ["id", "source_url", "content_hash", "file_id", "shop_url", "failure_count", "next_attempt_at"]
const CHUNK = 500

async function inChunks<T>(values: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < values.length; i += CHUNK) out.push(...(await read(values.slice(i, i + CHUNK))))
  return out
}

const toRecord = (row: any): MirrorRecord => ({
  id: row.id,
  source_url: row.source_url,
  content_hash: row.content_hash ?? null,
  file_id: row.file_id ?? null,
  shop_url: row.shop_url ?? null,
  failure_count: row.failure_count ?? 0,
  next_attempt_at: row.next_attempt_at ?? null,
})

export function mirrorStoreOf(service: MirrorRecordsService): MirrorStore {
  const listImages = (filter: Record<string, string[]>) =>
    service.listCatalogMirroredImages(filter, { select: IMAGE_FIELDS, take: null }).then((rows) => rows.map(toRecord))
  const listRefs = (filter: Record<string, string[]>) =>
    service
      .listCatalogMirroredImageRefs(filter, { select: ["id", "catalog_id", "source_url"], take: null })
      .then((rows) => rows.map((r: any): ImageRef => ({ id: r.id, catalog_id: r.catalog_id, source_url: r.source_url })))
  return {
    listImagesByUrl: (urls) => inChunks(urls, (c) => listImages({ source_url: c })),
    listImagesByHash: (hashes) => inChunks(hashes, (c) => listImages({ content_hash: c })),
    listImagesByFileId: (ids) => inChunks(ids, (c) => listImages({ file_id: c })),
    listDueFailures: (now, limit) =>
      service
        .listCatalogMirroredImages({ file_id: null, next_attempt_at: { $lte: now } }, { select: IMAGE_FIELDS, take: limit, order: { next_attempt_at: "ASC" } })
        .then((rows) => rows.map(toRecord)),
    createImage: async (row) => toRecord(await service.createCatalogMirroredImages(row)),
    updateImage: async (id, patch) => {
      await service.updateCatalogMirroredImages({ id, ...patch })
    },
    deleteImages: (ids) => service.deleteCatalogMirroredImages(ids),
    listRefsByProducts: (ids) => inChunks(ids, (c) => listRefs({ catalog_id: c })),
    listRefsByUrls: (urls) => inChunks(urls, (c) => listRefs({ source_url: c })),
    createRefs: async (refs) => {
      for (let i = 0; i < refs.length; i += CHUNK) {
        await service.createCatalogMirroredImageRefs(refs.slice(i, i + CHUNK).map((r) => ({ catalog_id: r.catalog_id, source_url: r.source_url })))
      }
    },
    deleteRefs: (ids) => service.deleteCatalogMirroredImageRefs(ids),
  }
}

export function fileStoreOf(fileModule: Pick<IFileModuleService, "createFiles" | "deleteFiles">): FileStore {
  return {
    async upload({ filename, mimeType, bytes }) {
      const created = await fileModule.createFiles({ filename, mimeType, content: bytes.toString("base64"), access: "public" })
      return { id: created.id, url: created.url }
    },
    async delete(ids) {
      if (ids.length) await fileModule.deleteFiles(ids)
    },
  }
}

type Resolver = { resolve<T = any>(key: string): T }

/**
 * A mirror over the app's container (jobs, workflows' steps, routes and `medusa exec` scripts
 * have it). Close it when done: it owns the downloads' connection pool.
 */
export function imageMirrorFromContainer(
  container: Resolver,
  options: Omit<ImageDownloadOptions, "dispatcher">,
  logger?: { warn(message: string): void },
  now?: () => Date
): { mirror: ImageMirror; close(): Promise<void> } {
  const downloader = createImageDownloader(options)
  const mirror = createImageMirror({
    store: mirrorStoreOf(container.resolve<MirrorRecordsService>(CATALOG_SYNC_MODULE)),
    files: fileStoreOf(container.resolve<IFileModuleService>(Modules.FILE)),
    downloader,
    logger,
    now,
  })
  return { mirror, close: () => downloader.close() }
}
