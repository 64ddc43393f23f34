// In-memory ports for the mirror's unit tests (the Medusa-backed ones are exercised by the
// integration test): records with the unique source_url of the real table, files by id.
import type { FileStore, ImageRecordFields, MirrorStore } from "../mirror"
import type { ImageRef, MirrorRecord } from "../plan"

export function memoryStore() {
  const images = new Map<string, MirrorRecord & Partial<ImageRecordFields>>()
  const refs = new Map<string, ImageRef>()
  let seq = 0
  const store: MirrorStore = {
    listImagesByUrl: async (urls) => [...images.values()].filter((r) => urls.includes(r.source_url)).map((r) => ({ ...r })),
    listImagesByHash: async (hashes) => [...images.values()].filter((r) => r.content_hash && hashes.includes(r.content_hash)).map((r) => ({ ...r })),
    listImagesByFileId: async (ids) => [...images.values()].filter((r) => r.file_id && ids.includes(r.file_id)).map((r) => ({ ...r })),
    listDueFailures: async (now, limit) =>
      [...images.values()]
        .filter((r) => !r.file_id && r.next_attempt_at && new Date(r.next_attempt_at).getTime() <= now.getTime())
        .sort((a, b) => new Date(a.next_attempt_at!).getTime() - new Date(b.next_attempt_at!).getTime())
        .slice(0, limit)
        .map((r) => ({ ...r })),
    createImage: async (row) => {
      if ([...images.values()].some((r) => r.source_url === row.source_url)) throw new Error("unique source_url")
      const record = { id: `img_${++seq}`, ...row }
      images.set(record.id, record)
      return { ...record }
    },
    updateImage: async (id, patch) => {
      images.set(id, { ...images.get(id)!, ...patch })
    },
    deleteImages: async (ids) => ids.forEach((id) => images.delete(id)),
    listRefsByProducts: async (ids) => [...refs.values()].filter((r) => ids.includes(r.catalog_id)),
    listRefsByUrls: async (urls) => [...refs.values()].filter((r) => urls.includes(r.source_url)),
    createRefs: async (rows) =>
      rows.forEach((r) => {
        const id = `ref_${++seq}`
        refs.set(id, { ...r, id })
      }),
    deleteRefs: async (ids) => ids.forEach((id) => refs.delete(id)),
  }
  return { store, images, refs }
}

export function memoryFiles() {
  const stored = new Map<string, { bytes: Buffer; mimeType: string }>()
  let seq = 0
  const files: FileStore = {
    upload: async ({ filename, mimeType, bytes }) => {
      const id = `${++seq}-${filename}`
      stored.set(id, { bytes, mimeType })
      return { id, url: `https://shop.example/static/${id}` }
    },
    delete: async (ids) => ids.forEach((id) => stored.delete(id)),
  }
  return { files, stored }
}
