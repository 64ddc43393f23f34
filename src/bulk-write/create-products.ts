// New products in bulk: the rows createProductsWorkflow (with prices, inventory items and
// sales channel) + createInventoryLevelsWorkflow write for the same input, table by table,
// planned in memory (pure) and inserted with one multi-row statement per table.
import type { Knex } from "knex"
import { nullColumns, objectTemplate, PRODUCT_COLUMN_LIST } from "../sync/product-columns"
import { rawValue, normalizedDecimal } from "./amounts"
import { ID_PREFIX, newId } from "./ids"
import { insertRows, json, newPriceRow } from "./sql"
import type { BulkPlacement, BulkProduct, BulkVariant, CreatedBulkProduct } from "./types"

type Row = Record<string, unknown>

export interface ProductRows {
  product: Row[]
  product_option: Row[]
  product_option_value: Row[]
  product_product_option: Row[]
  product_product_option_value: Row[]
  product_variant: Row[]
  product_variant_option: Row[]
  image: Row[]
  product_category_product: Row[]
  product_sales_channel: Row[]
  product_shipping_profile: Row[]
  price_set: Row[]
  price: Row[]
  inventory_item: Row[]
  inventory_level: Row[]
  product_variant_price_set: Row[]
  product_variant_inventory_item: Row[]
}

/** Insert order: every foreign key points at a row inserted before it. */
export const PRODUCT_TABLES: (keyof ProductRows)[] = [
  "product",
  "product_option",
  "product_option_value",
  "product_product_option",
  "product_product_option_value",
  "product_variant",
  "product_variant_option",
  "image",
  "product_category_product",
  "product_sales_channel",
  "product_shipping_profile",
  "price_set",
  "price",
  "inventory_item",
  "inventory_level",
  "product_variant_price_set",
  "product_variant_inventory_item",
]

const ZERO = rawValue("0")

/**
 * Rows for the given products. Timestamps are left to the columns' defaults (now(), the
 * transaction's start: one instant per page, as Medusa's one call per page gives one instant).
 */
export function planProductRows(products: BulkProduct[], placement: BulkPlacement): { rows: ProductRows; created: CreatedBulkProduct[] } {
  const rows = emptyProductRows()
  const created: CreatedBulkProduct[] = []
  for (const p of products) planOneProduct(rows, created, p, placement)
  return { rows, created }
}

/** Products whose rows are planned between two turns of the event loop. */
export const PLAN_ROWS_SLICE_PRODUCTS = 25

/**
 * The same rows as planProductRows, planned in slices of `sliceProducts` products with `turn()`
 * awaited between them: a page's new products planned at once held the process's other requests
 * (a shop's, when the sync runs in the server) for tens of milliseconds, more on a busy machine.
 */
export async function planProductRowsInSlices(
  products: BulkProduct[],
  placement: BulkPlacement,
  turn: () => Promise<void>,
  sliceProducts = PLAN_ROWS_SLICE_PRODUCTS
): Promise<{ rows: ProductRows; created: CreatedBulkProduct[] }> {
  const rows = emptyProductRows()
  const created: CreatedBulkProduct[] = []
  for (let i = 0; i < products.length; i++) {
    if (i > 0 && i % sliceProducts === 0) await turn()
    planOneProduct(rows, created, products[i], placement)
  }
  return { rows, created }
}

function planOneProduct(rows: ProductRows, created: CreatedBulkProduct[], p: BulkProduct, placement: BulkPlacement): void {
  const productId = newId(ID_PREFIX.product)
  rows.product.push(productRow(productId, p))
  // Inline options are product-own ("exclusive") options since 2.16, joined through
  // product_product_option and product_product_option_value.
  const valueIds = new Map<string, string>() // `${title}\u0000${value}` → optval id
  for (const o of p.options) {
    const optionId = newId(ID_PREFIX.option)
    rows.product_option.push({ id: optionId, title: o.title, metadata: null, is_exclusive: true })
    const productOptionId = newId(ID_PREFIX.productOption)
    rows.product_product_option.push({ id: productOptionId, product_id: productId, product_option_id: optionId })
    o.values.forEach((value) => {
      const valueId = newId(ID_PREFIX.optionValue)
      valueIds.set(`${o.title}\u0000${value}`, valueId)
      rows.product_option_value.push({ id: valueId, value, option_id: optionId, metadata: null, rank: null })
      rows.product_product_option_value.push({
        id: newId(ID_PREFIX.productOptionValue),
        product_product_option_id: productOptionId,
        product_option_value_id: valueId,
      })
    })
  }
  p.images.forEach((url, rank) => {
    rows.image.push({ id: newId(ID_PREFIX.image), url, metadata: null, rank, product_id: productId })
  })
  for (const categoryId of p.categoryIds) rows.product_category_product.push({ product_id: productId, product_category_id: categoryId })
  rows.product_sales_channel.push({ id: newId(ID_PREFIX.productSalesChannel), product_id: productId, sales_channel_id: placement.salesChannelId })
  if (placement.shippingProfileId) {
    rows.product_shipping_profile.push({
      id: newId(ID_PREFIX.productShippingProfile),
      product_id: productId,
      shipping_profile_id: placement.shippingProfileId,
    })
  }
  const variants = p.variants.map((v, rank) => planVariantRows(rows, productId, v, rank, (title, value) => valueIds.get(`${title}\u0000${value}`), placement))
  created.push({ productId, handle: p.handle, variants })
}

const PRODUCT_ROW = objectTemplate([["id", null], ...nullColumns(PRODUCT_COLUMN_LIST), ["is_giftcard", false], ["discountable", true], ["metadata", null]])

/**
 * A new product's row: the described columns (src/sync/product-columns.ts, absent = NULL), then
 * what createProducts sets by default and the metadata.
 */
function productRow(productId: string, p: BulkProduct): Row {
  const values = p as unknown as Record<string, unknown>
  const row = { ...PRODUCT_ROW }
  row.id = productId
  for (let i = 0; i < PRODUCT_COLUMN_LIST.length; i++) {
    const name = PRODUCT_COLUMN_LIST[i].name
    row[name] = values[name] ?? null
  }
  row.metadata = json(p.metadata)
  return row
}

/** An empty set of tables to plan rows into. */
export function emptyProductRows(): ProductRows {
  return Object.fromEntries(PRODUCT_TABLES.map((t) => [t, []])) as unknown as ProductRows
}

/**
 * One variant's rows as createProductsWorkflow (and the update workflow's added sizes) write them:
 * the variant with its option value links, a price set (with the base price, if any), an inventory
 * item with its level at the placement's location, and the variant's price set and item links.
 */
export function planVariantRows(
  rows: ProductRows,
  productId: string,
  v: BulkVariant,
  rank: number,
  valueIdOf: (optionTitle: string, value: string) => string | undefined,
  placement: BulkPlacement
): CreatedBulkProduct["variants"][number] {
  const variantId = newId(ID_PREFIX.variant)
  rows.product_variant.push({
    id: variantId,
    title: v.title,
    sku: v.sku,
    allow_backorder: false,
    manage_inventory: true,
    metadata: json(v.metadata),
    variant_rank: rank,
    product_id: productId,
  })
  for (const [title, value] of Object.entries(v.options)) {
    const valueId = valueIdOf(title, value)
    if (!valueId) throw new Error(`variant ${v.sku}: option ${title} has no value ${value}`)
    rows.product_variant_option.push({ variant_id: variantId, option_value_id: valueId })
  }
  const priceSetId = newId(ID_PREFIX.priceSet)
  rows.price_set.push({ id: priceSetId })
  if (v.amount !== null) {
    rows.price.push(newPriceRow(priceSetId, placement.currencyCode, normalizedDecimal(v.amount), null))
  }
  const itemId = newId(ID_PREFIX.inventoryItem)
  const title = v.inventoryTitle ?? v.title
  const description = v.inventoryDescription === undefined ? title : v.inventoryDescription
  rows.inventory_item.push({ id: itemId, sku: v.sku, requires_shipping: true, title, description })
  const levelId = newId(ID_PREFIX.inventoryLevel)
  const stocked = rawValue(v.stock)
  rows.inventory_level.push({
    id: levelId,
    inventory_item_id: itemId,
    location_id: placement.stockLocationId,
    stocked_quantity: stocked.value,
    reserved_quantity: "0",
    incoming_quantity: "0",
    raw_stocked_quantity: json(stocked),
    raw_reserved_quantity: json(ZERO),
    raw_incoming_quantity: json(ZERO),
  })
  rows.product_variant_price_set.push({ id: newId(ID_PREFIX.variantPriceSet), variant_id: variantId, price_set_id: priceSetId })
  rows.product_variant_inventory_item.push({
    id: newId(ID_PREFIX.variantInventoryItem),
    variant_id: variantId,
    inventory_item_id: itemId,
    required_quantity: 1,
  })
  return { sku: v.sku, variantId, priceSetId, inventoryItemId: itemId, inventoryLevelId: levelId }
}

export async function insertProductRows(trx: Knex.Transaction, rows: ProductRows): Promise<void> {
  for (const table of PRODUCT_TABLES) await insertRows(trx, table, rows[table])
}
