// Writes that survive a crash between any two statements (issue #9): what a crashed attempt
// already made in the shop — a size's variant (with its price set and inventory item) that the
// product map does not know, or an inventory item with the variant's SKU that no variant links —
// is adopted by the next sync instead of failing ("Variant (…) with provided options already
// exists", duplicate SKU) and rejecting the product for good. The crash window is reproduced by
// making those rows through Medusa's own admin API, without the plugin's map row.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { mapCardToProduct, stockOf, variantSku } from "../../src/sync/map-card"
import { productMetadata } from "../../src/sync/catalog-product"
import type { ProductCard } from "../../src/catalog-client"
import { runMedusaCommand } from "../harness"
import { judgeProductMap, judgeShop, readShopTruth, type TruthCard } from "../harness/shop-truth"
import { configureAndWait, readCatalog, runAndWait, sizedProductId, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { sql } from "./poll-and-query"

jest.setTimeout(900_000)

const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: "20", old_price_markup_percent: null } as const

describe("crash adoption: the next sync adopts what a crashed write made", () => {
  let env: SyncEnv
  let shoe: string

  const catalog = async () => (await readCatalog(env.sb.baseUrl, env.sb.apiKey, PRICING as never)) as ProductCard[]
  const expectEqual = async () => {
    expect(judgeShop((await catalog()) as unknown as TruthCard[], await readShopTruth(env.db.url))).toEqual([])
    expect(await judgeProductMap(env.db.url)).toEqual([])
    const skus = await sql(env.db.url, "select sku from inventory_item where deleted_at is null and sku is not null group by sku having count(*) > 1")
    expect(skus).toEqual([])
  }
  const sync = async () => {
    const run = await runAndWait(env, "changes")
    expect([run.status, run.error_message, run.skipped, run.rejected_items ?? []]).toEqual(["succeeded", null, 0, []])
    return run
  }
  const productOf = async (id: string) => {
    const [p] = await sql(env.db.url, "select id from product where external_id = $1 and deleted_at is null", [id])
    const [o] = await sql(
      env.db.url,
      `select o.id, o.title from product_product_option ppo join product_option o on o.id = ppo.product_option_id
        where ppo.product_id = $1 and ppo.deleted_at is null and o.deleted_at is null`,
      [p.id]
    )
    return { productId: p.id as string, optionId: o.id as string, optionTitle: o.title as string }
  }
  const cardOf = async (id: string) => (await catalog()).find((c) => c.id === id)!

  beforeAll(async () => {
    env = await startSyncEnv("identity-adoption", { products: 60, seed: 5 })
    shoe = sizedProductId(env, ["40", "41", "42"])
    env.sb.state.mutator.setSizes(shoe, ["40", "41"])
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING })
    expect(run).toMatchObject({ status: "succeeded", skipped: 0 })
    await expectEqual()
  })
  afterAll(async () => {
    await env?.close()
  })

  it("a size's variant made before the crash (variant, price set, inventory item; no map row) is adopted", async () => {
    env.sb.state.mutator.setSizes(shoe, ["40", "41", "42"])
    const { productId, optionId, optionTitle } = await productOf(shoe)
    // The first half of the write: the size joins the option and its variant exists, with a wrong price.
    const values = await env.app.admin(`/admin/products/${productId}/options/batch`, {
      body: { update: [{ product_option_id: optionId, add: [{ value: "42" }] }] },
    })
    expect(values.status).toBe(200)
    const card = await cardOf(shoe)
    const made = await env.app.admin(`/admin/products/${productId}/variants`, {
      body: {
        title: "42",
        sku: variantSku(card, "42"),
        options: { [optionTitle]: "42" },
        manage_inventory: true,
        prices: [{ currency_code: "uah", amount: 1 }],
        metadata: { catalog_id: shoe, catalog_size: "42" },
      },
    })
    expect(made.status).toBe(200)
    const [crashMade] = await sql(
      env.db.url,
      "select v.id from product_variant v join product_variant_option vo on vo.variant_id = v.id join product_option_value pov on pov.id = vo.option_value_id where v.product_id = $1 and v.deleted_at is null and pov.value = '42'",
      [productId]
    )
    expect(crashMade).toBeTruthy()

    await sync()
    await expectEqual()
    const [map] = await sql(env.db.url, "select variant_ids from mcs_product_map where catalog_id = $1 and deleted_at is null", [shoe])
    expect(map.variant_ids["42"]).toBe(crashMade.id)
  })

  it("an inventory item made before the crash (the variant's SKU, linked to nothing) is adopted, not duplicated", async () => {
    env.sb.state.mutator.setSizes(shoe, ["40", "41", "42", "43"])
    const card = await cardOf(shoe)
    const sku = variantSku(card, "43")
    const item = await env.app.admin("/admin/inventory-items", { body: { sku, title: "crash leftover" } })
    expect(item.status).toBe(200)
    await sync()
    await expectEqual()
    const rows = await sql(
      env.db.url,
      `select ii.id, l.variant_id from inventory_item ii
         left join product_variant_inventory_item l on l.inventory_item_id = ii.id and l.deleted_at is null
        where ii.sku = $1 and ii.deleted_at is null`,
      [sku]
    )
    expect(rows).toHaveLength(1)
    expect(rows[0].id).toBe(item.body.inventory_item.id)
    expect(rows[0].variant_id).toBeTruthy()
  })

  it("a map that names deleted variants (an older version's merged map) is repaired from the shop", async () => {
    const [row] = await sql(env.db.url, "select id, variant_ids, inventory_item_ids from mcs_product_map where catalog_id = $1 and deleted_at is null", [shoe])
    await sql(env.db.url, "update mcs_product_map set variant_ids = $2, inventory_item_ids = $3 where id = $1", [
      row.id,
      { ...row.variant_ids, "41": "variant_deleted_long_ago", "39": "variant_gone" },
      { ...row.inventory_item_ids, "39": "iitem_gone" },
    ])
    env.sb.state.mutator.setSizes(shoe, ["41", "42", "43"])
    await sync()
    await expectEqual()
  })

  it("a variant deleted in the admin is noticed by the next stock-only change and made again", async () => {
    const { productId } = await productOf(shoe)
    const [map] = await sql(env.db.url, "select variant_ids from mcs_product_map where catalog_id = $1 and deleted_at is null", [shoe])
    const victim = map.variant_ids["42"]
    const gone = await env.app.admin(`/admin/products/${productId}/variants/${victim}`, { method: "DELETE" })
    expect(gone.status).toBe(200)
    const stocked = env.sb.control.mutate({ count: 1, kinds: ["stock"], ids: [shoe] }) as { changed: bigint[] }
    expect(stocked.changed.map(String)).toEqual([shoe])
    await sync()
    await expectEqual()
  })

  it("a product made before the crash (marker, no map row) is adopted: same product, completed, counted as created", async () => {
    const added = env.sb.control.mutate({ count: 1, kinds: ["add"] }) as { added: bigint[] }
    const id = String(added.added[0])
    const card = await cardOf(id)
    const input = mapCardToProduct(card, { primaryLanguage: "uk", salesChannelId: null })
    // The product write committed (Medusa's own workflow: variants with inventory items, wrong prices), the rest did not.
    const made = await env.app.admin("/admin/products", {
      body: {
        title: input.title,
        handle: input.handle,
        external_id: id,
        status: "draft",
        metadata: productMetadata(input),
        options: [{ title: input.optionTitle, values: input.variants.map((v) => v.optionValue) }],
        variants: input.variants.map((v) => ({
          title: v.title,
          sku: v.sku,
          options: { [input.optionTitle]: v.optionValue },
          manage_inventory: true,
          prices: [{ currency_code: "uah", amount: 1 }],
          metadata: v.metadata,
        })),
      },
    })
    expect(made.status).toBe(200)
    const run = await sync()
    expect(run.created).toBe(1)
    await expectEqual()
    const live = await sql(env.db.url, "select id from product where external_id = $1 and deleted_at is null", [id])
    expect(live.map((r) => r.id)).toEqual([made.body.product.id])
    const [map] = await sql(env.db.url, "select product_id from mcs_product_map where catalog_id = $1 and deleted_at is null", [id])
    expect(map.product_id).toBe(made.body.product.id)
    const channel = await sql(
      env.db.url,
      "select 1 from product_sales_channel psc join store s on s.default_sales_channel_id = psc.sales_channel_id and s.deleted_at is null where psc.product_id = $1 and psc.deleted_at is null",
      [map.product_id]
    )
    expect(channel).toHaveLength(1)
    const profile = await sql(env.db.url, "select 1 from product_shipping_profile where product_id = $1 and deleted_at is null", [map.product_id])
    expect(profile).toHaveLength(1)
  })

  it("a product the page's bulk write committed before the crash (no map row) is adopted: same product and items, counted as created", async () => {
    const added = env.sb.control.mutate({ count: 1, kinds: ["add"] }) as { added: bigint[] }
    const id = String(added.added[0])
    const card = await cardOf(id)
    const input = mapCardToProduct(card, { primaryLanguage: "uk", salesChannelId: null })
    // Where the sync puts products: as the shoe's product is placed.
    const [placement] = await sql(
      env.db.url,
      `select sc.sales_channel_id as "salesChannelId", sp.shipping_profile_id as "shippingProfileId", l.location_id as "stockLocationId"
         from product p
         join product_sales_channel sc on sc.product_id = p.id and sc.deleted_at is null
         left join product_shipping_profile sp on sp.product_id = p.id and sp.deleted_at is null
         join product_variant v on v.product_id = p.id and v.deleted_at is null
         join product_variant_inventory_item vi on vi.variant_id = v.id and vi.deleted_at is null
         join inventory_level l on l.inventory_item_id = vi.inventory_item_id and l.deleted_at is null
        where p.external_id = $1 and p.deleted_at is null limit 1`,
      [shoe]
    )
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bulk-leftover-"))
    const resultFile = path.join(dir, "created.json")
    fs.writeFileSync(path.join(dir, "input.json"), JSON.stringify({ products: [{ catalogId: id, input, stock: stockOf(card) }], placement, resultFile }))
    await runMedusaCommand(["exec", path.join(__dirname, "scripts", "bulk-create-products.js"), path.join(dir, "input.json")], { DATABASE_URL: env.db.url })
    const [made] = JSON.parse(fs.readFileSync(resultFile, "utf8"))
    fs.rmSync(dir, { recursive: true, force: true })
    const itemsBefore = await sql(env.db.url, "select id from inventory_item where sku = any($1) and deleted_at is null order by id", [
      input.variants.map((v) => v.sku),
    ])
    expect(itemsBefore.map((r) => r.id).sort()).toEqual(Object.values(made.inventoryItemIds).sort())

    const run = await sync()
    expect(run.created).toBe(1)
    await expectEqual()
    const live = await sql(env.db.url, "select id from product where external_id = $1 and deleted_at is null", [id])
    expect(live.map((r) => r.id)).toEqual([made.productId])
    const [map] = await sql(
      env.db.url,
      "select product_id, variant_ids, inventory_item_ids from mcs_product_map where catalog_id = $1 and deleted_at is null",
      [id]
    )
    expect(map).toMatchObject({ product_id: made.productId, variant_ids: made.variantIds, inventory_item_ids: made.inventoryItemIds })
    const itemsAfter = await sql(env.db.url, "select id from inventory_item where sku = any($1) and deleted_at is null order by id", [
      input.variants.map((v) => v.sku),
    ])
    expect(itemsAfter).toEqual(itemsBefore)
  })

  it("a product deleted in the admin is made again by its next change, once, and the map points at it", async () => {
    const { productId } = await productOf(shoe)
    const gone = await env.app.admin(`/admin/products/${productId}`, { method: "DELETE" })
    expect(gone.status).toBe(200)
    env.sb.control.mutate({ count: 1, kinds: ["description"], ids: [shoe] })
    const run = await sync()
    expect(run.created).toBe(1)
    await expectEqual()
    const live = await sql(env.db.url, "select id from product where external_id = $1 and deleted_at is null", [shoe])
    expect(live).toHaveLength(1)
    const [map] = await sql(env.db.url, "select product_id from mcs_product_map where catalog_id = $1 and deleted_at is null", [shoe])
    expect(map.product_id).toBe(live[0].id)
  })
})
