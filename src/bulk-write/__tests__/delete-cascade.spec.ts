// deleteCascade in the bulk removal, against the real server in a scratch database with the
// columns the removal touches: a link with a product side whose other side declares deleteCascade
// (another plugin's defineLink(…, { …, deleteCascade: true }), registered here as the app's link
// loader registers it) has its other side soft-deleted after the commit through that module's
// `softDelete<suffix>`, as Medusa's Link cascade calls it; its link rows go in the transaction;
// records linked to products that stay are left alone; product_variant_price_set (cascaded in SQL)
// is not handed to a module.
import knexFactory from "knex"
import { MedusaModule } from "@medusajs/framework/modules-sdk"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createDatabase, dropDatabase, PG, scratchDatabaseName } from "../../__tests__/scratch-database"
import { cascadeLinks } from "../link-tables"
import { writePageInBulk } from "../page-writer"

const DB = scratchDatabaseName("cascade")
jest.setTimeout(60_000)

const soft = "deleted_at timestamptz, updated_at timestamptz default now()"
const TABLES: Record<string, string> = {
  product: "id text primary key",
  product_variant: "id text primary key, product_id text, manage_inventory boolean",
  product_variant_inventory_item: "id text primary key, variant_id text, inventory_item_id text",
  inventory_item: "id text primary key",
  inventory_level: "id text primary key, inventory_item_id text",
  product_variant_price_set: "id text primary key, variant_id text, price_set_id text",
  price_set: "id text primary key",
  price: "id text primary key, price_set_id text",
  price_rule: "id text primary key, price_id text",
  image: "id text primary key, product_id text",
  product_option: "id text primary key, is_exclusive boolean",
  product_option_value: "id text primary key, option_id text",
  product_product_option: "id text primary key, product_id text, product_option_id text",
  product_product_option_value: "id text primary key, product_product_option_id text",
  product_sales_channel: "id text primary key, product_id text, sales_channel_id text",
  product_shipping_profile: "id text primary key, product_id text, shipping_profile_id text",
  product_product_test_widget_widget: "id text primary key, product_id text, widget_id text",
}

// As @medusajs/utils defineLink registers { linkable: product }, { linkable: widget, deleteCascade: true }.
const WIDGET_LINK = {
  isLink: true,
  serviceName: "ProductProductTestWidgetWidget",
  databaseConfig: { tableName: "product_product_test_widget_widget" },
  relationships: [
    { serviceName: Modules.PRODUCT, primaryKey: "id", foreignKey: "product_id", args: { methodSuffix: "Products" } },
    { serviceName: "test_widget", primaryKey: "id", foreignKey: "widget_id", deleteCascade: true, args: { methodSuffix: "Widgets" } },
  ],
}
const PRICE_SET_LINK = {
  isLink: true,
  databaseConfig: { tableName: "product_variant_price_set" },
  relationships: [
    { serviceName: Modules.PRODUCT, primaryKey: "id", foreignKey: "variant_id" },
    { serviceName: Modules.PRICING, primaryKey: "id", foreignKey: "price_set_id", deleteCascade: true, args: { methodSuffix: "PriceSets" } },
  ],
}

describe("bulk removal honours deleteCascade links", () => {
  let knex: ReturnType<typeof knexFactory>

  beforeAll(async () => {
    await createDatabase(DB)
    knex = knexFactory({ client: "pg", connection: { ...PG, database: DB }, pool: { min: 0, max: 2 } })
    for (const [table, columns] of Object.entries(TABLES)) await knex.raw(`create table ${table} (${columns}, ${soft})`)
    jest.spyOn(MedusaModule, "getAllJoinerConfigs").mockReturnValue([WIDGET_LINK, PRICE_SET_LINK] as never)
  })
  afterAll(async () => {
    await knex?.destroy()
    await dropDatabase(DB)
  })

  it("finds the app's cascading links with a product side, the price set link left to the SQL", () => {
    expect(cascadeLinks()).toEqual([
      {
        table: "product_product_test_widget_widget",
        column: "product_id",
        otherColumn: "widget_id",
        serviceName: "test_widget",
        primaryKey: "id",
        methodSuffix: "Widgets",
      },
    ])
  })

  it("soft-deletes the removed products' widgets through the widget module after the commit, and only theirs", async () => {
    await knex("product").insert([{ id: "prod_a" }, { id: "prod_b" }])
    await knex("product_product_test_widget_widget").insert([
      { id: "l1", product_id: "prod_a", widget_id: "w1" },
      { id: "l2", product_id: "prod_a", widget_id: "w2" },
      { id: "l3", product_id: "prod_b", widget_id: "w3" },
    ])
    const calls: { method: string; args: unknown; productsCommitted: boolean }[] = []
    const widgets = {
      softDeleteWidgets: async (args: unknown) => {
        // Called after the commit: another connection sees the product deleted.
        const [row] = await knex("product").select("deleted_at").where("id", "prod_a")
        calls.push({ method: "softDeleteWidgets", args, productsCommitted: row.deleted_at !== null })
      },
    }
    const emitted: unknown[] = []
    const container = {
      resolve: (key: string) => {
        if (key === ContainerRegistrationKeys.PG_CONNECTION) return knex
        if (key === Modules.EVENT_BUS) return { emit: async (m: unknown) => void emitted.push(m) }
        if (key === "test_widget") return widgets
        throw new Error(`unexpected resolve ${key}`)
      },
    }
    const removed = await writePageInBulk(container as never, (page) => page.removeProducts(["prod_a"]))
    expect(removed.productIds).toEqual(["prod_a"])
    expect(calls).toEqual([{ method: "softDeleteWidgets", args: { id: expect.arrayContaining(["w1", "w2"]) }, productsCommitted: true }])
    expect((calls[0].args as { id: string[] }).id).toHaveLength(2)
    const links = await knex("product_product_test_widget_widget").select("id", "deleted_at").orderBy("id")
    expect(links.map((l) => [l.id, l.deleted_at !== null])).toEqual([
      ["l1", true],
      ["l2", true],
      ["l3", false],
    ])
  })
})
