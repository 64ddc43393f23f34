// Event parity per change kind (bulk-write/events.exec.ts, one real app): the same change made by
// the Medusa workflow a shop's own admin action runs (the reference), by the bulk writer, by the
// workflows write path (the plugin's writes through Medusa's core-flows) and, for product creates
// and updates, by the plugin's own workflow the bulk path falls back to per product. Every writer
// must make the app's event bus deliver the reference's public events, the same names, as many,
// naming the same entities (ids differ between products, so each id is compared by which other
// public events name it). The bulk writer's whole set (public, module-internal and link, with
// payload shape and metadata) is also compared with Medusa's own write of the same rows.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "./../harness"
import type { KindEvents, RecordedEvent } from "./bulk-write/events.exec"

jest.setTimeout(1_800_000)

const SCRIPT = path.join(__dirname, "bulk-write", "events.exec.ts")

describe("both write paths emit the events Medusa's workflows emit for the same change", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let out: {
    events: Record<string, KindEvents>
    routes: Record<string, string[]>
    optionValuesAfterRemoval: Record<string, { value: string; deleted: boolean }[]>
  }

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

  /** A workflow's public event: `<entity>.<action>` (module-internal ones have three parts, link events a capitalised entity). */
  const isPublic = (e: RecordedEvent) => /^[a-z-]+\.[a-z_-]+$/.test(e.name)

  /**
   * The public events as comparable lines: each event's name, its id's prefix and the names of the
   * other public events about the same id (one variant created twice, or a level updated that was
   * not the created one, shows). Payloads beyond the id are not compared: the sync marks its own
   * product.updated.
   */
  function publicSignatures(events: RecordedEvent[]): string[] {
    return signatures(events.filter(isPublic).map((e) => ({ ...e, data: { id: e.data.id }, metadata: {} })))
  }

  const KINDS = [
    "create",
    "stock",
    "prices",
    "fields",
    "sizeAdded",
    "sizeRemoved",
    "keptForOrder",
    "keptReturning",
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
  /** What each kind's reference emits publicly (read from Medusa 2.21's core-flows; the recording must agree). */
  const REFERENCE_PUBLIC: Record<string, string[]> = {
    create: ["inventory-item.created", "inventory-level.created", "product-variant.created", "product.created"],
    stock: ["inventory-level.updated"],
    prices: ["product-variant.updated"],
    fields: ["product.updated"],
    sizeAdded: ["inventory-item.created", "inventory-level.created", "product-variant.created"],
    sizeRemoved: ["inventory-item.deleted", "product-variant.deleted"],
    keptForOrder: ["inventory-level.updated"],
    keptReturning: ["inventory-level.updated"],
    saleCreate: [],
    saleSync: [],
    saleDelete: [],
    remove: ["inventory-item.deleted", "product-option.deleted", "product.deleted"],
    translationsCreate: ["translation.created"],
    translationsChange: ["translation.deleted", "translation.updated"],
    brandLinkCreate: [],
    brandLinkChange: [],
    brandLinkDismiss: [],
  }

  /** The kinds the bulk path hands to the core-flows writer when a product's bulk write fails. */
  const WITH_FALLBACK = new Set(["create", "prices", "fields", "sizeAdded", "sizeRemoved", "keptForOrder", "keptReturning"])

  it.each(KINDS)("%s: every writer emits the reference workflow's public events, per entity", (kind) => {
    const { reference, ...writers } = out.events[kind]
    // Not vacuous: the reference ran and its app delivered events, and its public names are the expected ones.
    expect(reference.length).toBeGreaterThan(0)
    expect([...new Set(reference.filter(isPublic).map((e) => e.name))].sort()).toEqual(REFERENCE_PUBLIC[kind])
    const expected = publicSignatures(reference)
    const writerNames = WITH_FALLBACK.has(kind) ? ["bulk", "fallback", "workflows"] : ["bulk", "workflows"]
    expect(Object.keys(writers).sort()).toEqual(writerNames)
    for (const writer of writerNames) {
      expect({ writer, events: publicSignatures(writers[writer as keyof typeof writers]!) }).toEqual({ writer, events: expected })
    }
  })

  // The bulk writer's whole set of events (internal and link ones included) against Medusa's own
  // write of the same rows: the reference where it writes the same rows, else the core-flows
  // writer (Medusa's workflows), the bulk path's per-product fallback.
  const SAME_ROWS_AS_REFERENCE = new Set([
    "create",
    "stock",
    "saleCreate",
    "saleSync",
    "saleDelete",
    "remove",
    "translationsCreate",
    "translationsChange",
    "brandLinkCreate",
    "brandLinkChange",
    "brandLinkDismiss",
  ])
  const rowsPartner = (kind: string) => (SAME_ROWS_AS_REFERENCE.has(kind) ? out.events[kind].reference : out.events[kind].fallback!)

  // The known difference on base prices: Medusa's variant update (the pricing module's price set
  // upsert) replaces each base price of a variant it touches with a new row (pricing.price.deleted
  // + .created, even when the amount is the same), the bulk writer updates a changed amount in place
  // (pricing.price.updated, the same row) and leaves an unchanged one. Medusa's variant update also
  // flushes the variant row it was given (product.product-variant.updated); the bulk writer writes
  // the price rows alone (the public product-variant.updated names the variant).
  const isPriceRow = (line: string) => /"name":"pricing\.price\.(created|deleted|updated)"/.test(line)
  const isVariantRow = (e: RecordedEvent) => e.name === "product.product-variant.updated"
  const REPLACES_BASE_PRICES = new Set(["prices"])

  it.each(KINDS)("%s: the bulk writer's whole set of events, public, internal and link, equals Medusa's write of the same rows", (kind) => {
    const medusa = rowsPartner(kind)
    const { bulk } = out.events[kind]
    expect(medusa.length).toBeGreaterThan(0)
    if (kind === "fields") {
      // Medusa's product update flushes no entity event for the product row or its gallery (it
      // emits product.updated alone), so the Index module never learns a new title, status or
      // image from it; the bulk writer adds the rows' internal events, and nothing else.
      const extra = (e: RecordedEvent) => /^product\.product(-image)?\.(updated|created|deleted)$/.test(e.name)
      // The sync marks its own product.updated (auto-lock leaves it alone); Medusa's workflow cannot
      // (the core-flows writer holds its events in the page's event group instead).
      const marked = bulk.filter((e) => e.name === "product.updated")
      expect(marked.length).toBeGreaterThan(0)
      expect(marked.every((e) => e.data.catalog_sync_write === true)).toBe(true)
      const unmarked = (e: RecordedEvent) => (e.name === "product.updated" ? { ...e, data: { id: e.data.id } } : e)
      expect(signatures(bulk.filter((e) => !extra(e)).map(unmarked))).toEqual(signatures(medusa))
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
    if (kind === "sizeRemoved") {
      // The lost size's value leaves the product's own option, soft-deleted on every route (checked
      // by SQL in the recording), but the product module's softDeleteProductOptionValues emits no
      // event for it: the bulk writer emits the row's product.product-option-value.deleted, and nothing else beyond.
      const extra = (e: RecordedEvent) => e.name === "product.product-option-value.deleted"
      expect(signatures(bulk.filter((e) => !extra(e)))).toEqual(signatures(medusa))
      expect(medusa.filter(extra)).toEqual([])
      expect(bulk.filter(extra)).toHaveLength(1)
      for (const writer of ["reference", "bulk", "workflows", "fallback"])
        expect({ writer, values: out.optionValuesAfterRemoval[writer] }).toEqual({
          writer,
          values: [
            { value: "42", deleted: false },
            { value: "43", deleted: false },
            // The reference (the admin's variant delete) leaves the value on the option.
            { value: "44", deleted: writer !== "reference" },
          ],
        })
      return
    }
    if (!REPLACES_BASE_PRICES.has(kind)) {
      expect(signatures(bulk)).toEqual(signatures(medusa))
      return
    }
    expect(bulk.filter(isVariantRow)).toEqual([])
    expect(medusa.filter(isVariantRow).length).toBe(medusa.filter((e) => e.name === "product-variant.updated").length)
    expect(signatures(bulk).filter((l) => !isPriceRow(l))).toEqual(signatures(medusa.filter((e) => !isVariantRow(e))).filter((l) => !isPriceRow(l)))
  })

  it("prices: each changed base price is one pricing.price.updated of its row, where Medusa replaced the row", () => {
    const { fallback, bulk } = out.events.prices
    const count = (events: RecordedEvent[], name: string) => events.filter((e) => e.name === name).length
    expect([count(fallback!, "pricing.price.deleted"), count(fallback!, "pricing.price.created")]).toEqual([2, 2])
    expect([count(bulk, "pricing.price.updated"), count(bulk, "pricing.price.deleted"), count(bulk, "pricing.price.created")]).toEqual([2, 0, 0])
  })
})
