import { pngFor } from "../../../sandbox/png"
import { createImageDownloader, type ImageDownloader } from "../download"
import { createImageMirror, type ImageMirror } from "../mirror"
import { startImageServer, type ImageServer } from "./image-server"
import { memoryFiles, memoryStore } from "./memory-store"

describe("image mirror (loopback host, in-memory records and files)", () => {
  let server: ImageServer
  let downloader: ImageDownloader
  let mirror: ImageMirror
  let mem: ReturnType<typeof memoryStore>
  let disk: ReturnType<typeof memoryFiles>
  let clock: Date

  beforeAll(async () => {
    server = await startImageServer()
    downloader = createImageDownloader({ addressPolicy: { allowPrivateNetworks: true }, timeoutMs: 2000 })
  })
  afterAll(async () => {
    await downloader.close()
    await server.close()
  })
  beforeEach(() => {
    server.resetCounts()
    mem = memoryStore()
    disk = memoryFiles()
    clock = new Date("2026-11-23T12:00:00Z")
    mirror = createImageMirror({ store: mem.store, files: disk.files, downloader, now: () => clock })
    for (const name of ["a", "b", "c", "d"]) server.set(`/${name}.png`, { bytes: pngFor(`p/${name}`) })
    server.set("/a-copy.png", { bytes: pngFor("p/a") }) // same bytes as a.png under another URL
  })
  const u = (name: string) => server.url(`/${name}.png`)

  it("stores each image once, in gallery order, and fetches nothing on the next call or a reorder", async () => {
    const first = await mirror.mirrorGalleries([
      {
        catalogId: "1",
        images: [
          { url: u("b"), is_main: false },
          { url: u("a"), is_main: true },
        ],
      },
      { catalogId: "2", images: [u("a"), u("c")] },
    ])
    expect(first.fetched).toBe(3)
    expect(server.requests()).toBe(3)
    expect(disk.stored.size).toBe(3)
    const g1 = first.galleries.get("1")!
    expect(g1).toHaveLength(2)
    expect(g1.every((url) => url.startsWith("https://shop.example/static/"))).toBe(true)
    expect(first.galleries.get("2")![0]).toBe(g1[0]) // the main image a, shared across products
    for (const [id, file] of disk.stored) {
      const served = ["a", "b", "c"].map((n) => pngFor(`p/${n}`)).find((b) => b.equals(file.bytes))
      expect(served).toBeDefined()
      expect(id).toMatch(/\.png$/)
    }

    server.resetCounts()
    const again = await mirror.mirrorGalleries([{ catalogId: "1", images: [u("b"), u("a")] }])
    expect(again.fetched).toBe(0)
    expect(server.requests()).toBe(0)
    expect(again.galleries.get("1")).toEqual([g1[1], g1[0]])
    expect(again.released).toEqual([])
  })

  it("stores identical bytes under two URLs once and keeps the file while either is used", async () => {
    const r = await mirror.mirrorGalleries([
      { catalogId: "1", images: [u("a")] },
      { catalogId: "2", images: [u("a-copy")] },
    ])
    expect(r).toMatchObject({ fetched: 2, uploaded: 1, reusedByHash: 1 })
    expect(disk.stored.size).toBe(1)
    expect(r.galleries.get("1")).toEqual(r.galleries.get("2"))

    const released = await mirror.releaseProducts(["1"])
    expect(await mirror.collect(released)).toEqual({ records: 1, files: [] })
    expect(disk.stored.size).toBe(1)
    expect(await mirror.collect(await mirror.releaseProducts(["2"]))).toMatchObject({ records: 1, files: [expect.any(String)] })
    expect(disk.stored.size).toBe(0)
  })

  it("deletes a removed photo's file once no product uses it", async () => {
    await mirror.mirrorGalleries([
      { catalogId: "1", images: [u("a"), u("b")] },
      { catalogId: "2", images: [u("b")] },
    ])
    const dropB = await mirror.mirrorGalleries([{ catalogId: "1", images: [u("a")] }])
    expect(dropB.released).toEqual([u("b")])
    expect(await mirror.collect(dropB.released)).toEqual({ records: 0, files: [] }) // product 2 still shows b
    const drop2 = await mirror.mirrorGalleries([{ catalogId: "2", images: [u("c")] }])
    const collected = await mirror.collect(drop2.released)
    expect(collected.records).toBe(1)
    expect(collected.files).toHaveLength(1)
    expect(disk.stored.size).toBe(2) // a and c
    // Replaying the same page changes nothing.
    expect((await mirror.mirrorGalleries([{ catalogId: "2", images: [u("c")] }])).released).toEqual([])
  })

  it("keeps the catalog URL for a failed download and retries it once due", async () => {
    server.set("/d.png", { status: 503 })
    const r = await mirror.mirrorGalleries([{ catalogId: "1", images: [u("a"), u("d")] }])
    expect(r.failed).toEqual([{ url: u("d"), reason: "HTTP 503" }])
    expect(r.galleries.get("1")![1]).toBe(u("d"))
    const record = [...mem.images.values()].find((i) => i.source_url === u("d"))!
    expect(record).toMatchObject({ failure_count: 1, file_id: null, last_error: "HTTP 503" })

    server.resetCounts()
    await mirror.mirrorGalleries([{ catalogId: "1", images: [u("a"), u("d")] }])
    expect(server.requests()).toBe(0) // not due yet
    expect(await mirror.productsWithDueImages()).toEqual([])

    server.set("/d.png", { bytes: pngFor("p/d") })
    clock = new Date(clock.getTime() + 5 * 60_000)
    expect(await mirror.productsWithDueImages()).toEqual(["1"])
    const later = await mirror.mirrorGalleries([{ catalogId: "1", images: [u("a"), u("d")] }])
    expect(server.requests("/d.png")).toBe(1)
    expect(later.failed).toEqual([])
    expect(later.galleries.get("1")![1]).toMatch(/^https:\/\/shop\.example\//)
  })

  it("refuses an oversized or non-image answer and keeps the catalog URL", async () => {
    const small = createImageMirror({
      store: mem.store,
      files: disk.files,
      downloader: createImageDownloader({ addressPolicy: { allowPrivateNetworks: true }, maxBytes: 50 }),
      now: () => clock,
    })
    server.set("/html.png", { bytes: Buffer.from("<html/>"), type: "text/html" })
    const r = await small.mirrorGalleries([{ catalogId: "1", images: [u("a"), u("html")] }])
    expect(r.galleries.get("1")).toEqual([u("a"), u("html")])
    expect(r.failed.map((f) => f.reason)).toEqual([expect.stringContaining("larger than 50"), "content-type text/html is not an image"])
    expect(disk.stored.size).toBe(0)
  })
})
