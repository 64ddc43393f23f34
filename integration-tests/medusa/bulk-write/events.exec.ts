// Run inside the demo app with `medusa exec` (the app's own container and database): every write
// kind is done once by Medusa's workflows on one product and once by the bulk writer on another,
// with the same input, and every event the app's event bus delivers for each is recorded through
// a wildcard subscriber ("*": public, module-internal and link events alike), with its payload,
// its metadata and whether the written rows were committed when it came (read from another pool
// connection). Usage: medusa exec events.exec.ts <out.json>
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
  deleteProductsWorkflow,
  dismissLinksWorkflow,
} from "@medusajs/medusa/core-flows"
import { writePageInBulk, type BulkProduct } from "../../../src/bulk-write"
import { card } from "../../../src/sync/__tests__/card-fixtures"
import { mapCardToProduct, stockOf as cardStock } from "../../../src/sync/map-card"
import { createCatalogProductsWorkflow } from "../../../src/workflows/create-catalog-products"
import type { CreatedProduct, ProductToCreate, ProductToUpdate } from "../../../src/workflows/page-input"
import { writeFieldsInBulk } from "../../../src/workflows/page/write-fields-in-bulk"
import { writeSizesInBulk } from "../../../src/workflows/page/write-sizes-in-bulk"
import { writePricesInBulk } from "../../../src/workflows/page/write-prices-in-bulk"
import { ensureStoreLocales } from "../../../src/workflows/extras/translations"
import { writeTranslations } from "../../../src/workflows/extras/write-translations"
import { BRAND_LINK, syncLinks } from "../../../src/workflows/extras/brand-links"
import { CATALOG_SYNC_MODULE } from "../../../src/modules/catalog_sync/module-name"

export type RecordedEvent = { name: string; data: Record<string, unknown>; metadata: { source?: string; action?: string; object?: string } }

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
  const out: Record<string, { medusa: RecordedEvent[]; bulk: RecordedEvent[] }> = {}
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
  const both = async (kind: string, medusa: () => Promise<unknown>, bulk: () => Promise<unknown>) => {
    await settle()
    await medusa()
    const m = await settle()
    await bulk()
    out[kind] = { medusa: m, bulk: await settle() }
  }

  const { location, category, placement, itemsOf, variantsOf } = await setUpShop(container)

  // ── create: createProductsWorkflow + createInventoryLevelsWorkflow vs page.createProducts ──
  const m = input("mdx", category.id)
  const b = input("blk", category.id)
  let mId = ""
  let bId = ""
  await both(
    "create",
    async () => {
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
    async () => {
      const [created] = await writePageInBulk(container, (page) => page.createProducts([b], placement))
      bId = created.productId
    }
  )

  // ── stock-only: batchInventoryItemLevelsWorkflow vs page.setStock (3 → 7, 0 stays, 1 → 9) ──
  const newStock = [7, 0, 9]
  await both(
    "stock",
    async () => {
      const items = await itemsOf(mId)
      await batchInventoryItemLevelsWorkflow(container).run({
        input: {
          update: items.map((item, i) => ({ inventory_item_id: item, location_id: location.id, stocked_quantity: newStock[i] })).filter((_, i) => i !== 1),
          create: [],
          delete: [],
        },
      })
    },
    async () => {
      const items = await itemsOf(bId)
      await writePageInBulk(container, (page) =>
        page.setStock(
          items.map((item, i) => ({ inventoryItemId: item, quantity: newStock[i] })),
          location.id
        )
      )
    }
  )

  // ── sale prices: batchPriceListPricesWorkflow (create; then update + create + delete; then delete) vs the page's sale calls ──
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
  await both(
    "saleCreate",
    async () => {
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
    async () => {
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
    }
  )
  await both(
    "saleSync",
    async () => {
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
    async () => {
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
    }
  )
  await both(
    "saleDelete",
    async () => {
      const ids = (await listPriceIds(await variantsOf(mId))).filter(Boolean)
      await batchPriceListPricesWorkflow(container).run({ input: { data: { id: list.id, create: [], update: [], delete: ids } } })
    },
    async () => {
      await writePageInBulk(container, async (page) => page.deleteSalePrices(list.id, await variantsOf(bId)))
    }
  )

  // ── removal: deleteProductsWorkflow vs page.removeProducts ──
  await both(
    "remove",
    () => deleteProductsWorkflow(container).run({ input: { ids: [mId] } }),
    () => writePageInBulk(container, (page) => page.removeProducts([bId]))
  )

  // ── the plugin's page paths: its update workflow (Medusa's updateProductsWorkflow and variant
  // workflows inside) vs the bulk fields, prices and sizes paths, on catalog products ──
  const catalogProduct = (id: string, sizes?: { size: string; stock: number; cost_price: string; price: string | null }[]): ProductToCreate => {
    const c = card({ id, sku: `PLG-${id}`, weight_kg: "1.2", ...(sizes ? { sizes } : {}) })
    const mapped = mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: placement.salesChannelId })
    return { catalogId: id, input: { ...mapped, categoryIds: [category.id] }, stock: cardStock(c) }
  }
  const {
    result: [otherCategory],
  } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: [{ name: "Одяг", is_active: true }] },
  })
  const runUpdate = (products: ProductToUpdate[]) =>
    container.resolve(Modules.WORKFLOW_ENGINE).run("catalog-sync-update-catalog-products", { input: { products, placement }, throwOnError: true })
  const size = (s: string, stock: number, price: string | null) => ({ size: s, stock, cost_price: "1000.00", price })
  const start = [size("42", 3, "1287.00"), size("43", 2, "1300.10")]
  const [WF, BK] = ["900000000000000001", "900000000000000002"]
  let {
    result: [wf],
  } = await createCatalogProductsWorkflow(container).run({ input: { products: [catalogProduct(WF, start)], placement } })
  let {
    result: [bk],
  } = await createCatalogProductsWorkflow(container).run({ input: { products: [catalogProduct(BK, start)], placement } })
  const change = (
    id: string,
    was: CreatedProduct,
    sizes: ReturnType<typeof size>[],
    parts: ProductToUpdate["partsToWrite"],
    edit: (i: ProductToCreate["input"]) => ProductToCreate["input"] = (i) => i
  ): ProductToUpdate => {
    const p = catalogProduct(id, sizes)
    return { ...p, input: edit(p.input), productId: was.productId, variantIds: was.variantIds, inventoryItemIds: was.inventoryItemIds, partsToWrite: parts }
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
  await both(
    "fields",
    () => runUpdate([change(WF, wf, start, { fields: true, variants: false, prices: false }, newFields(WF))]),
    () => writeFieldsInBulk(container, [change(BK, bk, start, { fields: true, variants: false, prices: false }, newFields(BK))], placement)
  )
  const repriced = [size("42", 3, "1299.00"), size("43", 2, "1333.30")]
  await both(
    "prices",
    () => runUpdate([change(WF, wf, repriced, { fields: false, variants: false, prices: true })]),
    () => writePricesInBulk(container, [change(BK, bk, repriced, { fields: false, variants: false, prices: true })], placement)
  )
  // Sizes: 43 leaves, 41 comes (a new variant, price set, item, level), 42 is kept.
  const resized = [size("41", 4, "1500.00"), size("42", 3, "1299.00")]
  let wfNow: CreatedProduct | undefined
  let bkNow: CreatedProduct | undefined
  await both(
    "sizes",
    async () => {
      const { result } = await runUpdate([change(WF, wf, resized, { fields: false, variants: true, prices: true })])
      wfNow = result[0]
    },
    async () => {
      const outcome = await writeSizesInBulk(container, [change(BK, bk, resized, { fields: false, variants: true, prices: true })], placement)
      if (outcome.rest.length) throw new Error("the size change did not take the bulk path")
      bkNow = outcome.written[0].result
    }
  )
  if (wfNow && bkNow) [wf, bk] = [wfNow, bkNow]

  // ── translations: batchTranslationsWorkflow vs the plugin's translation writes (create; then update + delete) ──
  await ensureStoreLocales(container)
  const translation = (productId: string, locale: string, title: string) => ({
    reference: "product",
    reference_id: productId,
    locale_code: locale,
    translations: { title },
  })
  await settle()
  await both(
    "translationsCreate",
    () =>
      batchTranslationsWorkflow(container).run({
        input: { create: [translation(wf.productId, "uk-UA", "Кеди"), translation(wf.productId, "ru-RU", "Кеды")], update: [], delete: [] } as never,
      }),
    () =>
      writeTranslations(container, { create: [translation(bk.productId, "uk-UA", "Кеди"), translation(bk.productId, "ru-RU", "Кеды")], update: [], delete: [] })
  )
  const translationIds = async (productId: string) =>
    (await pg.raw("select id, locale_code from translation where reference_id = ? and deleted_at is null order by locale_code", [productId])).rows as {
      id: string
      locale_code: string
    }[]
  await both(
    "translationsChange",
    async () => {
      const [ru, uk] = await translationIds(wf.productId)
      await batchTranslationsWorkflow(container).run({
        input: { create: [], update: [{ id: uk.id, translations: { title: "Нові кеди" } }], delete: [ru.id] } as never,
      })
    },
    async () => {
      const [ru, uk] = await translationIds(bk.productId)
      await writeTranslations(container, { create: [], update: [{ id: uk.id, translations: { title: "Нові кеди" } }], delete: [ru.id] })
    }
  )

  // ── brand links: Medusa's link workflows (create, then dismiss) vs the plugin's brand link writes ──
  const catalogSync = container.resolve(CATALOG_SYNC_MODULE)
  const [brandA, brandB] = await catalogSync.createCatalogBrands([
    { catalog_id: "910000000000000001", name: "Brand A" },
    { catalog_id: "910000000000000002", name: "Brand B" },
  ])
  const brandLink = (productId: string, brandId: string) => ({
    [Modules.PRODUCT]: { product_id: productId },
    [CATALOG_SYNC_MODULE]: { catalog_brand_id: brandId },
  })
  await both(
    "brandLinkCreate",
    () => createLinksWorkflow(container).run({ input: [brandLink(wf.productId, brandA.id)] as never }),
    () => syncLinks(container, BRAND_LINK, new Map([[bk.productId, brandA.id]]))
  )
  await both(
    "brandLinkChange",
    async () => {
      await dismissLinksWorkflow(container).run({ input: [brandLink(wf.productId, brandA.id)] as never })
      await createLinksWorkflow(container).run({ input: [brandLink(wf.productId, brandB.id)] as never })
    },
    () => syncLinks(container, BRAND_LINK, new Map([[bk.productId, brandB.id]]))
  )
  await both(
    "brandLinkDismiss",
    () => dismissLinksWorkflow(container).run({ input: [brandLink(wf.productId, brandB.id)] as never }),
    () => syncLinks(container, BRAND_LINK, new Map([[bk.productId, null]]))
  )

  fs.writeFileSync(args[0], JSON.stringify({ events: out, ids: { medusa: mId, bulk: bId } }, null, 2))
}
