// Product-level updates as the product module's updateProducts writes them (deepUpdate):
// the product row's given columns with metadata merged into the stored one (mergeMetadata),
// the gallery replaced (inputs without ids: every old image row is deleted, orphan removal,
// and the new ones inserted with rank = position) and the category pivot set to exactly the
// given ids. One statement per table and page (products grouped by the columns they set).
import { mergeMetadata } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { ID_PREFIX, newId } from "./ids"
import { journal } from "./row-journal"
import { insertRows, json } from "./sql"
import { columnTypes, PRODUCT_COLUMN_LIST } from "../sync/product-columns"
import type { ProductFieldsUpdate } from "./types"

/** column → SQL type of the casts: the sync's column description, and the metadata. */
const COLUMN_TYPES: Record<string, string> = { ...columnTypes(PRODUCT_COLUMN_LIST), metadata: "jsonb" }

async function storedMetadata(trx: Knex.Transaction, productIds: string[]): Promise<Map<string, Record<string, unknown> | null>> {
  if (!productIds.length) return new Map()
  const rows: { id: string; metadata: Record<string, unknown> | null }[] = await trx("product").select("id", "metadata").whereIn("id", productIds)
  return new Map(rows.map((r) => [r.id, r.metadata]))
}

/**
 * Pure: the update statements of the given products, one per set of columns given (a column
 * absent or undefined is left as it is); `stored` is the metadata the given metadata merges into.
 */
export function productUpdateStatements(
  updates: ProductFieldsUpdate[],
  stored: ReadonlyMap<string, Record<string, unknown> | null>
): { sql: string; bindings: Knex.RawBinding[] }[] {
  const types = COLUMN_TYPES
  const groups = new Map<string, { columns: string[]; rows: ProductFieldsUpdate[] }>()
  for (const u of updates) {
    const given = u.columns as Record<string, unknown>
    const columns = Object.keys(given)
      .filter((c) => given[c] !== undefined && c in types)
      .sort()
    const key = columns.join(",")
    const group = groups.get(key) ?? { columns, rows: [] }
    group.rows.push(u)
    groups.set(key, group)
  }
  return [...groups.values()].map(({ columns, rows }) => {
    // updated_at moves whenever the module flushes the product (a collection change included).
    const sets = [...columns.map((c) => `${c} = v.${c}`), "updated_at = now()"].join(", ")
    const tuple = `(?, ${columns.map((c) => `?::${types[c]}`).join(", ")})`.replace(", )", ")")
    const bindings = rows.flatMap((u) => [
      u.productId,
      ...columns.map((c) => {
        if (c !== "metadata") return ((u.columns as Record<string, unknown>)[c] ?? null) as Knex.RawBinding
        const given = u.columns.metadata
        return json(given ? mergeMetadata(stored.get(u.productId) ?? {}, given) : given)
      }),
    ])
    const sql = `update product as p set ${sets}
         from (values ${rows.map(() => tuple).join(", ")}) as v(id${columns.map((c) => `, ${c}`).join("")})
        where p.id = v.id and p.deleted_at is null returning p.id`
    return { sql, bindings }
  })
}

async function updateProductRows(trx: Knex.Transaction, updates: ProductFieldsUpdate[]): Promise<void> {
  const withMetadata = updates.filter((u) => u.columns.metadata)
  const stored = await storedMetadata(
    trx,
    withMetadata.map((u) => u.productId)
  )
  for (const { sql, bindings } of productUpdateStatements(updates, stored)) {
    const { rows }: { rows: { id: string }[] } = await trx.raw(sql, bindings)
    journal(
      trx,
      "product",
      "updated",
      rows.map((r) => r.id)
    )
  }
}

async function replaceImages(trx: Knex.Transaction, updates: ProductFieldsUpdate[]): Promise<void> {
  const galleries = updates.filter((u) => u.images)
  if (!galleries.length) return
  const gone: { id: string; deleted_at: Date | null }[] = await trx("image")
    .whereIn(
      "product_id",
      galleries.map((u) => u.productId)
    )
    .del(["id", "deleted_at"])
  journal(
    trx,
    "image",
    "deleted",
    gone.filter((r) => !r.deleted_at).map((r) => r.id)
  )
  await insertRows(
    trx,
    "image",
    galleries.flatMap((u) => u.images!.map((url, rank) => ({ id: newId(ID_PREFIX.image), url, metadata: null, rank, product_id: u.productId })))
  )
}

async function setCategories(trx: Knex.Transaction, updates: ProductFieldsUpdate[]): Promise<void> {
  const moved = updates.filter((u) => u.categoryIds)
  if (!moved.length) return
  const current: { product_id: string; product_category_id: string }[] = await trx("product_category_product")
    .select("product_id", "product_category_id")
    .whereIn(
      "product_id",
      moved.map((u) => u.productId)
    )
  const has = new Set(current.map((r) => `${r.product_id} ${r.product_category_id}`))
  const wanted = new Set(moved.flatMap((u) => u.categoryIds!.map((c) => `${u.productId} ${c}`)))
  const stale = current.filter((r) => !wanted.has(`${r.product_id} ${r.product_category_id}`))
  if (stale.length) {
    await trx.raw(
      `delete from product_category_product d using (values ${stale.map(() => "(?, ?)").join(", ")}) as s(product_id, category_id)
        where d.product_id = s.product_id and d.product_category_id = s.category_id`,
      stale.flatMap((r) => [r.product_id, r.product_category_id])
    )
  }
  const added = [...wanted]
    .filter((k) => !has.has(k))
    .map((k) => {
      const [product_id, product_category_id] = k.split(" ")
      return { product_id, product_category_id }
    })
  await insertRows(trx, "product_category_product", added)
}

/** Returns the products updated (product.updated). */
export async function updateProducts(trx: Knex.Transaction, updates: ProductFieldsUpdate[]): Promise<string[]> {
  if (!updates.length) return []
  await updateProductRows(trx, updates)
  await replaceImages(trx, updates)
  await setCategories(trx, updates)
  return updates.map((u) => u.productId)
}
