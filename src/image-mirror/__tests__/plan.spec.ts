import { collectable, galleryUrls, placeBytes, refChanges, retryDelayMs, shopGallery, urlsToDownload, type MirrorRecord } from "../plan"

const rec = (over: Partial<MirrorRecord> & { source_url: string }): MirrorRecord => ({
  id: `img_${over.source_url}`,
  content_hash: null,
  file_id: null,
  shop_url: null,
  failure_count: 0,
  next_attempt_at: null,
  ...over,
})
const now = new Date("2026-11-23T12:00:00Z")

describe("galleryUrls", () => {
  it("puts the main image first, keeps the rest in order, drops repeats and non-http URLs", () => {
    expect(
      galleryUrls([
        { url: "https://a/1.png", is_main: false },
        { url: "https://a/2.png", is_main: true },
        { url: "https://a/1.png" },
        { url: "ftp://a/3.png" },
        { url: "http://a/4.png" },
      ])
    ).toEqual(["https://a/2.png", "https://a/1.png", "http://a/4.png"])
    expect(galleryUrls(["https://a/1.png", "https://a/2.png"])).toEqual(["https://a/1.png", "https://a/2.png"])
  })
})

describe("urlsToDownload", () => {
  it("fetches unknown URLs once and never a URL that has a file", () => {
    const records = new Map([["https://a/1.png", rec({ source_url: "https://a/1.png", file_id: "f1", shop_url: "/s/1" })]])
    expect(urlsToDownload(["https://a/1.png", "https://a/2.png", "https://a/2.png"], records, now)).toEqual(["https://a/2.png"])
  })

  it("retries a failed URL only when it is due", () => {
    const later = rec({ source_url: "https://a/1.png", failure_count: 1, next_attempt_at: new Date(now.getTime() + 1000) })
    const dueNow = rec({ source_url: "https://a/2.png", failure_count: 3, next_attempt_at: now.toISOString() })
    const records = new Map([
      [later.source_url, later],
      [dueNow.source_url, dueNow],
    ])
    expect(urlsToDownload([later.source_url, dueNow.source_url], records, now)).toEqual([dueNow.source_url])
  })

  it("leaves URLs too long to index hot-linked", () => {
    expect(urlsToDownload([`https://a/${"x".repeat(2100)}`], new Map(), now)).toEqual([])
  })

  it("backs off from 5 minutes to at most a day", () => {
    expect(retryDelayMs(1)).toBe(300_000)
    expect(retryDelayMs(2)).toBe(600_000)
    expect(retryDelayMs(50)).toBe(86_400_000)
  })
})

describe("placeBytes", () => {
  it("reuses the stored file of identical bytes, else uploads", () => {
    const same = [{ content_hash: "h1", file_id: "f1", shop_url: "/s/1" }]
    expect(placeBytes("h1", same)).toEqual({ reuse: { file_id: "f1", shop_url: "/s/1" } })
    expect(placeBytes("h2", same)).toEqual({ upload: true })
    expect(placeBytes("h1", [{ content_hash: "h1", file_id: null, shop_url: null }])).toEqual({ upload: true })
  })
})

describe("refChanges", () => {
  it("adds new URLs, drops removed ones, and changes nothing on reorder or replay", () => {
    const existing = [
      { id: "r1", catalog_id: "1", source_url: "u1" },
      { id: "r2", catalog_id: "1", source_url: "u2" },
      { id: "r3", catalog_id: "2", source_url: "u1" },
    ]
    expect(refChanges([{ catalogId: "1", urls: ["u2", "u1"] }], existing)).toEqual({ add: [], remove: [] })
    expect(refChanges([{ catalogId: "1", urls: ["u1", "u3"] }], existing)).toEqual({
      add: [{ catalog_id: "1", source_url: "u3" }],
      remove: [existing[1]],
    })
    // Products not in the batch are never touched.
    expect(refChanges([{ catalogId: "3", urls: [] }], existing)).toEqual({ add: [], remove: [] })
  })

  it("removes a duplicated reference row", () => {
    const existing = [
      { id: "r1", catalog_id: "1", source_url: "u1" },
      { id: "r2", catalog_id: "1", source_url: "u1" },
    ]
    expect(refChanges([{ catalogId: "1", urls: ["u1"] }], existing).remove).toEqual([existing[1]])
  })
})

describe("shopGallery", () => {
  it("serves the shop's copy where stored and the catalog URL otherwise, in order", () => {
    const records = new Map([
      ["u1", rec({ source_url: "u1", file_id: "f1", shop_url: "/s/1" })],
      ["u2", rec({ source_url: "u2", failure_count: 1 })],
    ])
    expect(shopGallery(["u2", "u1", "u3"], records)).toEqual(["u2", "/s/1", "u3"])
  })
})

describe("collectable", () => {
  it("deletes unreferenced records and files no remaining record uses", () => {
    const a = rec({ id: "a", source_url: "ua", file_id: "f1" })
    const b = rec({ id: "b", source_url: "ub", file_id: "f1" }) // same bytes as a
    const c = rec({ id: "c", source_url: "uc", file_id: "f2" })
    const failed = rec({ id: "d", source_url: "ud" })
    // a and c unreferenced, b still referenced: f1 stays (b uses it), f2 goes.
    expect(collectable([a, c, failed], new Set(["ub"]), [a, b, c])).toEqual({ recordIds: ["a", "c", "d"], fileIds: ["f2"] })
    // both URLs of f1 unreferenced: f1 goes.
    expect(collectable([a, b], new Set(), [a, b])).toEqual({ recordIds: ["a", "b"], fileIds: ["f1"] })
    expect(collectable([a], new Set(["ua"]), [a])).toEqual({ recordIds: [], fileIds: [] })
  })
})
