// Every table and column the bulk writer reads or writes, in one place, for the schema guard
// (src/bulk-write/schema-guard.ts). The insert columns come from the writer's own row planner
// (a sample product planned in memory, so a column added to the planner is checked without
// listing it here); the columns its updates, soft deletes and reads use besides are listed below.
import { planProductRows, PRODUCT_TABLES } from "./create-products"
import { productLinkTables } from "./link-tables"

/** Columns beyond the inserts: soft deletes and updates stamp deleted_at/updated_at; reads filter on these. */
const OTHER_COLUMNS: Record<string, string[]> = {
  product: ["deleted_at", "updated_at", "created_at"],
  product_option: ["deleted_at", "updated_at"],
  product_option_value: ["deleted_at", "updated_at"],
  product_product_option: ["deleted_at", "updated_at"],
  product_product_option_value: ["deleted_at", "updated_at"],
  product_variant: ["deleted_at", "updated_at"],
  product_variant_option: [],
  image: ["deleted_at", "updated_at"],
  product_category_product: [],
  product_sales_channel: ["deleted_at", "updated_at"],
  product_shipping_profile: ["deleted_at", "updated_at"],
  price_set: ["deleted_at", "updated_at"],
  price: ["deleted_at", "updated_at", "created_at"],
  price_rule: ["price_id", "deleted_at", "updated_at"],
  inventory_item: ["deleted_at", "updated_at"],
  inventory_level: ["deleted_at", "updated_at"],
  product_variant_price_set: ["deleted_at", "updated_at"],
  product_variant_inventory_item: ["deleted_at", "updated_at"],
  translation: ["id", "reference", "reference_id", "locale_code", "translations", "translated_field_count", "deleted_at", "updated_at"],
}

/** Tables that exist only with an optional module: absent whole, they are not a difference (the writer then does not use them). */
export const OPTIONAL_TABLES: readonly string[] = ["translation"]

/** table → the columns the bulk writer uses, sorted. */
export function bulkWriteSchema(): Record<string, string[]> {
  const { rows } = planProductRows(
    [
      {
        title: "t",
        handle: "h",
        status: "published",
        subtitle: "s",
        description: "d",
        thumbnail: "u",
        weight: 1,
        length: 1,
        width: 1,
        height: 1,
        origin_country: "ua",
        material: "m",
        external_id: "1",
        metadata: {},
        images: ["u"],
        categoryIds: ["c"],
        options: [{ title: "o", values: ["v"] }],
        variants: [{ title: "v", sku: "s", options: { o: "v" }, amount: "1", stock: 1, metadata: {} }],
      },
    ],
    { salesChannelId: "sc", stockLocationId: "sl", shippingProfileId: "sp", currencyCode: "uah" }
  )
  const out = new Map<string, Set<string>>()
  const add = (table: string, columns: Iterable<string>) => {
    const set = out.get(table) ?? new Set<string>()
    for (const c of columns) set.add(c)
    out.set(table, set)
  }
  for (const table of PRODUCT_TABLES)
    add(
      table,
      rows[table].flatMap((r) => Object.keys(r))
    )
  for (const [table, columns] of Object.entries(OTHER_COLUMNS)) add(table, columns)
  // The product's link tables (the app's own links included): soft-deleted by the removals.
  for (const { table, column } of productLinkTables()) add(table, [column, "deleted_at", "updated_at"])
  return Object.fromEntries([...out].map(([t, c]) => [t, [...c].sort()]))
}
