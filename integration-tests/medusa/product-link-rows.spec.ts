// The bulk link writer (src/bulk-write/product-links.ts, behind the plugin's brand and model
// links) against Medusa's link API, in one real app: the same rounds of link changes go through
// link.create / link.dismiss for three products and through syncLinks for three others; every
// row of both link tables, every event and Medusa's Query read must come out the same.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "../harness"

jest.setTimeout(300_000)

const SCRIPT = path.join(__dirname, "bulk-write", "product-links.exec.ts")

describe("bulk product links write the rows and events of Medusa's link API", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let out: any

  beforeAll(async () => {
    db = await createTestDatabase("product_link_rows")
    const file = path.join(os.tmpdir(), `product-link-rows-${process.pid}.json`)
    await runMedusaCommand(["exec", SCRIPT, file], { DATABASE_URL: db.url }, 240_000)
    out = JSON.parse(fs.readFileSync(file, "utf8"))
    fs.rmSync(file, { force: true })
  })

  afterAll(async () => {
    await db?.drop()
  })

  it("finds both link tables", () => {
    expect(out.linkTables).toHaveLength(2)
  })

  it.each([0, 1, 2, 3])("round %i: the same rows, deleted ones included, ids and timestamps moving the same way", (i) => {
    const { api, bulk } = out.rounds[i]
    expect(bulk.rows).toEqual(api.rows)
  })

  it.each([0, 1, 2, 3])("round %i: the same events (name, source, object, action, ids, internal)", (i) => {
    const { api, bulk } = out.rounds[i]
    expect(bulk.events).toEqual(api.events)
  })

  it.each([0, 1, 2, 3])("round %i: each link event comes after its rows are committed", (i) => {
    const { api, bulk } = out.rounds[i]
    const linkEvents = (events: any[]) => events.filter((e) => /\.(attached|detached)$/.test(e.name))
    expect(linkEvents(bulk.events).length).toBeGreaterThan(0)
    for (const e of [...linkEvents(api.events), ...linkEvents(bulk.events)]) expect(e.committedAtEmit).toBe(true)
  })

  it.each([0, 1, 2, 3])("round %i: Medusa's Query reads the same links", (i) => {
    const { api, bulk } = out.rounds[i]
    expect(bulk.read).toEqual(api.read)
  })

  it("is not vacuous: links are made, moved, dropped, brought back and left alone", () => {
    const [first, second, third, fourth] = out.rounds.map((r: any) => r.bulk)
    const brand = (round: any) => round.read.product_catalog_brand
    expect(brand(first)).toEqual(["P1-B1", "P2-B1", "P3-B2"])
    expect(brand(second)).toEqual(["P1-B2", "P3-B2"])
    expect(brand(third)).toEqual(["P1-B1", "P2-B1", "P3-B2"])
    expect(brand(fourth)).toEqual(["P1-B1", "P2-B1"])
    expect(fourth.read.product_catalog_brand_model).toEqual(["P1-M1", "P2-M2"])
    const rows = (round: any) => Object.values(round.rows).flat() as any[]
    // Round 3 brings P1-B1 back: the pair's soft-deleted row, live again.
    const revived = rows(third).find((r) => r.product_id === "P1" && r.catalog_brand_id === "B1")
    expect(revived.deleted_at).toBeNull()
    // Round 4 leaves P1's links as they are.
    expect(
      rows(fourth)
        .filter((r) => r.product_id === "P1" && r.deleted_at === null)
        .every((r) => r.id === "<same>" && r.updated_at === "<same>")
    ).toBe(true)
    expect(
      rows(fourth)
        .filter((r) => r.product_id === "P3")
        .every((r) => r.deleted_at !== null)
    ).toBe(true)
    const names = first.events.map((e: any) => e.name)
    expect(names.some((n: string) => n.endsWith(".attached"))).toBe(true)
    expect(second.events.map((e: any) => e.name).some((n: string) => n.endsWith(".detached"))).toBe(true)
  })
})
