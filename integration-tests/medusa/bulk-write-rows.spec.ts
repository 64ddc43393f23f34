// The bulk writer against Medusa's own workflows, table family by table family: the same input
// goes through Medusa (createProductsWorkflow with prices and inventory +
// createInventoryLevelsWorkflow, batchInventoryItemLevelsWorkflow, the pricing module's price
// set upsert, batchPriceListPricesWorkflow, deleteProductsWorkflow) into one product and
// through the bulk writer into another, inside one real app (`medusa exec`); every row of
// both is compared column by column, ids and timestamps by their format, foreign keys by where
// they point. Medusa's query API reads both back the same, and the events match.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "../harness"

jest.setTimeout(300_000)

const SCRIPT = path.join(__dirname, "bulk-write", "compare.exec.ts")

type Event = { name: string; id: string }
const names = (events: Event[]) => events.map((e) => e.name).sort()
/** A snapshot with its inventory items' labels left out: the bulk writer titles an item by product and size, with that title as its description; Medusa's variant workflows by the variant's title alone. */
const withoutItemLabels = (s: any) => ({
  ...s,
  variants: s.variants.map((v: any) => ({
    ...v,
    items: v.items.map((i: any) => ({ ...i, item: { ...i.item, title: "<title>", description: "<description>" } })),
  })),
})

describe("bulk writer writes the rows Medusa writes", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let out: any

  beforeAll(async () => {
    db = await createTestDatabase("bulk_write_rows")
    const file = path.join(os.tmpdir(), `bulk-write-rows-${process.pid}.json`)
    await runMedusaCommand(["exec", SCRIPT, file], { DATABASE_URL: db.url }, 240_000)
    out = JSON.parse(fs.readFileSync(file, "utf8"))
    fs.rmSync(file, { force: true })
  })

  afterAll(async () => {
    await db?.drop()
  })

  it("creates products, options, variants, images, categories, sales channel, price sets, prices, inventory items, levels and links exactly as createProductsWorkflow + createInventoryLevelsWorkflow", () => {
    const { medusa, bulk } = out.created
    expect(bulk).toEqual(medusa)
    // The comparison is not vacuous: the families are all there.
    expect(bulk.options[0].values.map((v: any) => [v.value, v.rank])).toEqual([
      ["41", null],
      ["42", null],
      ["43", null],
      ["44", null],
    ])
    expect(bulk.images.map((i: any) => i.rank)).toEqual([0, 1, 2])
    expect(bulk.categories).toHaveLength(1)
    expect(bulk.salesChannels).toHaveLength(1)
    expect(bulk.variants.map((v: any) => v.priceSets[0].prices[0]?.raw_amount)).toEqual([
      { value: "1300.5", precision: 20 },
      { value: "1400", precision: 20 },
      { value: "999.99", precision: 20 },
      undefined, // an unpriced variant: an empty price set, as Medusa makes for prices: []
    ])
    expect(bulk.variants[3].priceSets).toHaveLength(1)
    expect(bulk.variants.map((v: any) => v.items[0].levels[0].stocked_quantity)).toEqual(["3", "0", "12", "1"])
    expect(bulk.variants.every((v: any) => v.optionValues[0].belongs_to_product)).toBe(true)
  })

  it("writes a catalog product in bulk as the core-flows writer (its fallback) writes it, but for the inventory items' labels", () => {
    const { workflow, bulk } = out.pluginCreated
    const description = (s: any) => s.variants.map((v: any) => v.items.map((i: any) => i.item.description))
    expect(withoutItemLabels(bulk)).toEqual(withoutItemLabels(workflow))
    expect(workflow.variants.map((v: any) => v.items[0].item.title)).toEqual(workflow.variants.map((v: any) => v.variant.title))
    expect(description(bulk)).toEqual(bulk.variants.map((v: any) => [v.items[0].item.title]))
    // Not vacuous: the plugin's own parts are there.
    expect(bulk.variants.map((v: any) => v.items[0].item.title)).toEqual(["Кросівки 42", "Кросівки 43"])
    expect(bulk.variants.map((v: any) => v.variant.metadata)).toEqual([
      { catalog_id: "<tag>", catalog_size: "42" },
      { catalog_id: "<tag>", catalog_size: "43" },
    ])
    expect(bulk.variants.map((v: any) => v.items[0].levels[0].stocked_quantity)).toEqual(["3", "2"])
    expect(bulk.product).toMatchObject({ external_id: "<tag>", thumbnail: "http://img/0.png", status: "published" })
    expect(bulk.product.metadata).toMatchObject({ catalog_sync: true, catalog_id: "<tag>" })
    expect(bulk.product.weight).not.toBeNull()
    expect(bulk.images.map((i: any) => i.url)).toEqual(["http://img/0.png", "http://img/1.png"])
    expect(bulk.categories).toHaveLength(1)
  })

  it("tells the page the variant and inventory item of each size, as the workflow does", () => {
    for (const way of ["workflow", "bulk"]) {
      const { truth, told } = out.pluginResult[way]
      expect(Object.keys(told).sort()).toEqual(["42", "43"])
      expect(told).toEqual(truth)
    }
  })

  it("leaves option value ranks null, as the product module does even for the plugin's inline `ranks` input", () => {
    expect(out.ranks.bulk).toEqual(out.ranks.module)
    expect(out.ranks.module.map((r: any) => r.rank)).toEqual([null, null, null, null])
  })

  it("updates a product's fields, gallery, categories, prices and stock (its sizes unchanged) exactly as the core-flows writer, table by table", () => {
    const { workflow, bulk } = out.fieldsUpdated
    expect(bulk.product).toEqual(workflow.product)
    expect(bulk.images).toEqual(workflow.images)
    expect(bulk.categories).toEqual(workflow.categories)
    expect(withoutItemLabels(bulk)).toEqual(withoutItemLabels(workflow))
    // Not vacuous: the change is there.
    expect(bulk.product).toMatchObject({ title: "Кеди <tag>", description: "Новий опис <tag>", thumbnail: "http://img/1.png" })
    expect(bulk.product.metadata).toMatchObject({ admin_note: "keep", catalog_id: "<tag>" })
    expect(bulk.images.map((i: any) => [i.url, i.rank])).toEqual([
      ["http://img/1.png", 0],
      ["http://img/new.png", 1],
    ])
    // The removed image's row: gone on both (the snapshot holds soft-deleted rows too).
    expect(out.fieldsDeletedImages).toEqual({ workflow: 0, bulk: 0 })
    expect(bulk.categories).toEqual([out.fieldsOtherCategory])
    expect(bulk.variants.map((v: any) => v.priceSets[0].prices.map((p: any) => p.amount))).toEqual([["1111.5"], ["2222"]])
    expect(bulk.variants.map((v: any) => v.items[0].levels[0].stocked_quantity)).toEqual(["5", "9"])
    expect(out.fieldsOutcome.rest).toBe(0)
    expect(out.fieldsOutcome.written).toHaveLength(1)
  })

  it("emits the shop's own edits' events for a field, price and stock change, on both the update workflow and the bulk path", () => {
    // updateProductsWorkflow's product.updated, updateProductVariantsWorkflow's product-variant.updated per repriced
    // variant, batchInventoryItemLevelsWorkflow's inventory-level.updated per level changed.
    const expected = ["inventory-level.updated", "inventory-level.updated", "product-variant.updated", "product-variant.updated", "product.updated"]
    expect(names(out.fieldsWorkflowEvents)).toEqual(expected)
    expect(names(out.fieldsBulkEvents)).toEqual(expected)
    expect(out.fieldsBulkEvents.filter((e: Event) => e.name === "product.updated")).toEqual([{ name: "product.updated", id: out.fieldsOutcome.bulkId }])
  })

  it("rolls a field change back whole when its handle is taken, and emits nothing", () => {
    expect(out.fieldsClash).not.toBe("written")
    expect(out.fieldsClashTitle).toBe("Кеди 900000000000000002")
    expect(out.fieldsClashEvents).toEqual([])
  })

  it("changes a product's sizes exactly as the core-flows writer, table by table (but for the inventory items' labels): a size removed, one added, one that left and comes back, one that loses its price", () => {
    const [removedAdded, cameBack] = out.sizes
    for (const step of out.sizes) {
      expect(step.rest).toBe(0)
      expect(withoutItemLabels(step.bulk)).toEqual(withoutItemLabels(step.workflow))
    }
    // Not vacuous: 43 left (its variant, price set, price, item, level and links soft-deleted), 41 came first. Its value
    // is gone for good, with the deleted variant's option row: a value joining the option replaces the option's values.
    const sizesOf = (s: any) => s.variants.map((v: any) => [v.variant.metadata.catalog_size, v.variant.variant_rank, v.variant.deleted_at])
    expect(sizesOf(removedAdded.bulk)).toEqual([
      ["41", 0, null],
      ["42", 1, null],
      ["43", 1, "<deleted>"],
    ])
    const gone = removedAdded.bulk.variants[2]
    expect(gone.priceSets[0]).toMatchObject({ link: { deleted_at: "<deleted>" }, set: { deleted_at: "<deleted>" }, prices: [{ deleted_at: "<deleted>" }] })
    expect(gone.items[0]).toMatchObject({ link: { deleted_at: "<deleted>" }, item: { deleted_at: "<deleted>" }, levels: [{ deleted_at: "<deleted>" }] })
    expect(removedAdded.bulk.options[0].values.map((v: any) => [v.value, v.deleted_at])).toEqual([
      ["41", null],
      ["42", null],
    ])
    expect(gone.optionValues).toEqual([])
    expect(removedAdded.bulk.options[0].productOptionValues.map((v: any) => v._value)).toEqual(["41", "42"])
    expect(removedAdded.bulk.variants.slice(0, 2).map((v: any) => v.priceSets[0].prices.length)).toEqual([1, 1])
    expect(removedAdded.bulk.variants.slice(0, 2).map((v: any) => v.items[0].levels[0].stocked_quantity)).toEqual(["4", "1"])
    // 43 came back: a fresh value and variant beside the deleted one, and the new title.
    expect(sizesOf(cameBack.bulk)).toEqual([
      ["41", 0, null],
      ["42", 1, null],
      ["43", 1, "<deleted>"],
      ["43", 2, null],
    ])
    expect(cameBack.bulk.options[0].values.map((v: any) => [v.value, v.deleted_at])).toEqual([
      ["41", null],
      ["42", null],
      ["43", null],
    ])
    expect(cameBack.bulk.variants[3].optionValues).toEqual([{ title: "Розмір", value: "43", belongs_to_product: true }])
    expect(cameBack.bulk.product.title).toBe("Кеди <tag>")
    expect(cameBack.bulk.variants.map((v: any) => v.priceSets[0].prices.length)).toEqual([1, 0, 1, 1])
  })

  it("tells the page the variant and inventory item of each size after a size change, as the update workflow does", () => {
    for (const step of out.sizes) {
      for (const way of ["workflow", "bulk"]) {
        expect(step.told[way]).toEqual(step.truth[way])
        expect(Object.keys(step.told[way]).sort()).toEqual(Object.keys(step.truth.workflow).sort())
      }
    }
    expect(Object.keys(out.sizes[1].told.bulk).sort()).toEqual(["41", "42", "43"])
  })

  it("emits the shop's own variant edits' events for a size change on both the update workflow and the bulk path (docs/events.md)", () => {
    const [removedAdded, cameBack] = out.sizes
    for (const step of out.sizes) expect(names(step.bulkEvents)).toEqual(names(step.workflowEvents))
    // 43 leaves, 41 comes first (42 moves down a rank, its price and stock change): deleteProductVariantsWorkflow's,
    // createProductVariantsWorkflow's (with its item) and its level's events, updateProductVariantsWorkflow's for 42,
    // one level updated; no product.updated (no field changed).
    expect(names(removedAdded.bulkEvents)).toEqual([
      "inventory-item.created",
      "inventory-item.deleted",
      "inventory-level.created",
      "inventory-level.updated",
      "product-variant.created",
      "product-variant.deleted",
      "product-variant.updated",
    ])
    // 43 comes back as a new size and the title changes (product.updated, marked, once); 42 loses its price.
    expect(names(cameBack.bulkEvents)).toEqual([
      "inventory-item.created",
      "inventory-level.created",
      "product-variant.created",
      "product-variant.updated",
      "product.updated",
    ])
    expect(cameBack.bulkEvents.filter((e: Event) => e.name === "product.updated")).toEqual([{ name: "product.updated", id: cameBack.ids.bulk }])
  })

  it("reads back through Medusa's query API the same as Medusa's own product", () => {
    expect(out.readCreated.bulk).toEqual(out.readCreated.medusa)
    expect(out.readCreated.bulk.variants[0].calculated_price.calculated_amount).toBe(1300.5)
    expect(out.readCreated.bulk.variants[2].inventory_items[0].inventory.location_levels[0].stocked_quantity).toBe(12)
  })

  it("updates stock levels only, as batchInventoryItemLevelsWorkflow", () => {
    expect(out.stock.bulk).toEqual(out.stock.medusa)
    expect(out.stock.bulk.variants.map((v: any) => v.items[0].levels[0].raw_stocked_quantity.value)).toEqual(["7", "0", "40", "1"])
  })

  it("updates base prices in place, as the pricing module's price set upsert", () => {
    expect(out.prices.bulk).toEqual(out.prices.medusa)
    expect(out.prices.bulk.variants.map((v: any) => v.priceSets[0].prices.map((p: any) => p.amount))).toEqual([["1250"], ["1400"], ["1099.9"], []])
  })

  it("switches the crossed-out price on, moves it (the page's sale-price sync: update, delete and create in one call) and off as batchPriceListPricesWorkflow, and the storefront price follows", () => {
    expect(out.saleOn.bulk).toEqual(out.saleOn.medusa)
    expect(out.readSaleOn.bulk).toEqual(out.readSaleOn.medusa)
    const [first, , third] = out.readSaleOn.bulk.variants
    expect(first.calculated_price).toMatchObject({ calculated_amount: 999, original_amount: 1250, is_calculated_price_price_list: true })
    expect(third.calculated_price).toMatchObject({ calculated_amount: 1099.9, is_calculated_price_price_list: false })
    expect(out.saleMoved.bulk).toEqual(out.saleMoved.medusa)
    expect(out.readSaleMoved.bulk).toEqual(out.readSaleMoved.medusa)
    expect(out.readSaleMoved.bulk.variants.map((v: any) => v.calculated_price?.calculated_amount ?? null)).toEqual([989.5, 1400, 1000, null])
    expect(out.saleMovedAgain).toEqual({ created: 0, updated: 0, deleted: 0 })
    expect(out.saleOff.bulk).toEqual(out.saleOff.medusa)
    expect(out.readSaleOff.bulk).toEqual(out.readSaleOff.medusa)
    expect(out.readSaleOff.bulk.variants[0].calculated_price).toMatchObject({ calculated_amount: 1250, is_calculated_price_price_list: false })
  })

  it("soft-deletes exactly what deleteProductsWorkflow soft-deletes", () => {
    expect(out.removed.bulk).toEqual(out.removed.medusa)
    expect(out.removed.bulk.product.deleted_at).toBe("<deleted>")
    expect(out.removed.bulk.variants.every((v: any) => v.items[0].levels[0].deleted_at === "<deleted>")).toBe(true)
    expect(out.liveAfterRemoval).toEqual([])
  })

  it("writes a page all or nothing: a failure rolls back every write and emits no event", () => {
    expect(out.rollbackError).toBe("page failed after its writes")
    expect(out.rollbackRows).toBe(0)
    expect(out.rollbackStock).toBe("7")
    expect(out.rollbackEvents).toEqual([])
  })

  it("reads a variant's price set and base price with the variants as setBasePrices reads them, an empty set included", () => {
    const { separately, withVariants } = out.basePriceReads
    expect(withVariants).toEqual(separately)
    expect(withVariants).toHaveLength(4)
    // Three priced variants and one whose set has no price (Medusa's prices: []).
    expect(withVariants.filter((r: any) => r.price_id && r.amount)).toHaveLength(3)
    expect(withVariants.filter((r: any) => r.price_id === null && r.amount === null && r.price_set_id)).toHaveLength(1)
    // A base price stored with rules_count null is still the base price, for both.
    expect(out.basePriceReadsNullRules.withVariants).toEqual(out.basePriceReadsNullRules.separately)
    expect(out.basePriceReadsNullRules.withVariants.filter((r: any) => r.price_id)).toHaveLength(3)
  })

  it("reaches a variant's prices through its price set's index, even on a shop without statistics full of prices in its currency", () => {
    // Planned without statistics, a currency filter beside the set's id made the planner walk every
    // price of the currency for each variant (8 s a page on a 10,000-product shop), and the delete's
    // `price_list_id is null` every base price: this setup makes the former statements do so.
    expect(out.priceReadPlans.formerWithVariants).not.toContain("IDX_price_price_set_id")
    expect(out.priceReadPlans.formerRemoveBase).not.toContain("IDX_price_price_set_id")
    expect(out.priceReadPlans.withVariants).toEqual(["IDX_price_price_set_id"])
    expect(out.priceReadPlans.ofSets).toEqual(["IDX_price_price_set_id"])
    // The delete of a size's base price too (a size the catalog no longer prices): by its set's index, then by id.
    expect(out.priceReadPlans.removeBase).toEqual(["IDX_price_price_set_id", "price_pkey"])
  })

  it("finds a product's size option through the product's own option joins, even on a shop without statistics where every product has its own size option", () => {
    // Joined plainly, the former read matched the title against every option of that title.
    expect(out.sizeOptionPlans.former).not.toEqual(["IDX_product_product_option_product_id", "product_option_pkey"])
    expect(out.sizeOptionPlans.now).toEqual(["IDX_product_product_option_product_id", "product_option_pkey"])
  })

  it("commits a page without waiting for its WAL flush, and only the page's transaction", () => {
    expect(out.syncCommit).toEqual({ before: "on", inPage: "off", after: "on", otherTransaction: "on" })
  })

  it("emits the events Medusa's workflows emit: one per created, updated and deleted product", () => {
    const { bulk: bulkId } = out.ids
    expect(names(out.bulkCreateEvents)).toEqual(names(out.medusaCreateEvents))
    expect(out.bulkCreateEvents.filter((e: Event) => e.name === "product.created")).toEqual([{ name: "product.created", id: bulkId }])
    expect(
      out.bulkCreateEvents
        .filter((e: Event) => e.name === "inventory-level.created")
        .map((e: Event) => e.id)
        .sort()
    ).toEqual(out.bulkCreated.variants.map((v: any) => v.inventoryLevelId).sort())
    expect(names(out.bulkStockEvents)).toEqual(names(out.medusaStockEvents))
    // updateProductVariantsWorkflow's event (the shop's variant price edit): one per variant whose price changed.
    expect(out.bulkPriceChangedVariants.length).toBeGreaterThan(0)
    expect(names(out.bulkPriceEvents)).toEqual(out.bulkPriceChangedVariants.map(() => "product-variant.updated"))
    expect(out.bulkPriceEvents.map((e: Event) => e.id).sort()).toEqual(out.bulkPriceChangedVariants)
    expect(names(out.bulkRemoveEvents)).toEqual(names(out.medusaRemoveEvents))
    expect(out.bulkRemoveEvents.filter((e: Event) => e.name === "product.deleted")).toEqual([{ name: "product.deleted", id: bulkId }])
  })
})
