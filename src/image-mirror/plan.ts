// Pure decisions of the image mirror: which URLs to download, which product references to
// add and drop, which stored files no longer serve anyone, and what gallery a product shows.
// The edges (download.ts, mirror.ts) only carry these out.

/** A mirrored image record as the mirror reads it (mcs_mirrored_image). */
export interface MirrorRecord {
  id: string
  source_url: string
  content_hash: string | null
  file_id: string | null
  shop_url: string | null
  failure_count: number
  next_attempt_at: Date | string | null
}

/** product → image URL (mcs_mirrored_image_ref). */
export interface ImageRef {
  id?: string
  catalog_id: string
  source_url: string
}

export interface ProductGallery {
  catalogId: string
  /** The card's images in the card's order (main first); `is_main` moves the main image to the front. */
  images: ReadonlyArray<string | { url: string; is_main?: boolean | null }>
}

/** URLs longer than this are not mirrored (they stay hot-linked): they could not be indexed. */
export const MAX_MIRRORED_URL_LENGTH = 2000

/** The gallery's URLs: main image first, each URL once, only http(s). */
export function galleryUrls(images: ProductGallery["images"]): string[] {
  const entries = images.map((i) => (typeof i === "string" ? { url: i, is_main: false } : { url: i.url, is_main: !!i.is_main }))
  const main = entries.findIndex((e) => e.is_main)
  const ordered = main > 0 ? [entries[main], ...entries.slice(0, main), ...entries.slice(main + 1)] : entries
  const seen = new Set<string>()
  const out: string[] = []
  for (const { url } of ordered) {
    if (!/^https?:\/\//i.test(url) || seen.has(url)) continue
    seen.add(url)
    out.push(url)
  }
  return out
}

export const mirrorable = (url: string) => url.length <= MAX_MIRRORED_URL_LENGTH

const due = (record: MirrorRecord, now: Date) => record.next_attempt_at === null || new Date(record.next_attempt_at).getTime() <= now.getTime()

/**
 * URLs to download: never seen, or failed before and due again. A URL with a stored file is
 * never fetched again (an unchanged image costs nothing); each URL appears once.
 */
export function urlsToDownload(urls: Iterable<string>, records: ReadonlyMap<string, MirrorRecord>, now: Date): string[] {
  const out = new Set<string>()
  for (const url of urls) {
    if (!mirrorable(url)) continue
    const record = records.get(url)
    if (!record || (!record.file_id && due(record, now))) out.add(url)
  }
  return [...out]
}

/** Wait before retrying a failed URL: 5 min, doubling per failure, at most a day. */
export function retryDelayMs(failureCount: number): number {
  const base = 5 * 60_000
  return Math.min(base * 2 ** Math.max(0, Math.min(failureCount - 1, 20)), 24 * 60 * 60_000)
}

/** What to store after a URL's bytes were downloaded: reuse a file with the same bytes, or upload. */
export function placeBytes(
  hash: string,
  sameHash: ReadonlyArray<Pick<MirrorRecord, "content_hash" | "file_id" | "shop_url">>
): { reuse: { file_id: string; shop_url: string } } | { upload: true } {
  const existing = sameHash.find((r) => r.content_hash === hash && r.file_id && r.shop_url)
  return existing ? { reuse: { file_id: existing.file_id!, shop_url: existing.shop_url! } } : { upload: true }
}

/**
 * References to add and drop so each product references exactly its gallery's URLs. Only the
 * given products are touched; the dropped refs' URLs are candidates for collection.
 */
export function refChanges(
  galleries: ReadonlyArray<{ catalogId: string; urls: readonly string[] }>,
  existing: readonly ImageRef[]
): { add: ImageRef[]; remove: ImageRef[] } {
  const wanted = new Map<string, Set<string>>()
  for (const g of galleries) {
    const set = wanted.get(g.catalogId) ?? new Set<string>()
    for (const url of g.urls) if (mirrorable(url)) set.add(url)
    wanted.set(g.catalogId, set)
  }
  const have = new Map<string, Set<string>>()
  const remove: ImageRef[] = []
  for (const ref of existing) {
    const want = wanted.get(ref.catalog_id)
    if (!want) continue
    const seen = have.get(ref.catalog_id) ?? new Set<string>()
    if (!want.has(ref.source_url) || seen.has(ref.source_url)) remove.push(ref)
    seen.add(ref.source_url)
    have.set(ref.catalog_id, seen)
  }
  const add: ImageRef[] = []
  for (const [catalog_id, urls] of wanted) {
    for (const source_url of urls) if (!have.get(catalog_id)?.has(source_url)) add.push({ catalog_id, source_url })
  }
  return { add, remove }
}

/** The URLs the product shows: the shop's copy where there is one, else the catalog's URL. */
export function shopGallery(urls: readonly string[], records: ReadonlyMap<string, MirrorRecord>): string[] {
  return urls.map((url) => {
    const r = records.get(url)
    return r?.file_id && r.shop_url ? r.shop_url : url
  })
}

/**
 * Collection: of the candidate records, those no product references any more are deleted,
 * and their files are deleted unless a remaining record (same bytes, other URL) still uses them.
 */
export function collectable(
  candidates: readonly MirrorRecord[],
  referencedUrls: ReadonlySet<string>,
  fileUsers: readonly Pick<MirrorRecord, "id" | "file_id">[]
): { recordIds: string[]; fileIds: string[] } {
  const dropped = candidates.filter((r) => !referencedUrls.has(r.source_url))
  const droppedIds = new Set(dropped.map((r) => r.id))
  const stillUsed = new Set(fileUsers.filter((u) => !droppedIds.has(u.id) && u.file_id).map((u) => u.file_id!))
  const fileIds = [...new Set(dropped.map((r) => r.file_id).filter((f): f is string => !!f && !stillUsed.has(f)))]
  return { recordIds: dropped.map((r) => r.id), fileIds }
}
