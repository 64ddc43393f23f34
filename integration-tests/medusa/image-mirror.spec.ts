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
import { createTestDatabase, DEMO_DIR, runMedusaCommand } from "../harness"

jest.setTimeout(300_000)

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
    const [, end] = await runSteps([
      { op: "collect", urls: (await runSteps([{ op: "release", ids: [p1.catalogId, "2"] }]))[0].released },
      { op: "stored" },
    ])
    expect(end.records.filter((r: any) => r.file_id)).toEqual([])
  })
})
