import { pngFor } from "../../../sandbox/png"
import { createImageDownloader, type ImageDownloader } from "../download"
import { startImageServer, type ImageServer } from "./image-server"
import { createHash } from "node:crypto"

describe("image downloads over loopback", () => {
  let server: ImageServer
  let downloader: ImageDownloader

  beforeAll(async () => {
    server = await startImageServer()
    downloader = createImageDownloader({
      addressPolicy: { allowPrivateNetworks: true },
      maxBytes: 1024 * 1024,
      timeoutMs: 1500,
      maxRedirects: 2,
      concurrency: 4,
    })
  })
  afterAll(async () => {
    await downloader.close()
    await server.close()
  })
  beforeEach(() => server.resetCounts())

  it("returns the served bytes, their type and SHA-256", async () => {
    const png = pngFor("1/a")
    server.set("/a.png", { bytes: png, type: "image/png" })
    const got = await downloader.download(server.url("/a.png"))
    expect(got).toMatchObject({ ok: true, type: "image/png", hash: createHash("sha256").update(png).digest("hex") })
    expect(got.ok && got.bytes.equals(png)).toBe(true)
  })

  it("refuses an image over the limit, declared or streamed", async () => {
    const big = Buffer.concat([pngFor("1/b"), Buffer.alloc(2 * 1024 * 1024)])
    server.set("/declared.png", { bytes: big })
    server.set("/streamed.png", { bytes: big, chunked: true })
    // The size limit is what is tested, not the clock: streaming 2 MB on a loaded machine once took
    // longer than the shared downloader's 1.5 s and read "timed out".
    const patient = createImageDownloader({ addressPolicy: { allowPrivateNetworks: true }, maxBytes: 1024 * 1024, timeoutMs: 30_000 })
    expect(await patient.download(server.url("/declared.png"))).toMatchObject({ ok: false, reason: expect.stringContaining("larger than") })
    expect(await patient.download(server.url("/streamed.png"))).toMatchObject({ ok: false, reason: expect.stringContaining("larger than") })
  })

  it("refuses a non-image content type, bytes that are no image, and SVG", async () => {
    server.set("/page.png", { bytes: Buffer.from("<html>login</html>"), type: "text/html" })
    server.set("/liar.png", { bytes: Buffer.from("<html>login</html>"), type: "image/png" })
    server.set("/x.svg", { bytes: Buffer.from("<svg/>"), type: "image/svg+xml" })
    expect(await downloader.download(server.url("/page.png"))).toMatchObject({ ok: false, reason: "content-type text/html is not an image" })
    expect(await downloader.download(server.url("/liar.png"))).toMatchObject({ ok: false, reason: expect.stringContaining("not a known image") })
    expect(await downloader.download(server.url("/x.svg"))).toMatchObject({ ok: false })
  })

  it("fails on HTTP errors and on a slow host within the timeout", async () => {
    server.set("/gone.png", { status: 410 })
    server.set("/slow.png", { bytes: pngFor("1/c"), delayMs: 3000 })
    expect(await downloader.download(server.url("/gone.png"))).toEqual({ ok: false, url: server.url("/gone.png"), reason: "HTTP 410" })
    const started = Date.now()
    expect(await downloader.download(server.url("/slow.png"))).toMatchObject({ ok: false, reason: expect.stringContaining("timed out") })
    expect(Date.now() - started).toBeLessThan(2800)
  })

  it("follows a few redirects and no more", async () => {
    server.set("/final.png", { bytes: pngFor("1/d") })
    server.set("/r1", { redirect: "/final.png" })
    server.set("/r2", { redirect: server.url("/r1") })
    server.set("/r3", { redirect: "/r2" })
    expect(await downloader.download(server.url("/r2"))).toMatchObject({ ok: true, url: server.url("/r2") })
    expect(await downloader.download(server.url("/r3"))).toMatchObject({ ok: false, reason: "more than 2 redirects" })
  })

  it("keeps at most its concurrency in flight", async () => {
    for (let i = 0; i < 12; i++) server.set(`/c${i}.png`, { bytes: pngFor(`c/${i}`), delayMs: 50 })
    const all = await Promise.all(Array.from({ length: 12 }, (_, i) => downloader.download(server.url(`/c${i}.png`))))
    expect(all.every((o) => o.ok)).toBe(true)
    expect(server.peakConcurrency()).toBe(4)
  })

  it("refuses loopback, by IP or by a name that resolves to it, under the default address policy", async () => {
    const guarded = createImageDownloader({ addressPolicy: { allowPrivateNetworks: false }, timeoutMs: 1500 })
    try {
      server.set("/private.png", { bytes: pngFor("1/e") })
      const got = await guarded.download(server.url("/private.png"))
      expect(got).toMatchObject({ ok: false, reason: expect.stringContaining("loopback") })
      // A public name that resolves to loopback is refused the same way (checked on the resolved IP).
      const rebound = createImageDownloader({
        addressPolicy: { allowPrivateNetworks: false },
        timeoutMs: 1500,
        lookup: (_h, _o, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }]),
      })
      const viaName = await rebound.download(server.url("/private.png").replace("127.0.0.1", "images.example.com"))
      await rebound.close()
      expect(viaName).toMatchObject({ ok: false, reason: expect.stringContaining("loopback") })
      expect(server.requests("/private.png")).toBe(0)
    } finally {
      await guarded.close()
    }
  })
})
