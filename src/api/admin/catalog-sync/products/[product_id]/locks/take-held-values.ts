// Unlocking takes the catalog's value: the held title, description, images and categories are
// written now (recorded first as what the sync wrote, so auto-lock does not see an admin edit);
// prices and stock follow at the product's next sync (its map row's fingerprints are cleared).
import type { MedusaContainer } from "@medusajs/framework/types"
import { updateProductsWorkflow } from "@medusajs/medusa/core-flows"
import type { LockableField, PlannedFieldValues } from "../../../../../../field-locks"
import { catalogSyncService } from "../../../helpers"

type Resolver = Pick<MedusaContainer, "resolve">

/** The product update that writes held product fields (none for prices and stock). */
export function heldProductUpdate(held: PlannedFieldValues, fields: readonly LockableField[]): Record<string, unknown> {
  const update: Record<string, unknown> = {}
  if (fields.includes("title") && held.title !== undefined) update.title = held.title
  if (fields.includes("description") && held.description !== undefined) update.description = held.description
  if (fields.includes("images") && held.images !== undefined) {
    update.images = held.images.map((url) => ({ url }))
    update.thumbnail = held.images[0] ?? null
  }
  if (fields.includes("categories") && held.categories !== undefined) update.category_ids = held.categories
  return update
}

export async function takeHeldValues(scope: Resolver, input: { productId: string; mapRowId: string; fields: LockableField[] }) {
  const service = catalogSyncService(scope)
  const row = (await service.listFieldLockRows([input.productId])).get(input.productId)
  const held = (row?.held ?? {}) as PlannedFieldValues
  const update = heldProductUpdate(held, input.fields)
  if (Object.keys(update).length) {
    const taken = Object.fromEntries(input.fields.filter((f) => f !== "prices" && f !== "stock" && held[f] !== undefined).map((f) => [f, held[f]]))
    await service.mergeFieldValues("written", [{ productId: input.productId, catalogId: row?.catalog_id ?? null, values: taken }])
    await updateProductsWorkflow(scope as MedusaContainer).run({ input: { selector: { id: input.productId }, update } })
  }
  if (input.fields.includes("prices") || input.fields.includes("stock")) {
    await service.updateCatalogProductMaps({ id: input.mapRowId, fingerprint: null, stock_fingerprint: null } as any)
  }
  await service.dropHeldValues(input.productId, input.fields)
}
