// GET  /admin/catalog-sync/products/:product_id/locks: which fields the sync manages on the
//      product, which are locked (by the shop's default or the product), and what the catalog
//      said last for a locked field (the value the sync kept out).
// POST /admin/catalog-sync/products/:product_id/locks {fields, locked}: locks or unlocks fields.
//      Unlocking takes the catalog's value: title, description, images and categories at once
//      (the held value is written), prices and stock at the product's next sync (its map row's
//      fingerprints are cleared, so its next sync rewrites all its parts).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { LOCKABLE_FIELDS, lockableFieldSchema, type LockableField } from "../../../../../../field-locks"
import { catalogSyncService, invalidData, zodFieldErrors } from "../../../helpers"
import { takeHeldValues } from "./take-held-values"

const lockBodySchema = z
  .object({
    fields: z.array(lockableFieldSchema).min(1, "must name at least one field"),
    locked: z.boolean(),
  })
  .strict()

async function mappedRow(req: MedusaRequest) {
  const [map] = await catalogSyncService(req.scope).listCatalogProductMaps({ product_id: req.params.product_id }, { take: 1, order: { created_at: "DESC" } })
  return map ?? null
}

async function lockView(req: MedusaRequest) {
  const service = catalogSyncService(req.scope)
  const productId = req.params.product_id
  const [map, defaults, rows, locks] = await Promise.all([
    mappedRow(req),
    service.getFieldLockDefaults(),
    service.listFieldLockRows([productId]),
    service.readFieldLocks([productId]),
  ])
  const row = rows.get(productId)
  const locked = locks[productId] ?? []
  const held = (row?.held ?? {}) as Record<string, unknown>
  return {
    managed: !!map,
    catalog_id: map?.catalog_id ?? null,
    auto_lock_on_admin_edit: defaults.auto_lock_on_admin_edit,
    held_at: row?.held_at ?? null,
    fields: LOCKABLE_FIELDS.map((field) => ({
      field,
      locked: locked.includes(field),
      // "product": this product's own lock; "shop": the shop-wide default.
      locked_by: !locked.includes(field) ? null : (row?.lock ?? []).includes(field) ? "product" : "shop",
      catalog_value: locked.includes(field) ? (held[field] ?? null) : null,
    })),
  }
}

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  res.json({ locks: await lockView(req) })
}

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const parsed = lockBodySchema.safeParse(req.body ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error))
  const map = await mappedRow(req)
  if (!map) return res.status(404).json({ type: "not_found", message: "This product is not managed by the catalog sync." })
  const productId = req.params.product_id
  const fields = [...new Set(parsed.data.fields)] as LockableField[]
  const service = catalogSyncService(req.scope)
  await service.setProductFieldLock(productId, map.catalog_id, fields, parsed.data.locked)
  if (!parsed.data.locked) {
    const stillLocked = (await service.readFieldLocks([productId]))[productId] ?? []
    const unlocked = fields.filter((f) => !stillLocked.includes(f))
    if (unlocked.length) await takeHeldValues(req.scope, { productId, mapRowId: map.id, fields: unlocked })
  }
  res.json({ locks: await lockView(req) })
}
