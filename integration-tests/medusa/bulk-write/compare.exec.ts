// Run inside the demo app with `medusa exec` (the app's own container and database): the
// same input is written once by Medusa's workflows and module services and once by the bulk
// writer, and both products' rows, read-backs and events are saved to a JSON file for the
// spec to compare. Usage: medusa exec compare.exec.ts <out.json>
import fs from "node:fs"
import { CURRENCY, setUpShop } from "./app-setup"
import { ContainerRegistrationKeys, Modules, QueryContext } from "@medusajs/framework/utils"
import {
  batchInventoryItemLevelsWorkflow,
  batchPriceListPricesWorkflow,
  createInventoryLevelsWorkflow,
  createPriceListsWorkflow,
  createProductCategoriesWorkflow,
  createProductsWorkflow,
  deleteProductsWorkflow,
} from "@medusajs/medusa/core-flows"
import { BULK_EVENTS, writePageInBulk, type BulkProduct } from "../../../src/bulk-write"
import { card } from "../../../src/sync/__tests__/card-fixtures"
import { mapCardToProduct, stockOf as cardStock } from "../../../src/sync/map-card"
import { createProductsThroughCoreFlowsWorkflow } from "../../../src/workflows/create-products-through-core-flows"
import { updateProductsThroughCoreFlowsWorkflow } from "../../../src/workflows/update-products-through-core-flows"
import type { CreatedProduct, ProductToCreate, ProductToUpdate } from "../../../src/workflows/page-input"
import { writeFieldsInBulk } from "../../../src/workflows/page/write-fields-in-bulk"
import { writeSizesInBulk } from "../../../src/workflows/page/write-sizes-in-bulk"
import { readLivePricedVariants } from "../../../src/workflows/page/write-prices-in-bulk"
import { basePriceRowsOf } from "../../../src/workflows/page/price-only-changes"
import { basePricesOf, removeBasePrices } from "../../../src/bulk-write/update-prices"
import { livePricesOfSets } from "../../../src/bulk-write/sql"
import { normalizedDecimal } from "../../../src/bulk-write/amounts"
import { sizeOptions } from "../../../src/bulk-write/change-sizes"
import { createInOneTransaction } from "../../../src/workflows/page/new-products-in-bulk"
import { productSnapshot } from "./row-snapshot"

const WATCHED = Object.values(BULK_EVENTS)

function input(tag: string, categoryId: string): BulkProduct {
  return {
    title: `Кросівки ${tag}`,
    handle: `krosivky-${tag}`,
    status: "published",
    external_id: `ext-${tag}`,
    description: "Опис",
    thumbnail: `https://img.example/${tag}/1.jpg`,
    metadata: { catalog_sku: `SKU-${tag}`, nested: { a: [1, 2] } },
    images: [1, 2, 3].map((i) => `https://img.example/${tag}/${i}.jpg`),
    categoryIds: [categoryId],
    options: [{ title: "Розмір", values: ["41", "42", "43", "44"] }],
    variants: [
      { title: "41", sku: `${tag}-41`, options: { Розмір: "41" }, amount: "1300.50", stock: 3 },
      { title: "42", sku: `${tag}-42`, options: { Розмір: "42" }, amount: "1400", stock: 0 },
      { title: "43", sku: `${tag}-43`, options: { Розмір: "43" }, amount: "999.99", stock: 12 },
      // No price in the catalog: an empty price set.
      { title: "44", sku: `${tag}-44`, options: { Розмір: "44" }, amount: null, stock: 1 },
    ],
  }
}

export default async function compare({ container, args }: { container: any; args: string[] }) {
  const out: Record<string, any> = {}
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const eventBus = container.resolve(Modules.EVENT_BUS)
  let events: { name: string; id: string }[] = []
  for (const name of WATCHED) {
    eventBus.subscribe(
      name,
      async (msg: any) => {
        events.push({ name, id: msg?.data?.id })
      },
      { subscriberId: `bulk-write-compare-${name}` }
    )
  }
  const settle = async () => {
    await new Promise((r) => setTimeout(r, 500))
    const got = events
    events = []
    return got
  }

  const { location, category, placement } = await setUpShop(container)
  out.placement = placement

  // ── create ────────────────────────────────────────────────────────────────
  const m = input("mdx", category.id)
  await settle()
  const {
    result: [mProduct],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: m.title,
          handle: m.handle,
          status: m.status,
          external_id: m.external_id,
          description: m.description,
          thumbnail: m.thumbnail,
          metadata: m.metadata,
          images: m.images.map((url) => ({ url })),
          category_ids: m.categoryIds,
          sales_channels: [{ id: placement.salesChannelId }],
          ...(placement.shippingProfileId ? { shipping_profile_id: placement.shippingProfileId } : {}),
          options: m.options.map((o) => ({ title: o.title, values: o.values })),
          variants: m.variants.map((v, i) => ({
            title: v.title,
            sku: v.sku,
            variant_rank: i,
            manage_inventory: true,
            options: v.options,
            prices: v.amount === null ? [] : [{ amount: v.amount as unknown as number, currency_code: CURRENCY }],
          })),
        },
      ],
    } as any,
  })
  const { data: mLinks } = await query.graph({
    entity: "product_variant_inventory_item",
    fields: ["variant_id", "inventory_item_id"],
    filters: { variant_id: mProduct.variants.map((v: any) => v.id) },
  })
  const stockOf = new Map(m.variants.map((v) => [v.sku, v.stock]))
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: mLinks.map((l: any) => ({
        inventory_item_id: l.inventory_item_id,
        location_id: location.id,
        stocked_quantity: stockOf.get(mProduct.variants.find((v: any) => v.id === l.variant_id)!.sku as string) ?? 0,
      })),
    },
  })
  out.medusaCreateEvents = await settle()

  const b = input("blk", category.id)
  const [bCreated] = await writePageInBulk(container, (page) => page.createProducts([b], placement))
  out.bulkCreateEvents = await settle()
  out.bulkCreated = bCreated
  const mId = mProduct.id
  const bId = bCreated.productId
  out.ids = { medusa: mId, bulk: bId }
  out.created = { medusa: await productSnapshot(pg, mId, "mdx"), bulk: await productSnapshot(pg, bId, "blk") }

  const readBack = async (id: string, tag: string) => {
    const {
      data: [p],
    } = await query.graph({
      entity: "product",
      fields: [
        "title",
        "handle",
        "status",
        "thumbnail",
        "images.url",
        "images.rank",
        "categories.id",
        "sales_channels.id",
        "options.title",
        "options.values.value",
        "variants.title",
        "variants.sku",
        "variants.variant_rank",
        "variants.manage_inventory",
        "variants.options.value",
        "variants.prices.amount",
        "variants.prices.currency_code",
        "variants.inventory_items.required_quantity",
        "variants.inventory_items.inventory.sku",
        "variants.inventory_items.inventory.location_levels.stocked_quantity",
        "variants.inventory_items.inventory.location_levels.location_id",
        "variants.calculated_price.calculated_amount",
        "variants.calculated_price.original_amount",
        "variants.calculated_price.is_calculated_price_price_list",
      ],
      filters: { id },
      context: { variants: { calculated_price: QueryContext({ currency_code: CURRENCY }) } },
    })
    const text = JSON.stringify(p, (k, v) => (k === "id" || (k.endsWith("_id") && typeof v === "string" && /^[a-z]+_[0-9A-Z]{26}$/.test(v)) ? undefined : v))
      .split(tag)
      .join("<tag>")
    const sorted = JSON.parse(text)
    sorted.images?.sort((a: any, b: any) => a.rank - b.rank)
    sorted.variants?.sort((a: any, b: any) => a.variant_rank - b.variant_rank)
    for (const o of sorted.options ?? []) o.values?.sort((a: any, b: any) => a.value.localeCompare(b.value))
    return sorted
  }
  out.readCreated = { medusa: await readBack(mId, "mdx"), bulk: await readBack(bId, "blk") }

  const variantsOf = async (id: string) =>
    (await pg.raw("select id, sku, variant_rank from product_variant where product_id = ? and deleted_at is null order by variant_rank", [id])).rows
  const itemsOf = async (id: string) =>
    (
      await pg.raw(
        `select l.inventory_item_id from product_variant_inventory_item l join product_variant v on v.id = l.variant_id
          where v.product_id = ? and l.deleted_at is null order by v.variant_rank`,
        [id]
      )
    ).rows.map((r: any) => r.inventory_item_id)

  // ── a catalog product: the core-flows writer (the bulk writer's one-by-one way) vs the bulk writer ──
  // The catalog ids are the tags, so handles, SKUs and metadata compare equal.
  const catalogProduct = (id: string): ProductToCreate => {
    const c = card({ id, sku: `PLG-${id}`, weight_kg: "1.2" })
    const mapped = mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: placement.salesChannelId })
    return { catalogId: id, input: { ...mapped, categoryIds: [category.id] }, stock: cardStock(c) }
  }
  const [WF, BK] = ["900000000000000001", "900000000000000002"]
  const {
    result: [wfCreated],
  } = await createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [catalogProduct(WF)], placement } })
  const bkOutcome = await createInOneTransaction(container, [catalogProduct(BK)], placement)
  if (!("created" in bkOutcome)) throw bkOutcome.rolledBack
  const [bkCreated] = bkOutcome.created
  out.pluginCreated = { workflow: await productSnapshot(pg, wfCreated.productId, WF), bulk: await productSnapshot(pg, bkCreated.productId, BK) }
  const idsBySize = async (r: typeof wfCreated) => {
    const variants = (await pg.raw("select id, metadata->>'catalog_size' as size from product_variant where product_id = ?", [r.productId])).rows
    const items = (
      await pg.raw("select variant_id, inventory_item_id from product_variant_inventory_item where variant_id = any(?)", [variants.map((v: any) => v.id)])
    ).rows
    const truth = Object.fromEntries(
      variants.map((v: any) => [v.size, { variant: v.id, item: items.find((i: any) => i.variant_id === v.id)?.inventory_item_id }])
    )
    const told = Object.fromEntries(Object.keys(r.variantIds).map((k) => [k, { variant: r.variantIds[k], item: r.inventoryItemIds[k] }]))
    return { truth, told }
  }
  out.pluginResult = { workflow: await idsBySize(wfCreated), bulk: await idsBySize(bkCreated) }
  await settle()

  // ── a catalog product's fields (and prices, stock) changed, its sizes not: the core-flows
  // writer's update vs the bulk writer. New title and description, the first image removed,
  // one added, the kept one moved to the front (so the thumbnail follows), moved to another
  // category, new prices; an admin's metadata key stays (metadata is merged).
  const {
    result: [otherCategory],
  } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: [{ name: "Одяг", is_active: true }] },
  })
  out.fieldsOtherCategory = otherCategory.id
  for (const id of [wfCreated.productId, bkCreated.productId]) {
    await pg.raw(`update product set metadata = metadata || '{"admin_note": "keep"}'::jsonb where id = ?`, [id])
  }
  const changedProduct = (id: string, created: typeof wfCreated): ProductToUpdate => {
    const { input, stock } = catalogProduct(id)
    return {
      catalogId: id,
      productId: created.productId,
      input: {
        ...input,
        title: `Кеди ${id}`,
        description: `Новий опис ${id}`,
        images: [{ url: "http://img/1.png" }, { url: "http://img/new.png" }],
        thumbnail: "http://img/1.png",
        categoryIds: [otherCategory.id],
        variants: input.variants.map((v, i) => ({ ...v, amount: ["1111.5", "2222"][i] ?? v.amount })),
      },
      stock: Object.fromEntries(Object.keys(stock).map((k, i) => [k, [5, 9][i] ?? 0])),
      variantIds: created.variantIds,
      inventoryItemIds: created.inventoryItemIds,
      partsToWrite: { fields: true, variants: false, prices: true },
    }
  }
  await settle()
  await updateProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [changedProduct(WF, wfCreated)], placement } })
  out.fieldsWorkflowEvents = await settle()
  const fieldsOutcome = await writeFieldsInBulk(container, [changedProduct(BK, bkCreated)], placement)
  out.fieldsBulkEvents = await settle()
  out.fieldsOutcome = { written: fieldsOutcome.written.map((w) => w.result), rest: fieldsOutcome.rest.length, bulkId: bkCreated.productId }
  out.fieldsUpdated = { workflow: await productSnapshot(pg, wfCreated.productId, WF), bulk: await productSnapshot(pg, bkCreated.productId, BK) }
  out.fieldsDeletedImages = {
    workflow: (await pg.raw("select count(*)::int as n from image where product_id = ? and url = 'http://img/0.png'", [wfCreated.productId])).rows[0].n,
    bulk: (await pg.raw("select count(*)::int as n from image where product_id = ? and url = 'http://img/0.png'", [bkCreated.productId])).rows[0].n,
  }
  // A handle another product holds: the transaction rolls back, nothing of it stays.
  const clash = changedProduct(BK, bkCreated)
  clash.input = {
    ...clash.input,
    title: "Не записано",
    handle: (await pg.raw("select handle from product where id = ?", [wfCreated.productId])).rows[0].handle,
  }
  out.fieldsClash = await writeFieldsInBulk(container, [clash], placement).then(
    () => "written",
    (e: Error) => e.message
  )
  out.fieldsClashTitle = (await pg.raw("select title from product where id = ?", [bkCreated.productId])).rows[0].title
  out.fieldsClashEvents = await settle()

  // ── a catalog product's sizes changed: the core-flows writer's update vs the bulk size path.
  // First 43 leaves and 41 comes first in size order (42's rank moves), with new prices and
  // stock; then 43 comes back (the churn case: a fresh value, variant, price set and item) with a
  // new title (product fields too), and 42 loses its price (the catalog no longer prices it). Both products are made by the workflow, so only the update differs.
  const [WS, BS] = ["900000000000000003", "900000000000000004"]
  type Size = { size: string; stock: number; cost_price: string; price: string | null }
  const size = (s: string, stock: number, price: string | null): Size => ({ size: s, stock, cost_price: "1000.00", price })
  const sizedProduct = (id: string, sizes: Size[], name?: string): ProductToCreate => {
    const c = card({ id, sku: `PLG-${id}`, weight_kg: "1.2", sizes, ...(name ? { name, name_uk: name } : {}) })
    const mapped = mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: placement.salesChannelId })
    return { catalogId: id, input: { ...mapped, categoryIds: [category.id] }, stock: cardStock(c) }
  }
  const sizeChange = (id: string, was: CreatedProduct, sizes: Size[], fields: boolean): ProductToUpdate => ({
    ...sizedProduct(id, sizes, fields ? `Кеди ${id}` : undefined),
    productId: was.productId,
    variantIds: was.variantIds,
    inventoryItemIds: was.inventoryItemIds,
    partsToWrite: { fields, variants: true, prices: true },
  })
  const liveIdsBySize = async (productId: string) => {
    const { rows } = await pg.raw(
      `select v.metadata->>'catalog_size' as size, v.id, l.inventory_item_id from product_variant v
         left join product_variant_inventory_item l on l.variant_id = v.id and l.deleted_at is null
        where v.product_id = ? and v.deleted_at is null`,
      [productId]
    )
    return Object.fromEntries(rows.map((r: any) => [r.size, { variant: r.id, item: r.inventory_item_id }]))
  }
  const told = (r: CreatedProduct) => Object.fromEntries(Object.keys(r.variantIds).map((k) => [k, { variant: r.variantIds[k], item: r.inventoryItemIds[k] }]))
  const [first, second] = [
    [size("41", 4, "1500.00"), size("42", 1, "1290.00")],
    [size("41", 4, "1500.00"), size("42", 1, null), size("43", 6, "1310.00")],
  ]
  const start = [size("42", 3, "1287.00"), size("43", 2, "1300.10")]
  let {
    result: [wsWas],
  } = await createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [sizedProduct(WS, start)], placement } })
  let {
    result: [bsWas],
  } = await createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [sizedProduct(BS, start)], placement } })
  out.sizes = []
  for (const [sizes, fields] of [
    [first, false],
    [second, true],
  ] as [Size[], boolean][]) {
    await settle()
    const {
      result: [wsNow],
    } = await updateProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [sizeChange(WS, wsWas, sizes, fields)], placement } })
    const workflowEvents = await settle()
    const outcome = await writeSizesInBulk(container, [sizeChange(BS, bsWas, sizes, fields)], placement)
    const bulkEvents = await settle()
    const [bsNow] = outcome.written.map((w) => w.result)
    out.sizes.push({
      workflow: await productSnapshot(pg, wsWas.productId, WS),
      bulk: await productSnapshot(pg, bsWas.productId, BS),
      rest: outcome.rest.length,
      told: { workflow: told(wsNow), bulk: bsNow && told(bsNow) },
      truth: { workflow: await liveIdsBySize(wsWas.productId), bulk: await liveIdsBySize(bsWas.productId) },
      workflowEvents,
      bulkEvents,
      ids: { workflow: wsWas.productId, bulk: bsWas.productId },
    })
    ;[wsWas, bsWas] = [wsNow, bsNow ?? bsWas]
  }

  // ── stock-only ───────────────────────────────────────────────────────────
  const newStock = [7, 0, 40, 1] // 3 → 7, 0 stays, 12 → 40, 1 stays
  const mItems = await itemsOf(mId)
  await batchInventoryItemLevelsWorkflow(container).run({
    input: {
      update: mItems
        .map((item: string, i: number) => ({ inventory_item_id: item, location_id: location.id, stocked_quantity: newStock[i] }))
        .filter((_: unknown, i: number) => i !== 1 && i !== 3),
      create: [],
      delete: [],
    },
  })
  out.medusaStockEvents = await settle()
  const bItems = await itemsOf(bId)
  await writePageInBulk(container, (page) =>
    page.setStock(
      bItems.map((item: string, i: number) => ({ inventoryItemId: item, quantity: newStock[i] })),
      location.id
    )
  )
  out.bulkStockEvents = await settle()
  out.stock = { medusa: await productSnapshot(pg, mId, "mdx"), bulk: await productSnapshot(pg, bId, "blk") }

  // ── price-only ───────────────────────────────────────────────────────────
  const newPrices = ["1250.00", "1400", "1099.9"]
  const pricing = container.resolve(Modules.PRICING)
  // The unpriced fourth variant keeps no price on both paths.
  const mVariants = (await variantsOf(mId)).slice(0, 3)
  const { data: mSets } = await query.graph({
    entity: "product_variant_price_set",
    fields: ["variant_id", "price_set_id"],
    filters: { variant_id: mVariants.map((v: any) => v.id) },
  })
  // What the plugin's update path does today: upsert each price set with exactly the new price.
  await pricing.upsertPriceSets(
    mVariants.map((v: any, i: number) => ({
      id: mSets.find((s: any) => s.variant_id === v.id).price_set_id,
      prices: [{ amount: newPrices[i] as unknown as number, currency_code: CURRENCY }],
    }))
  )
  const bVariants = (await variantsOf(bId)).slice(0, 3)
  await settle()
  // As a price-only page writes them: the price sets and base prices read with the variants (readLivePricedVariants), not again.
  const byRow = (a: any, b: any) => a.variant_id.localeCompare(b.variant_id)
  out.basePriceReads = await writePageInBulk(container, async (page) => ({
    separately: (
      await basePricesOf(
        page.trx,
        (await variantsOf(bId)).map((v: any) => v.id),
        CURRENCY
      )
    ).sort(byRow),
    withVariants: basePriceRowsOf(await readLivePricedVariants(page.trx, [bId], CURRENCY)).sort(byRow),
  }))
  // A base price whose rules_count is null (the column allows it) counts as one without rules, for both reads (rolled back after).
  out.basePriceReadsNullRules = await inRolledBackTransaction(pg, async (trx) => {
    await trx.raw(
      "update price set rules_count = null where price_set_id in (select price_set_id from product_variant_price_set where variant_id = any(?::text[]))",
      [bVariants.map((v: any) => v.id)]
    )
    return {
      separately: (
        await basePricesOf(
          trx,
          bVariants.map((v: any) => v.id),
          CURRENCY
        )
      ).sort(byRow),
      withVariants: basePriceRowsOf(await readLivePricedVariants(trx, [bId], CURRENCY))
        .filter((r) => bVariants.some((v: any) => v.id === r.variant_id))
        .sort(byRow),
    }
  })
  // How the reads reach the price table on a shop without statistics (before its first analyze,
  // or with autovacuum off), with many prices of the shop's currency: each read's statement is
  // planned (EXPLAIN, not run) in a rolled-back transaction where the table's statistics are gone.
  out.priceReadPlans = await inRolledBackTransaction(pg, async (trx) => {
    const [{ price_set_id: setId }] = (await trx.raw("select price_set_id from product_variant_price_set where variant_id = ?", [bVariants[0].id])).rows
    await trx.raw(
      `insert into price (id, price_set_id, currency_code, raw_amount, amount, rules_count)
       select 'price_plan_' || g, ?, ?, '{"value":"1","precision":20}', 1, 0 from generate_series(1, 20000) g`,
      [setId, CURRENCY]
    )
    await forgetStatistics(trx, ["price"])
    const price = ["price"]
    return {
      // The statements before offset 0 fenced the set's prices off, kept here to show that this
      // setup reproduces what they did.
      formerWithVariants: await tableAccessOf(trx, price, (explaining) =>
        explaining.raw(
          `select bp.id from unnest(?::text[]) as x(id)
             left join lateral (select p.id from price p
               where p.price_set_id = x.id and p.deleted_at is null and p.price_list_id is null and p.currency_code = ? and coalesce(p.rules_count, 0) = 0
               order by p.created_at desc, p.id desc limit 1) bp on true`,
          [[setId], CURRENCY]
        )
      ),
      formerRemoveBase: await tableAccessOf(trx, price, (explaining) =>
        explaining.raw(
          `delete from price p using product_variant_price_set l, product_variant v, price_set s
            where l.variant_id = any(?) and l.deleted_at is null and v.id = l.variant_id and v.deleted_at is null
              and s.id = l.price_set_id and s.deleted_at is null
              and p.price_set_id = l.price_set_id and p.price_list_id is null and p.deleted_at is null
            returning p.id, v.product_id`,
          [bVariants.map((v: any) => v.id)]
        )
      ),
      withVariants: await tableAccessOf(trx, price, (explaining) => readLivePricedVariants(explaining, [bId], CURRENCY)),
      ofSets: await tableAccessOf(trx, price, (explaining) => livePricesOfSets(explaining, [setId])),
      removeBase: await tableAccessOf(trx, price, (explaining) =>
        removeBasePrices(
          explaining,
          bVariants.map((v: any) => v.id)
        )
      ),
    }
  })
  // The size option read, planned the same way on a shop with many products' own size options
  // (each product has its own "Розмір") and no statistics for the option tables.
  out.sizeOptionPlans = await inRolledBackTransaction(pg, async (trx) => {
    await trx.raw(`insert into product_option (id, title, is_exclusive) select 'opt_plan_' || g, 'Розмір', true from generate_series(1, 20000) g`)
    // Their products' joins (all on the other product here: only the tables' sizes matter to the planner).
    await trx.raw(
      `insert into product_product_option (id, product_id, product_option_id) select 'prodopt_plan_' || g, ?, 'opt_plan_' || g from generate_series(1, 20000) g`,
      [mId]
    )
    const tables = ["product_option", "product_product_option"]
    await forgetStatistics(trx, tables)
    // A page's worth of size changes (the planner weighs how many products it looks up).
    const productIds = [bId, ...Array.from({ length: 39 }, (_, i) => `prod_plan_${i}`)]
    return {
      former: await tableAccessOf(trx, tables, (explaining) =>
        explaining.raw(
          `select c.product_id, ppo.id, o.id from unnest(?::text[], ?::text[]) as c(product_id, title)
             join product_product_option ppo on ppo.product_id = c.product_id and ppo.deleted_at is null
             join product_option o on o.id = ppo.product_option_id and o.deleted_at is null and o.title = c.title`,
          [productIds, productIds.map(() => "Розмір")]
        )
      ),
      // Planned only: with no rows back it reports the product's option missing.
      now: await tableAccessOf(trx, tables, (explaining) =>
        sizeOptions(
          explaining,
          productIds.map((productId) => ({ productId, optionTitle: "Розмір" }) as any)
        ).catch(() => undefined)
      ),
    }
  })
  // The variants whose base price the write changes (a new amount, or a first price): each one product-variant.updated.
  const priceBefore = new Map<string, string | null>(out.basePriceReads.separately.map((r: any) => [r.variant_id, r.amount as string | null]))
  out.bulkPriceChangedVariants = bVariants
    .filter((v: any, i: number) => {
      const was = priceBefore.get(v.id)
      return was == null || normalizedDecimal(was) !== normalizedDecimal(newPrices[i])
    })
    .map((v: any) => v.id)
    .sort()
  await writePageInBulk(container, async (page) => {
    const known = basePriceRowsOf(await readLivePricedVariants(page.trx, [bId], CURRENCY))
    await page.setBasePrices(
      bVariants.map((v: any, i: number) => ({ variantId: v.id, amount: newPrices[i] })),
      CURRENCY,
      known
    )
  })
  out.bulkPriceEvents = await settle()
  out.prices = { medusa: await productSnapshot(pg, mId, "mdx"), bulk: await productSnapshot(pg, bId, "blk") }

  // ── sale price list ──────────────────────────────────────────────────────
  const {
    result: [list],
  } = await createPriceListsWorkflow(container).run({
    input: { price_lists_data: [{ title: "Sale", description: "sale", status: "active", type: "sale", prices: [] } as any] },
  })
  const sale = ["999", "1100.5", null]
  await batchPriceListPricesWorkflow(container).run({
    input: {
      data: {
        id: list.id,
        create: mVariants
          .map((v: any, i: number) => ({ variant_id: v.id, amount: sale[i] as unknown as number, currency_code: CURRENCY }))
          .filter((_: unknown, i: number) => sale[i] !== null),
        update: [],
        delete: [],
      },
    },
  })
  await writePageInBulk(container, (page) =>
    page.setSalePrices(
      list.id,
      bVariants.map((v: any, i: number) => ({ variantId: v.id, amount: sale[i]! })).filter((_: unknown, i: number) => sale[i] !== null),
      CURRENCY
    )
  )
  out.saleOn = { medusa: await productSnapshot(pg, mId, "mdx"), bulk: await productSnapshot(pg, bId, "blk") }
  out.readSaleOn = { medusa: await readBack(mId, "mdx"), bulk: await readBack(bId, "blk") }

  // ── the page's sale-price sync: one variant's sale price moves, one goes, one comes, in one call ──
  const listPriceIds = async (variants: any[]) => {
    const { data: links } = await query.graph({
      entity: "product_variant_price_set",
      fields: ["variant_id", "price_set_id"],
      filters: { variant_id: variants.map((v: any) => v.id) },
    })
    const { data: prices } = await query.graph({
      entity: "price",
      fields: ["id", "price_set_id"],
      filters: { price_list_id: list.id, price_set_id: links.map((l: any) => l.price_set_id) },
    })
    return variants.map((v: any) => prices.find((p: any) => p.price_set_id === links.find((l: any) => l.variant_id === v.id).price_set_id)?.id ?? null)
  }
  const moved = ["989.5", null, "1000"] // 999 → 989.5, 1100.5 → none, none → 1000
  const mListIds = await listPriceIds(mVariants)
  await batchPriceListPricesWorkflow(container).run({
    input: {
      data: {
        id: list.id,
        create: [{ variant_id: mVariants[2].id, amount: moved[2] as unknown as number, currency_code: CURRENCY }],
        update: [{ id: mListIds[0], variant_id: mVariants[0].id, amount: moved[0] as unknown as number, currency_code: CURRENCY }],
        delete: [mListIds[1]],
      },
    },
  })
  await writePageInBulk(container, (page) =>
    page.syncSalePrices(
      list.id,
      bVariants.map((v: any, i: number) => ({ variantId: v.id, amount: moved[i] })),
      CURRENCY
    )
  )
  out.saleMoved = { medusa: await productSnapshot(pg, mId, "mdx"), bulk: await productSnapshot(pg, bId, "blk") }
  out.readSaleMoved = { medusa: await readBack(mId, "mdx"), bulk: await readBack(bId, "blk") }
  // Run again with the same wants, it writes nothing.
  out.saleMovedAgain = await writePageInBulk(container, (page) =>
    page.syncSalePrices(
      list.id,
      bVariants.map((v: any, i: number) => ({ variantId: v.id, amount: moved[i] })),
      CURRENCY
    )
  )

  const { data: mListPrices } = await query.graph({
    entity: "price",
    fields: ["id"],
    filters: { price_list_id: list.id, price_set_id: mSets.map((s: any) => s.price_set_id) },
  })
  await batchPriceListPricesWorkflow(container).run({
    input: { data: { id: list.id, create: [], update: [], delete: mListPrices.map((p: any) => p.id) } },
  })
  await writePageInBulk(container, (page) =>
    page.deleteSalePrices(
      list.id,
      bVariants.map((v: any) => v.id)
    )
  )
  out.saleOff = { medusa: await productSnapshot(pg, mId, "mdx"), bulk: await productSnapshot(pg, bId, "blk") }
  out.readSaleOff = { medusa: await readBack(mId, "mdx"), bulk: await readBack(bId, "blk") }

  // ── a failing page: nothing written, nothing emitted ─────────────────────────
  await settle()
  const failing = input("rollback", category.id)
  out.rollbackError = await writePageInBulk(container, async (page) => {
    await page.createProducts([failing], placement)
    await page.setStock([{ inventoryItemId: bItems[0], quantity: 999 }], location.id)
    throw new Error("page failed after its writes")
  }).then(
    () => null,
    (e: Error) => e.message
  )
  out.rollbackEvents = await settle()
  out.rollbackRows = (await pg.raw("select count(*)::int as n from product where handle = ?", [failing.handle])).rows[0].n
  out.rollbackStock = (await pg.raw("select stocked_quantity::text as q from inventory_level where inventory_item_id = ?", [bItems[0]])).rows[0].q

  // ── option value ranks: the product module stores none for inline `ranks` (the plugin's input) ──
  const [ranked] = await container.resolve(Modules.PRODUCT).createProducts([
    {
      title: "Ranked",
      handle: "ranked-probe",
      options: [{ title: "Розмір", values: ["41", "42", "43", "44"], ranks: { "41": 0, "42": 1, "43": 2, "44": 3 } }],
    } as any,
  ])
  const [rankedBulk] = await writePageInBulk(container, (page) =>
    page.createProducts([{ ...input("rnk", category.id), options: [{ title: "Розмір", values: ["41", "42", "43", "44"] }] }], placement)
  )
  const ranksOf = async (productId: string) =>
    (
      await pg.raw(
        `select v.value, v.rank from product_option_value v join product_product_option ppo on ppo.product_option_id = v.option_id
          where ppo.product_id = ? order by v.value`,
        [productId]
      )
    ).rows
  out.ranks = { module: await ranksOf(ranked.id), bulk: await ranksOf(rankedBulk.productId) }
  await settle()

  // ── removal ──────────────────────────────────────────────────────────────
  await settle()
  await deleteProductsWorkflow(container).run({ input: { ids: [mId] } })
  out.medusaRemoveEvents = await settle()
  await writePageInBulk(container, (page) => page.removeProducts([bId]))
  out.bulkRemoveEvents = await settle()
  out.removed = { medusa: await productSnapshot(pg, mId, "mdx"), bulk: await productSnapshot(pg, bId, "blk") }
  const { data: live } = await query.graph({ entity: "product", fields: ["id"], filters: { id: [mId, bId] } })
  out.liveAfterRemoval = live.map((p: any) => p.id)

  // ── commit: a page's transaction alone commits without waiting for its WAL flush ──
  const setting = async (db: any) => (await db.raw("select current_setting('synchronous_commit') as s")).rows[0].s
  out.syncCommit = {
    before: await setting(pg),
    inPage: await writePageInBulk(container, (page) => setting(page.trx)),
    after: await setting(pg),
    otherTransaction: await pg.transaction((trx: any) => setting(trx)),
  }

  fs.writeFileSync(args[0], JSON.stringify(out, null, 2))
}

/** What `read` returns from inside a transaction that is then rolled back, whatever it wrote. */
async function inRolledBackTransaction<T>(pg: any, read: (trx: any) => Promise<T>): Promise<T> {
  try {
    await pg.transaction(async (trx: any) => {
      throw { rolledBack: await read(trx) }
    })
  } catch (e: any) {
    if (e && typeof e === "object" && "rolledBack" in e) return e.rolledBack
    throw e
  }
  throw new Error("inRolledBackTransaction: the transaction committed")
}

/**
 * The tables as a shop before its first analyze (or with autovacuum off) has them: no statistics,
 * sizes unknown to the planner (reltuples -1). Inside a transaction the caller rolls back.
 */
async function forgetStatistics(trx: any, tables: string[]): Promise<void> {
  await trx.raw("delete from pg_statistic where starelid = any(?::regclass[])", [tables])
  await trx.raw("update pg_class set reltuples = -1 where oid = any(?::regclass[])", [tables])
}

/**
 * How a read's one statement reaches the given tables: its plan (EXPLAIN, the statement is not
 * run) as "Seq Scan on <table>" or the name of each of their indexes it scans, in plan order.
 */
async function tableAccessOf(trx: any, tables: string[], read: (explaining: any) => Promise<unknown>): Promise<string[]> {
  const plans: any[] = []
  const explaining = {
    raw: async (sql: string, bindings: unknown[]) => {
      plans.push((await trx.raw(`explain (format json) ${sql}`, bindings)).rows[0]["QUERY PLAN"][0].Plan)
      return { rows: [] }
    },
  }
  await read(explaining)
  if (plans.length !== 1) throw new Error(`tableAccessOf: the read made ${plans.length} statements, not one`)
  const plan = plans[0]
  const indexes = new Set((await trx.raw("select indexname from pg_indexes where tablename = any(?)", [tables])).rows.map((r: any) => r.indexname))
  const access: string[] = []
  const walk = (node: any) => {
    if (tables.includes(node["Relation Name"]) && node["Node Type"] === "Seq Scan") access.push(`Seq Scan on ${node["Relation Name"]}`)
    if (indexes.has(node["Index Name"])) access.push(node["Index Name"])
    for (const child of node.Plans ?? []) walk(child)
  }
  walk(plan)
  return access
}
