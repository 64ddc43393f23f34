// Event parity per write kind: the same input written by Medusa's workflows and by the bulk
// writer (bulk-write/events.exec.ts, one real app) must make the app's event bus deliver the
// same whole set of events (every name, public, module-internal and link, with its payload's
// shape and metadata), each only after its rows were committed. Ids differ between the two
// products, so each id is compared by its prefix and by which delivered ids it equals.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "./../harness"
import type { RecordedEvent } from "./bulk-write/events.exec"

jest.setTimeout(1_800_000)

const SCRIPT = path.join(__dirname, "bulk-write", "events.exec.ts")

describe("the bulk writer emits every event Medusa's workflows emit", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let out: { events: Record<string, { medusa: RecordedEvent[]; bulk: RecordedEvent[] }> }

  beforeAll(async () => {
    // Re-judging a recorded run (EVENT_PARITY_REPLAY=<its dump>) needs no app.
    if (process.env.EVENT_PARITY_REPLAY) {
      out = JSON.parse(fs.readFileSync(process.env.EVENT_PARITY_REPLAY, "utf8"))
      return
    }
    db = await createTestDatabase("event_parity")
    const file = path.join(os.tmpdir(), `event-parity-${process.pid}.json`)
    await runMedusaCommand(["exec", SCRIPT, file], { DATABASE_URL: db.url }, 1_200_000)
    out = JSON.parse(fs.readFileSync(file, "utf8"))
    if (process.env.EVENT_PARITY_DUMP) fs.copyFileSync(file, process.env.EVENT_PARITY_DUMP)
    fs.rmSync(file, { force: true })
  })

  afterAll(async () => {
    await db?.drop()
  })

  /**
   * Each event as a comparable line: its name, metadata, payload with every id replaced by its
   * prefix ("prod", "variant", …), and the names of the other events about the same id (so
   * `product.created` must name the product `product.product.created` names). Sorted: a multiset.
   */
  function signatures(events: RecordedEvent[]): string[] {
    const idsOf = (e: RecordedEvent) => [e.data.id].flat().map(String)
    const namesById = new Map<string, string[]>()
    for (const e of events) for (const id of idsOf(e)) namesById.set(id, [...(namesById.get(id) ?? []), e.name])
    const prefix = (id: unknown) => (typeof id === "string" ? id.replace(/_[0-9A-Z]{26}$/, "_*") : id)
    const lines: string[] = []
    for (const e of events) {
      // One line per id: Medusa's module events name one id each, a grouped message several.
      for (const id of idsOf(e)) {
        const data = Object.fromEntries(Object.entries(e.data).map(([k, v]) => [k, k === "id" ? prefix(id) : typeof v === "string" ? prefix(v) : v]))
        const others = namesById
          .get(id)!
          .filter((n) => n !== e.name)
          .sort()
        lines.push(JSON.stringify({ name: e.name, metadata: e.metadata, data, sameId: others }))
      }
    }
    return lines.sort()
  }

  const KINDS = [
    "create",
    "stock",
    "prices",
    "fields",
    "sizes",
    "saleCreate",
    "saleSync",
    "saleDelete",
    "remove",
    "translationsCreate",
    "translationsChange",
    "brandLinkCreate",
    "brandLinkChange",
    "brandLinkDismiss",
  ]

  // The one known difference, on base prices only: the plugin's update workflow (the pricing
  // module's price set upsert) replaces each base price of a variant it touches with a new row
  // (pricing.price.deleted + .created, even when the amount is the same), the bulk writer updates
  // a changed amount in place (pricing.price.updated, the same row) and leaves an unchanged one.
  const isPriceRow = (line: string) => /"name":"pricing\.price\.(created|deleted|updated)"/.test(line)
  const REPLACES_BASE_PRICES = new Set(["prices", "sizes"])

  it.each(KINDS)("%s: the same whole set of events, public, internal and link", (kind) => {
    const { medusa, bulk } = out.events[kind]
    // Not vacuous: Medusa's workflow emitted something for this kind.
    expect(medusa.length).toBeGreaterThan(0)
    if (kind === "fields") {
      // Medusa's product update flushes no entity event for the product row or its gallery (it
      // emits product.updated alone), so the Index module never learns a new title, status or
      // image from it; the bulk writer adds the rows' internal events, and nothing else.
      const extra = (e: RecordedEvent) => /^product\.product(-image)?\.(updated|created|deleted)$/.test(e.name)
      expect(signatures(bulk.filter((e) => !extra(e)))).toEqual(signatures(medusa))
      expect(medusa.filter(extra)).toEqual([])
      expect(
        bulk
          .filter(extra)
          .map((e) => e.name)
          .sort()
      ).toEqual([
        "product.product-image.created",
        "product.product-image.created",
        "product.product-image.deleted",
        "product.product-image.deleted",
        "product.product.updated",
      ])
      return
    }
    if (!REPLACES_BASE_PRICES.has(kind)) {
      expect(signatures(bulk)).toEqual(signatures(medusa))
      return
    }
    expect(signatures(bulk).filter((l) => !isPriceRow(l))).toEqual(signatures(medusa).filter((l) => !isPriceRow(l)))
  })

  it("prices: each changed base price is one pricing.price.updated of its row, where Medusa replaced the row", () => {
    const { medusa, bulk } = out.events.prices
    const count = (events: RecordedEvent[], name: string) => events.filter((e) => e.name === name).length
    expect([count(medusa, "pricing.price.deleted"), count(medusa, "pricing.price.created")]).toEqual([2, 2])
    expect([count(bulk, "pricing.price.updated"), count(bulk, "pricing.price.deleted"), count(bulk, "pricing.price.created")]).toEqual([2, 0, 0])
  })
})
