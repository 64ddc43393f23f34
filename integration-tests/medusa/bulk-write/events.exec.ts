// Run inside the demo app with `medusa exec` (the app's own container and database): every change
// kind is made once by the Medusa workflow a shop's own admin action runs (the reference), once by
// the bulk writer, once by the workflows write path (the plugin's writes through Medusa's
// core-flows) and, for product updates and creates, once by the plugin's own workflow the bulk
// path falls back to per product, each on its own product with the same input; every event the
// app's event bus delivers for each is recorded through a wildcard subscriber ("*": public,
// module-internal and link events alike), with its payload and metadata.
// Usage: medusa exec events.exec.ts <out.json>
import fs from "node:fs"
import { CURRENCY, setUpShop } from "./app-setup"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  batchInventoryItemLevelsWorkflow,
  batchPriceListPricesWorkflow,
  createInventoryLevelsWorkflow,
  createPriceListsWorkflow,
  createProductCategoriesWorkflow,
  createProductsWorkflow,
  createLinksWorkflow,
  batchTranslationsWorkflow,
  createProductVariantsWorkflow,
  deleteProductsWorkflow,
  deleteProductVariantsWorkflow,
  dismissLinksWorkflow,
  updateProductsWorkflow,
  updateProductVariantsWorkflow,
} from "@medusajs/medusa/core-flows"
import { writePageInBulk, type BulkProduct } from "../../../src/bulk-write"
import { card } from "../../../src/sync/__tests__/card-fixtures"
import { mapCardToProduct, stockOf as cardStock } from "../../../src/sync/map-card"
import type { CreatedProduct, ProductToCreate, ProductToUpdate } from "../../../src/workflows/page-input"
import { writeFieldsInBulk } from "../../../src/workflows/page/write-fields-in-bulk"
import { writeSizesInBulk } from "../../../src/workflows/page/write-sizes-in-bulk"
import { writePricesInBulk } from "../../../src/workflows/page/write-prices-in-bulk"
import { ensureStoreLocales } from "../../../src/workflows/extras/translations"
import { writeTranslationsInBulk } from "../../../src/shop-writer/bulk/translations-in-bulk"
import { setLinksInBulk } from "../../../src/shop-writer/bulk/links-in-bulk"
import { BRAND_LINK } from "../../../src/workflows/extras/brand-links"
import { createProductsThroughCoreFlowsWorkflow } from "../../../src/workflows/create-products-through-core-flows"
import { updateProductsThroughCoreFlowsWorkflow } from "../../../src/workflows/update-products-through-core-flows"
import {
  linksThroughCoreFlows,
  removeProductsThroughCoreFlows,
  salePricesThroughCoreFlows,
  setStockThroughCoreFlows,
  translationsThroughCoreFlows,
} from "../../../src/workflows/writes-through-core-flows"
import { pricesOnlyChanged } from "../../../src/workflows/page/price-only-changes"
import { fieldsChangedWithoutVariants } from "../../../src/workflows/page/fields-only-changes"
import { sizesChanged } from "../../../src/workflows/page/size-changes"
import { CATALOG_SYNC_MODULE } from "../../../src/modules/catalog_sync/module-name"

export type RecordedEvent = { name: string; data: Record<string, unknown>; metadata: { source?: string; action?: string; object?: string } }

/** One change kind's events per writer: `reference` is Medusa's workflow for the shop's own action. */
export type KindEvents = { reference: RecordedEvent[]; bulk: RecordedEvent[]; workflows: RecordedEvent[]; fallback?: RecordedEvent[] }

function input(tag: string, categoryId: string): BulkProduct {
  return {
    title: `Кросівки ${tag}`,
    handle: `krosivky-${tag}`,
    status: "published",
    external_id: `ext-${tag}`,
    description: "Опис",
    thumbnail: `https://img.example/${tag}/1.jpg`,
    metadata: { catalog_sku: `SKU-${tag}` },
    images: [1, 2].map((i) => `https://img.example/${tag}/${i}.jpg`),
    categoryIds: [categoryId],
    options: [{ title: "Розмір", values: ["41", "42", "43"] }],
    variants: [
      { title: "41", sku: `${tag}-41`, options: { Розмір: "41" }, amount: "1300.50", stock: 3 },
      { title: "42", sku: `${tag}-42`, options: { Розмір: "42" }, amount: "1400", stock: 0 },
      // No price in the catalog: an empty price set.
      { title: "43", sku: `${tag}-43`, options: { Розмір: "43" }, amount: null, stock: 1 },
    ],
  }
}

export default async function events({ container, args }: { container: any; args: string[] }) {
  const out: Record<string, KindEvents> = {}
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const eventBus = container.resolve(Modules.EVENT_BUS)
  let recorded: RecordedEvent[] = []
  eventBus.subscribe(
    "*",
    async (msg: any) => {
      const { source, action, object } = msg?.metadata ?? {}
      recorded.push({ name: msg.name, data: msg.data, metadata: { source, action, object } })
    },
    { subscriberId: "events-parity-recorder" }
  )
  const settle = async () => {
    await new Promise((r) => setTimeout(r, 800))
    const got = recorded
    recorded = []
    return got
  }
  /** Runs the kind's writers one after another, each one's events recorded alone. */
  const record = async (
    kind: string,
    writers: { reference: () => Promise<unknown>; bulk: () => Promise<unknown>; workflows: () => Promise<unknown>; fallback?: () => Promise<unknown> }
  ) => {
    await settle()
    const events: Partial<KindEvents> = {}
    for (const [writer, write] of Object.entries(writers)) {
      await write()
      events[writer as keyof KindEvents] = await settle()
    }
    out[kind] = events as KindEvents
  }

  const { location, category, placement, itemsOf, variantsOf } = await setUpShop(container)
  const inventory = container.resolve(Modules.INVENTORY)
  const productModule = container.resolve(Modules.PRODUCT)
  /** Which bulk route wrote each update kind's product (a fast path, or the per-product fallback). */
  const routes: Record<string, string[]> = {}

  // Catalog products, as the sync maps them.
  const catalogProduct = (id: string, sizes?: { size: string; stock: number; cost_price: string; price: string | null }[]): ProductToCreate => {
    const c = card({ id, sku: `PLG-${id}`, weight_kg: "1.2", ...(sizes ? { sizes } : {}) })
    const mapped = mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: placement.salesChannelId })
    return { catalogId: id, input: { ...mapped, categoryIds: [category.id] }, stock: cardStock(c) }
  }
  const size = (s: string, stock: number, price: string | null) => ({ size: s, stock, cost_price: "1000.00", price })

  // ── create: createProductsWorkflow + createInventoryLevelsWorkflow vs page.createProducts, the
  // workflows path's create and the bulk path's fallback create (same sizes, prices and stock) ──
  const m = input("mdx", category.id)
  const b = input("blk", category.id)
  const createdSizes = [size("41", 3, "1300.50"), size("42", 0, "1400"), size("43", 1, null)]
  let mId = ""
  let bId = ""
  let cId = ""
  await record("create", {
    reference: async () => {
      const {
        result: [p],
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
      mId = p.id
      const stock = new Map(m.variants.map((v) => [v.sku, v.stock]))
      const { data: links } = await query.graph({
        entity: "product_variant_inventory_item",
        fields: ["variant_id", "inventory_item_id"],
        filters: { variant_id: p.variants.map((v: any) => v.id) },
      })
      await createInventoryLevelsWorkflow(container).run({
        input: {
          inventory_levels: links.map((l: any) => ({
            inventory_item_id: l.inventory_item_id,
            location_id: location.id,
            stocked_quantity: stock.get(p.variants.find((v: any) => v.id === l.variant_id)!.sku as string) ?? 0,
          })),
        },
      })
    },
    bulk: async () => {
      const [created] = await writePageInBulk(container, (page) => page.createProducts([b], placement))
      bId = created.productId
    },
    workflows: async () => {
      const {
        result: [created],
      } = await createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [catalogProduct("900000000000000011", createdSizes)], placement } })
      cId = created.productId
    },
    fallback: () =>
      createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [catalogProduct("900000000000000012", createdSizes)], placement } }),
  })

  // ── stock-only: batchInventoryItemLevelsWorkflow vs page.setStock vs the workflows path (3 → 7, 0 stays, 1 → 9) ──
  const newStock = [7, 0, 9]
  const stockChanges = async (productId: string) => (await itemsOf(productId)).map((item, i) => ({ inventoryItemId: item, quantity: newStock[i] }))
  await record("stock", {
    reference: async () => {
      const items = await itemsOf(mId)
      await batchInventoryItemLevelsWorkflow(container).run({
        input: {
          update: items.map((item, i) => ({ inventory_item_id: item, location_id: location.id, stocked_quantity: newStock[i] })).filter((_, i) => i !== 1),
          create: [],
          delete: [],
        },
      })
    },
    bulk: async () => {
      const changes = await stockChanges(bId)
      await writePageInBulk(container, (page) => page.setStock(changes, location.id))
    },
    workflows: async () => setStockThroughCoreFlows(container, await stockChanges(cId), location.id),
  })

  // ── sale prices: batchPriceListPricesWorkflow (create; then update + create + delete; then delete) vs the page's sale calls vs the workflows path ──
  const {
    result: [list],
  } = await createPriceListsWorkflow(container).run({
    input: { price_lists_data: [{ title: "Sale", description: "sale", status: "active", type: "sale", prices: [] } as any] },
  })
  const listPriceIds = async (variants: string[]) => {
    const { data: links } = await query.graph({
      entity: "product_variant_price_set",
      fields: ["variant_id", "price_set_id"],
      filters: { variant_id: variants },
    })
    const { data: prices } = await query.graph({
      entity: "price",
      fields: ["id", "price_set_id"],
      filters: { price_list_id: list.id, price_set_id: links.map((l: any) => l.price_set_id) },
    })
    return variants.map((v) => prices.find((p: any) => p.price_set_id === links.find((l: any) => l.variant_id === v).price_set_id)?.id ?? null)
  }
  const salesThroughCoreFlows = async (productId: string, amounts: (string | null | undefined)[]) => {
    const vs = await variantsOf(productId)
    const wanted = vs.flatMap((variantId, i) => (amounts[i] === undefined ? [] : [{ variantId, saleAmount: amounts[i] as string | null }]))
    await salePricesThroughCoreFlows(container, list.id, wanted, CURRENCY)
  }
  await record("saleCreate", {
    reference: async () => {
      const vs = await variantsOf(mId)
      await batchPriceListPricesWorkflow(container).run({
        input: {
          data: {
            id: list.id,
            create: [
              { variant_id: vs[0], amount: 999 },
              { variant_id: vs[1], amount: 1100.5 },
            ].map((p) => ({ ...p, currency_code: CURRENCY })),
            update: [],
            delete: [],
          },
        },
      })
    },
    bulk: async () => {
      const vs = await variantsOf(bId)
      await writePageInBulk(container, (page) =>
        page.setSalePrices(
          list.id,
          [
            { variantId: vs[0], amount: "999" },
            { variantId: vs[1], amount: "1100.5" },
          ],
          CURRENCY
        )
      )
    },
    workflows: () => salesThroughCoreFlows(cId, ["999", "1100.5"]),
  })
  await record("saleSync", {
    reference: async () => {
      const vs = await variantsOf(mId)
      const ids = await listPriceIds(vs)
      await batchPriceListPricesWorkflow(container).run({
        input: {
          data: {
            id: list.id,
            create: [{ variant_id: vs[2], amount: 1000 as number, currency_code: CURRENCY }],
            update: [{ id: ids[0], variant_id: vs[0], amount: 989.5, currency_code: CURRENCY }],
            delete: [ids[1]],
          },
        },
      })
    },
    bulk: async () => {
      const vs = await variantsOf(bId)
      await writePageInBulk(container, (page) =>
        page.syncSalePrices(
          list.id,
          [
            { variantId: vs[0], amount: "989.5" },
            { variantId: vs[1], amount: null },
            { variantId: vs[2], amount: "1000" },
          ],
          CURRENCY
        )
      )
    },
    workflows: () => salesThroughCoreFlows(cId, ["989.5", null, "1000"]),
  })
  await record("saleDelete", {
    reference: async () => {
      const ids = (await listPriceIds(await variantsOf(mId))).filter(Boolean)
      await batchPriceListPricesWorkflow(container).run({ input: { data: { id: list.id, create: [], update: [], delete: ids } } })
    },
    bulk: async () => {
      await writePageInBulk(container, async (page) => page.deleteSalePrices(list.id, await variantsOf(bId)))
    },
    workflows: () => salesThroughCoreFlows(cId, [null, null, null]),
  })

  // ── removal: deleteProductsWorkflow vs page.removeProducts vs the workflows path ──
  await record("remove", {
    reference: () => deleteProductsWorkflow(container).run({ input: { ids: [mId] } }),
    bulk: () => writePageInBulk(container, (page) => page.removeProducts([bId])),
    workflows: () => removeProductsThroughCoreFlows(container, [cId]),
  })

  // ── product updates, on catalog products: the Medusa workflow of the shop's own edit (MX) vs
  // the bulk path as the page step routes it (BK: a fast path, else its fallback), the workflows
  // path (CF) and the bulk path's fallback, the plugin's update workflow (WF) ──
  const {
    result: [otherCategory],
  } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: [{ name: "Одяг", is_active: true }] },
  })
  const runUpdate = (products: ProductToUpdate[]) => updateProductsThroughCoreFlowsWorkflow(container).run({ input: { products, placement } })
  /** The bulk path as writeChangedProductsStep routes an update: price-only, fields, sizes fast paths, then the fallback. */
  const bulkUpdate = async (kind: string, products: ProductToUpdate[]): Promise<CreatedProduct[]> => {
    const out: CreatedProduct[] = []
    let rest = products
    const fastPaths = [
      ["prices", pricesOnlyChanged, writePricesInBulk],
      ["fields", fieldsChangedWithoutVariants, writeFieldsInBulk],
      ["sizes", sizesChanged, writeSizesInBulk],
    ] as const
    for (const [route, fits, write] of fastPaths) {
      const candidates = rest.filter(fits)
      if (!candidates.length) continue
      const outcome = await write(container, candidates, placement)
      for (const w of outcome.written) out.push(w.result)
      const done = new Set(outcome.written.map((w) => w.item.catalogId))
      if (done.size) routes[kind] = [...(routes[kind] ?? []), route]
      rest = rest.filter((p) => !done.has(p.catalogId))
    }
    if (rest.length) {
      routes[kind] = [...(routes[kind] ?? []), "fallback"]
      out.push(...((await runUpdate(rest)).result as CreatedProduct[]))
    }
    return out
  }
  const throughCoreFlows = async (products: ProductToUpdate[]) =>
    (await updateProductsThroughCoreFlowsWorkflow(container).run({ input: { products, placement } })).result as CreatedProduct[]

  const start = [size("42", 3, "1287.00"), size("43", 2, "1300.10")]
  const [MX, BK, CF, WF] = ["900000000000000000", "900000000000000002", "900000000000000003", "900000000000000001"]
  const made: Record<string, CreatedProduct> = {}
  for (const id of [MX, BK, CF, WF]) {
    const {
      result: [p],
    } = await createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [catalogProduct(id, start)], placement } })
    made[id] = p
  }
  const change = (
    id: string,
    sizes: ReturnType<typeof size>[],
    parts: ProductToUpdate["partsToWrite"],
    edit: (i: ProductToCreate["input"]) => ProductToCreate["input"] = (i) => i
  ): ProductToUpdate => {
    const p = catalogProduct(id, sizes)
    const was = made[id]
    return { ...p, input: edit(p.input), productId: was.productId, variantIds: was.variantIds, inventoryItemIds: was.inventoryItemIds, partsToWrite: parts }
  }
  /** The same change by each plugin writer, the product map kept as the sync keeps it (the write's result). */
  const pluginWriters = (
    kind: string,
    sizes: ReturnType<typeof size>[],
    parts: ProductToUpdate["partsToWrite"],
    edit?: (id: string) => (i: ProductToCreate["input"]) => ProductToCreate["input"]
  ) => {
    const keep = (id: string, result: CreatedProduct[]) => {
      if (result[0]) made[id] = result[0]
    }
    return {
      bulk: async () => keep(BK, await bulkUpdate(kind, [change(BK, sizes, parts, edit?.(BK))])),
      workflows: async () => keep(CF, await throughCoreFlows([change(CF, sizes, parts, edit?.(CF))])),
      fallback: async () => keep(WF, ((await runUpdate([change(WF, sizes, parts, edit?.(WF))])).result as CreatedProduct[]) ?? []),
    }
  }
  const mx = () => made[MX].productId
  /** The reference product's variant of a size (its option value). */
  const mxVariant = async (value: string): Promise<string> => {
    const variants = await productModule.listProductVariants({ product_id: mx() }, { relations: ["options"], take: null })
    const hit = variants.find((v: any) => v.options?.some((o: any) => o.value === value))
    if (!hit) throw new Error(`reference product has no size ${value}`)
    return hit.id
  }
  const itemOf = async (variantId: string): Promise<string> => {
    const { data } = await query.graph({ entity: "product_variant_inventory_item", fields: ["inventory_item_id"], filters: { variant_id: variantId } })
    return data[0].inventory_item_id
  }
  /** The shop's own stock edit of one level (the inventory item's location level in the admin). */
  const mxSetLevel = async (value: string, stockedQuantity: number) => {
    const item = await itemOf(await mxVariant(value))
    await batchInventoryItemLevelsWorkflow(container).run({
      input: { update: [{ inventory_item_id: item, location_id: location.id, stocked_quantity: stockedQuantity }], create: [], delete: [] },
    })
  }

  // Fields: new title and description, a new gallery, another category (the category link), same prices and stock.
  const newFields = (id: string) => (i: ProductToCreate["input"]) => ({
    ...i,
    title: `Кеди ${id}`,
    description: `Новий опис ${id}`,
    images: [{ url: "http://img/1.png" }, { url: "http://img/new.png" }],
    thumbnail: "http://img/1.png",
    categoryIds: [otherCategory.id],
  })
  await record("fields", {
    reference: () =>
      updateProductsWorkflow(container).run({
        input: {
          products: [
            {
              id: mx(),
              title: `Кеди ${MX}`,
              description: `Новий опис ${MX}`,
              images: [{ url: "http://img/1.png" }, { url: "http://img/new.png" }],
              thumbnail: "http://img/1.png",
              category_ids: [otherCategory.id],
            },
          ],
        } as any,
      }),
    ...pluginWriters("fields", start, { fields: true, variants: false, prices: false }, newFields),
  })

  // Price-only: both sizes repriced. The shop's own price edit is the variant's (updateProductVariantsWorkflow).
  const repriced = [size("42", 3, "1299.00"), size("43", 2, "1333.30")]
  await record("prices", {
    reference: async () =>
      updateProductVariantsWorkflow(container).run({
        input: {
          product_variants: [
            { id: await mxVariant("42"), prices: [{ amount: 1299, currency_code: CURRENCY }] },
            { id: await mxVariant("43"), prices: [{ amount: 1333.3, currency_code: CURRENCY }] },
          ],
        } as any,
      }),
    ...pluginWriters("prices", repriced, { fields: false, variants: false, prices: true }),
  })

  // A size added (44, last, so the kept sizes keep their rank): the shop adds the value to the
  // product's size option, creates the variant (createProductVariantsWorkflow, which makes its
  // inventory item) and stocks it at the location (batchInventoryItemLevelsWorkflow).
  const grown = [...repriced, size("44", 4, "1500.00")]
  await record("sizeAdded", {
    reference: async () => {
      const product = await productModule.retrieveProduct(mx(), { relations: ["options"] })
      const option = product.options[0]
      await productModule.updateProductOptionValuesOnProduct([{ product_id: mx(), product_option_id: option.id, add: [{ value: "44" }] }] as any)
      const { result } = await createProductVariantsWorkflow(container).run({
        input: {
          product_variants: [
            {
              product_id: mx(),
              title: "44",
              sku: `PLG-${MX}-44`,
              variant_rank: 2,
              manage_inventory: true,
              options: { [option.title]: "44" },
              prices: [{ amount: 1500, currency_code: CURRENCY }],
            },
          ],
        } as any,
      })
      await batchInventoryItemLevelsWorkflow(container).run({
        input: { create: [{ inventory_item_id: await itemOf(result[0].id), location_id: location.id, stocked_quantity: 4 }], update: [], delete: [] },
      })
    },
    ...pluginWriters("sizeAdded", grown, { fields: false, variants: true, prices: true }),
  })

  // A size removed (44 again): the shop deletes the variant (deleteProductVariantsWorkflow, which deletes its inventory item).
  await record("sizeRemoved", {
    reference: async () => deleteProductVariantsWorkflow(container).run({ input: { ids: [await mxVariant("44")] } }),
    ...pluginWriters("sizeRemoved", repriced, { fields: false, variants: true, prices: true }),
  })

  /** Each product's size option values after the removal, live or soft-deleted (what the writers left behind). */
  const optionValuesAfterRemoval = Object.fromEntries(
    await Promise.all(
      Object.entries({ reference: MX, bulk: BK, workflows: CF, fallback: WF }).map(async ([writer, id]) => [
        writer,
        (
          await pg.raw(
            `select ov.value, ov.deleted_at is not null as deleted from product_product_option ppo join product_option o on o.id = ppo.product_option_id
              join product_option_value ov on ov.option_id = o.id where ppo.product_id = ? order by ov.value`,
            [made[id].productId]
          )
        ).rows,
      ])
    )
  )

  // A size kept for an open order: 43 has 1 reserved of its 2; the catalog drops it, so it stays
  // off sale (stocked down to the reserved 1), then comes back with 6. The shop's own action for
  // both is a stock edit of that level (batchInventoryItemLevelsWorkflow).
  for (const id of [MX, BK, CF, WF]) {
    const variants = await productModule.listProductVariants({ product_id: made[id].productId }, { relations: ["options"], take: null })
    const v43 = variants.find((v: any) => v.options?.some((o: any) => o.value === "43"))!
    await inventory.createReservationItems([{ inventory_item_id: await itemOf(v43.id), location_id: location.id, quantity: 1 }])
  }
  await record("keptForOrder", {
    reference: () => mxSetLevel("43", 1),
    ...pluginWriters("keptForOrder", [size("42", 3, "1299.00")], { fields: false, variants: true, prices: true }),
  })
  await record("keptReturning", {
    reference: () => mxSetLevel("43", 6),
    ...pluginWriters("keptReturning", [size("42", 3, "1299.00"), size("43", 6, "1333.30")], { fields: false, variants: true, prices: true }),
  })

  // ── translations: batchTranslationsWorkflow vs the plugin's translation writes (bulk) vs the workflows path (create; then update + delete) ──
  await ensureStoreLocales(container)
  const translation = (productId: string, locale: string, title: string) => ({
    reference: "product",
    reference_id: productId,
    locale_code: locale,
    translations: { title },
  })
  const created = (productId: string) => ({
    create: [translation(productId, "uk-UA", "Кеди"), translation(productId, "ru-RU", "Кеды")],
    update: [],
    delete: [],
  })
  await record("translationsCreate", {
    reference: () => batchTranslationsWorkflow(container).run({ input: created(mx()) as never }),
    bulk: () => writeTranslationsInBulk(container, created(made[BK].productId)),
    workflows: () => translationsThroughCoreFlows(container, created(made[CF].productId)),
  })
  const translationIds = async (productId: string) =>
    (await pg.raw("select id, locale_code from translation where reference_id = ? and deleted_at is null order by locale_code", [productId])).rows as {
      id: string
      locale_code: string
    }[]
  const changed = async (productId: string) => {
    const [ru, uk] = await translationIds(productId)
    return { create: [], update: [{ id: uk.id, translations: { title: "Нові кеди" } }], delete: [ru.id] }
  }
  await record("translationsChange", {
    reference: async () => batchTranslationsWorkflow(container).run({ input: (await changed(mx())) as never }),
    bulk: async () => writeTranslationsInBulk(container, await changed(made[BK].productId)),
    workflows: async () => translationsThroughCoreFlows(container, await changed(made[CF].productId)),
  })

  // ── brand links: Medusa's link workflows (create, then dismiss) vs the plugin's brand link writes (bulk) vs the workflows path ──
  const catalogSync = container.resolve(CATALOG_SYNC_MODULE)
  const [brandA, brandB] = await catalogSync.createCatalogBrands([
    { catalog_id: "910000000000000001", name: "Brand A" },
    { catalog_id: "910000000000000002", name: "Brand B" },
  ])
  const brandLink = (productId: string, brandId: string) => ({
    [Modules.PRODUCT]: { product_id: productId },
    [CATALOG_SYNC_MODULE]: { catalog_brand_id: brandId },
  })
  const links = (id: string, brandId: string | null) => new Map([[made[id].productId, brandId]])
  await record("brandLinkCreate", {
    reference: () => createLinksWorkflow(container).run({ input: [brandLink(mx(), brandA.id)] as never }),
    bulk: () => setLinksInBulk(container, BRAND_LINK, links(BK, brandA.id)),
    workflows: () => linksThroughCoreFlows(container, BRAND_LINK, links(CF, brandA.id)),
  })
  await record("brandLinkChange", {
    reference: async () => {
      await dismissLinksWorkflow(container).run({ input: [brandLink(mx(), brandA.id)] as never })
      await createLinksWorkflow(container).run({ input: [brandLink(mx(), brandB.id)] as never })
    },
    bulk: () => setLinksInBulk(container, BRAND_LINK, links(BK, brandB.id)),
    workflows: () => linksThroughCoreFlows(container, BRAND_LINK, links(CF, brandB.id)),
  })
  await record("brandLinkDismiss", {
    reference: () => dismissLinksWorkflow(container).run({ input: [brandLink(mx(), brandB.id)] as never }),
    bulk: () => setLinksInBulk(container, BRAND_LINK, links(BK, null)),
    workflows: () => linksThroughCoreFlows(container, BRAND_LINK, links(CF, null)),
  })

  fs.writeFileSync(args[0], JSON.stringify({ events: out, routes, optionValuesAfterRemoval }, null, 2))
}
