// Mirrored images against a real Medusa app: the demo app's own File module (the local file
// provider Medusa configures by default), the catalog_sync module's records in PostgreSQL, and
// images served over loopback by a scripted host that counts requests. The mirror runs inside
// the app through `medusa exec` with the app's container.
import { createHash } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { pngFor } from "../../sandbox/png"
import { startImageServer, type ImageServer } from "../../src/image-mirror/__tests__/image-server"
import type { ProductCard } from "../../src/catalog-client"
import { createTestDatabase, DEMO_DIR, runMedusaCommand } from "../harness"
import { configure, sql } from "./poll-and-query"
import { configureAndWait, readCatalog, readShop, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(900_000)

type Step =
  | { op: "mirror"; products: { catalogId: string; images: { url: string; is_main?: boolean }[] }[]; nowOffsetMs?: number; maxBytes?: number }
  | { op: "release"; ids: string[] }
  | { op: "collect"; urls: string[] }
  | { op: "stored" }
  | { op: "due"; nowOffsetMs?: number }

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex")
const STATIC_DIR = path.join(DEMO_DIR, "static")

describe("mirrored images in a Medusa app", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let server: ImageServer
  let tmp: string

  beforeAll(async () => {
    db = await createTestDatabase("image_mirror")
    server = await startImageServer()
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "image-mirror-"))
  })
  afterAll(async () => {
    await server?.close()
    await db?.drop()
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
  })

  async function runSteps(steps: Step[]): Promise<any[]> {
    const file = path.join(tmp, `plan-${Date.now()}.json`)
    const reportFile = `${file}.report.json`
    fs.writeFileSync(file, JSON.stringify({ imageServer: server.url(""), reportFile, steps }))
    const out = await runMedusaCommand(["exec", path.join(__dirname, "scripts", "image-mirror-steps.js"), file], {
      DATABASE_URL: db.url,
    })
    if (!fs.existsSync(reportFile)) throw new Error(`no report from the script:\n${out.slice(-4000)}`)
    return JSON.parse(fs.readFileSync(reportFile, "utf8"))
  }

  it("stores served bytes once, fetches nothing again, deletes removed photos, retries failures, refuses bad answers", async () => {
    const u = (name: string) => server.url(`/img/${name}.png`)
    for (const name of ["a", "b", "c"]) server.set(`/img/${name}.png`, { bytes: pngFor(`it/${name}`) })
    server.set("/img/a-copy.png", { bytes: pngFor("it/a") }) // same bytes as a under another URL
    server.set("/img/flaky.png", { bytes: pngFor("it/flaky"), failTimes: 1 })
    server.set("/img/huge.png", { bytes: Buffer.concat([pngFor("it/huge"), Buffer.alloc(300 * 1024)]) })
    server.set("/img/page.png", { bytes: Buffer.from("<html>hot-link protection</html>"), type: "text/html" })
    const served: Record<string, Buffer> = Object.fromEntries(["a", "b", "c", "flaky"].map((n) => [u(n), pngFor(`it/${n}`)]))
    served[u("a-copy")] = pngFor("it/a")

    const p1 = { catalogId: "9223372036854775807", images: [{ url: u("b") }, { url: u("a"), is_main: true }, { url: u("flaky") }] }
    const p2 = { catalogId: "2", images: [{ url: u("a-copy") }, { url: u("c") }, { url: u("huge") }, { url: u("page") }] }
    const p1Reordered = { ...p1, images: [{ url: u("a"), is_main: true }, { url: u("flaky") }, { url: u("b") }] }
    const p1WithoutB = { ...p1, images: [{ url: u("a"), is_main: true }, { url: u("flaky") }] }
    const SIX_MINUTES = 6 * 60_000

    const [first, stored, second, reordered, removed, collected, afterRemoval, dueNow, dueLater, retried] = await runSteps([
      { op: "mirror", products: [p1, p2], maxBytes: 200 * 1024 },
      { op: "stored" },
      { op: "mirror", products: [p1, p2], maxBytes: 200 * 1024 },
      { op: "mirror", products: [p1Reordered], maxBytes: 200 * 1024 },
      { op: "mirror", products: [p1WithoutB], maxBytes: 200 * 1024 },
      { op: "collect", urls: [u("b")] },
      { op: "stored" },
      { op: "due" },
      { op: "due", nowOffsetMs: SIX_MINUTES },
      { op: "mirror", products: [p1WithoutB], maxBytes: 200 * 1024, nowOffsetMs: SIX_MINUTES },
    ])

    // First call: every URL fetched once; identical bytes stored once.
    expect(first.fetched).toBe(7)
    expect(Object.values(first.requests).every((n) => n === 1)).toBe(true)
    expect(first.uploaded).toBe(3) // a (shared with a-copy), b, c
    expect(first.reusedByHash).toBe(1)
    const g1: string[] = first.galleries[p1.catalogId]
    expect(g1[0]).not.toBe(u("a")) // main first, mirrored
    expect(g1[1]).not.toBe(u("b"))
    expect(g1[2]).toBe(u("flaky")) // failed: the catalog URL stays
    const g2: string[] = first.galleries["2"]
    expect(g2[0]).toBe(g1[0]) // same bytes, one file, shared across products
    expect(g2.slice(2)).toEqual([u("huge"), u("page")]) // refused: catalog URLs stay
    const reasons = Object.fromEntries(first.failed.map((f: any) => [f.url, f.reason]))
    expect(reasons[u("flaky")]).toBe("HTTP 503")
    expect(reasons[u("huge")]).toContain("larger than")
    expect(reasons[u("page")]).toBe("content-type text/html is not an image")

    // The File module holds exactly the served bytes, under the shop's own URL.
    const withFiles = stored.records.filter((r: any) => r.file_id)
    expect(withFiles).toHaveLength(4)
    for (const r of withFiles) {
      const bytes = Buffer.from(r.bytes, "base64")
      expect(bytes.equals(served[r.source_url])).toBe(true)
      expect(r.content_hash).toBe(sha(bytes))
      expect(r.shop_url).not.toContain(server.url(""))
      // On the local provider's disk (b's file is deleted by a later step of the same run).
      if (r.source_url !== u("b")) expect(fs.existsSync(path.join(STATIC_DIR, r.file_id))).toBe(true)
    }
    expect(new Set(withFiles.map((r: any) => r.file_id)).size).toBe(3)
    const flakyRecord = stored.records.find((r: any) => r.source_url === u("flaky"))
    expect(flakyRecord).toMatchObject({ file_id: null, failure_count: 1 })
    expect(new Date(flakyRecord.next_attempt_at).getTime()).toBeGreaterThan(Date.now())

    // Second call and a reordered gallery: nothing downloaded, same shop URLs.
    expect(second.fetched).toBe(0)
    expect(second.requests).toEqual({})
    expect(second.galleries).toEqual(first.galleries)
    expect(reordered.fetched).toBe(0)
    expect(reordered.requests).toEqual({})
    expect(reordered.galleries[p1.catalogId]).toEqual([g1[0], u("flaky"), g1[1]])

    // A removed photo: released, then deleted from storage (no product uses it any more).
    expect(removed.released).toEqual([u("b")])
    expect(removed.requests).toEqual({})
    const bFile = withFiles.find((r: any) => r.source_url === u("b")).file_id
    expect(collected.collected).toEqual({ records: 1, files: [bFile] })
    expect(fs.existsSync(path.join(STATIC_DIR, bFile))).toBe(false)
    expect(afterRemoval.records.map((r: any) => r.source_url)).not.toContain(u("b"))
    expect(afterRemoval.refs).not.toContainEqual([p1.catalogId, u("b")])

    // The failed URL is tried again once due (a later run finds its product without the catalog
    // sending the card again), and then served from the shop.
    expect(dueNow.due).toEqual([])
    expect([...dueLater.due].sort()).toEqual(["2", p1.catalogId]) // 2 shows the refused huge and page URLs
    expect(retried.requests).toEqual({ "/img/flaky.png": 1 })
    expect(retried.failed).toEqual([])
    expect(retried.galleries[p1.catalogId][1]).not.toBe(u("flaky"))

    // Clean the demo's static folder of what this test stored.
    const [, end] = await runSteps([{ op: "collect", urls: (await runSteps([{ op: "release", ids: [p1.catalogId, "2"] }]))[0].released }, { op: "stored" }])
    expect(end.records.filter((r: any) => r.file_id)).toEqual([])
  })
})

// Mirroring through real syncs: the admin turns mirror_images on, runs go through the queue and
// the worker, images come from the sandbox over loopback and land in the demo's local file
// provider. Truth: the sandbox's own image bytes (pngFor of each card's image path), the files
// on disk and served by the app, and the sandbox's image counter.
describe("mirrored images through real syncs", () => {
  const PRODUCTS = Number(process.env.IMAGE_MIRROR_PRODUCTS ?? 12)
  let env: SyncEnv

  beforeAll(async () => {
    env = await startSyncEnv("image_mirror_sync", { products: PRODUCTS, seed: 13 })
  })
  afterAll(async () => {
    // The files this shop stored, not left in the demo's static folder.
    if (env)
      for (const r of await sql(env.db.url, "select distinct file_id from mcs_mirrored_image where file_id is not null")) {
        fs.rmSync(path.join(STATIC_DIR, r.file_id), { force: true })
      }
    await env?.close()
  })

  /** Image requests the sandbox answered: served, and failed by /image-faults. */
  const imageStats = () => {
    const { images, image_failures } = env.sb.control.stats() as { images: number; image_failures: number }
    return { images, image_failures }
  }
  /** The card's image paths, main first (the gallery the shop must show). */
  const expectedPaths = (card: ProductCard) =>
    [...card.images.filter((i) => i.is_main), ...card.images.filter((i) => !i.is_main)].map((i) => new URL(i.url).pathname)
  const sandboxBytes = (imagePath: string) => {
    const [, , id, file] = imagePath.split("/")
    return pngFor(`${id}/${file.replace(/\.png$/, "")}`)
  }
  const storedFile = (url: string) => path.join(STATIC_DIR, path.basename(new URL(url).pathname))
  const isShopUrl = (url: string) => !url.startsWith(env.sb.baseUrl) && new URL(url).pathname.startsWith("/static/")

  /** Every product's gallery in the shop equals the sandbox's bytes in the card's order; returns the catalog URLs still shown. */
  async function checkShopAgainstSandbox(): Promise<string[]> {
    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    const shop = await readShop(env.db.url)
    const hotLinked: string[] = []
    for (const card of cards) {
      const product = shop.get(String(card.id))
      expect(product).toBeDefined()
      const paths = expectedPaths(card)
      expect(product!.images).toHaveLength(paths.length)
      product!.images.forEach((url, i) => {
        if (!isShopUrl(url)) {
          expect(url).toBe(env.sb.baseUrl + paths[i]) // not mirrored (yet): the catalog's URL
          hotLinked.push(url)
          return
        }
        expect(fs.readFileSync(storedFile(url)).equals(sandboxBytes(paths[i]))).toBe(true)
      })
      expect(product!.thumbnail).toBe(product!.images[0])
    }
    return hotLinked
  }

  it("refuses an invalid mirror_images with a 400 and keeps it off by default", async () => {
    const before = await env.app.admin("/admin/catalog-sync/settings")
    expect(before.body.settings.mirror_images).toBe(false)
    const res = await env.app.admin("/admin/catalog-sync/settings", { body: { mirror_images: "yes" } })
    expect(res.status).toBe(400)
    expect(res.body.field).toBe("mirror_images")
  })

  it("off by default: a first sync hot-links the catalog's images and downloads none", async () => {
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
    const all = env.sb.state.catalog.liveProducts().reduce((n, p) => n + p.images.length, 0)
    expect(await checkShopAgainstSandbox()).toHaveLength(all)
    expect(imageStats()).toEqual({ images: 0, image_failures: 0 })
  })

  let failing: { id: string; path: string }
  it("turned on, a full sync stores every image in the shop's storage, each downloaded once; a failing URL stays the catalog's", async () => {
    const withTwo = env.sb.state.catalog.liveProducts().find((p) => p.images.length >= 2)!
    failing = { id: withTwo.idText, path: `/images/${withTwo.idText}/${withTwo.images[1]}.png` }
    await env.sb.control.imageFaults({ fail: [failing.path] })

    const saved = await configure(env.app, { mirror_images: true })
    expect(saved.settings.mirror_images).toBe(true)
    // Products synced before it was on are unchanged in the catalog: the full pass mirrors them (images only).
    const run = await runAndWait(env, "full")
    expect(run).toMatchObject({ status: "succeeded", created: 0, updated: PRODUCTS })
    expect(await checkShopAgainstSandbox()).toEqual([env.sb.baseUrl + failing.path])
    const distinct = new Set(env.sb.state.catalog.liveProducts().flatMap((p) => p.images.map((t) => `${p.idText}/${t}`)))
    expect(imageStats()).toEqual({ images: distinct.size - 1, image_failures: 1 })
    // Served by the shop itself, too.
    const [one] = (await readShop(env.db.url)).get(failing.id)!.images
    const served = await fetch(env.app.url + new URL(one).pathname)
    expect(served.status).toBe(200)
    expect(
      Buffer.from(await served.arrayBuffer()).equals(
        sandboxBytes(expectedPaths((await readCatalog(env.sb.baseUrl, env.sb.apiKey)).find((c) => String(c.id) === failing.id)!)[0])
      )
    ).toBe(true)
  })

  it("a second sync downloads nothing (the failed URL is not due yet)", async () => {
    const before = imageStats()
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", created: 0, updated: 0 })
    expect(imageStats()).toEqual(before)
  })

  it("a reordered gallery downloads nothing, a removed photo and a removed product's photos are deleted from storage, a new product is mirrored", async () => {
    const candidates = env.sb.state.catalog.liveProducts().filter((p) => p.images.length >= 3 && p.idText !== failing.id)
    const [reordered, trimmed, deleted] = candidates
    expect(deleted).toBeDefined()
    const shopBefore = await readShop(env.db.url)
    await env.sb.control.mutate({ count: 1, kinds: ["photo_order"], ids: [reordered.idText] })
    const { added } = env.sb.control.mutate({ count: 1, kinds: ["add"] }) as { added: string[] }
    const addedImages = env.sb.state.catalog.findLive(String(added[0]))!.images.length
    const removedToken = trimmed.images.pop()!
    env.sb.state.catalog.recordChange(trimmed, ["photos"], env.sb.state.now())
    const removedFile = storedFile(shopBefore.get(trimmed.idText)!.images[trimmed.images.length])
    expect(fs.existsSync(removedFile)).toBe(true)
    env.sb.control.mutate({ remove_ids: [deleted.idText] })
    const deletedFiles = shopBefore.get(deleted.idText)!.images.map(storedFile)
    expect(deletedFiles.every((f) => fs.existsSync(f))).toBe(true)

    const before = imageStats()
    const run = await runAndWait(env, "changes")
    expect(run).toMatchObject({ status: "succeeded", created: 1, updated: 2, removed: 1 })
    // Only the new product's images were downloaded.
    expect(imageStats()).toEqual({ ...before, images: before.images + addedImages })
    expect(await checkShopAgainstSandbox()).toEqual([env.sb.baseUrl + failing.path])
    expect(fs.existsSync(removedFile)).toBe(false)
    // A product the catalog removed (delete mode): its files are gone from storage too.
    expect(deletedFiles.filter((f) => fs.existsSync(f))).toEqual([])
    const records = await sql(env.db.url, "select source_url from mcs_mirrored_image where deleted_at is null and source_url like $1", [
      `%/${removedToken}.png`,
    ])
    expect(records).toEqual([])
  })

  it("the failed URL is retried by a later run once due, and then served from the shop; not while the images are locked", async () => {
    await env.sb.control.imageFaults({ heal: [failing.path] })
    const before = imageStats()
    // Its retry time (5 minutes after the failure) arrives: moved to now rather than waited for.
    const due = () =>
      sql(env.db.url, "update mcs_mirrored_image set next_attempt_at = now() - interval '1 second' where source_url = $1", [env.sb.baseUrl + failing.path])
    await due()

    // The shop locked this product's images: the retry neither downloads nor rewrites them.
    const [{ product_id: productId }] = await sql(env.db.url, "select product_id from mcs_product_map where catalog_id = $1", [failing.id])
    expect((await env.app.admin(`/admin/catalog-sync/products/${productId}/locks`, { body: { fields: ["images"], locked: true } })).status).toBe(200)
    expect((await runAndWait(env, "changes")).status).toBe("succeeded")
    expect(imageStats()).toEqual(before)
    expect(await checkShopAgainstSandbox()).toEqual([env.sb.baseUrl + failing.path])
    await sql(env.db.url, "delete from mcs_field_lock where product_id = $1", [productId])
    await due()

    const run = await runAndWait(env, "changes")
    expect(run.status).toBe("succeeded")
    expect(imageStats()).toEqual({ ...before, images: before.images + 1 })
    expect(await checkShopAgainstSandbox()).toEqual([])
  })
})
