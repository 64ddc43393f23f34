import { model } from "@medusajs/framework/utils"

/**
 * A removal a run holds instead of applying (src/sync-run/held-removals.ts): a changes-feed
 * `removed` item, a product the end-of-pass sweep found unseen, or one a narrowed filter no
 * longer keeps. Held until the run has read its last page, judged there by the safety brake
 * with every other held removal, and applied only then (or after the admin confirms).
 * `status`: held → applied | approved (confirmed, applied by the continuing run) → applied |
 * discarded | returned (the catalog sent the product again before it was applied).
 * `paused_run_id`: the paused run whose preview listed it (what that run's answer covers).
 */
const CatalogHeldRemoval = model
  .define(
    { name: "catalog_held_removal", tableName: "mcs_held_removal" },
    {
      id: model.id({ prefix: "cshold" }).primaryKey(),
      catalog_id: model.text(),
      product_id: model.text().nullable(),
      source: model.text(),
      status: model.text(),
      held_by_run_id: model.text().nullable(),
      paused_run_id: model.text().nullable(),
      resolved_at: model.dateTime().nullable(),
    }
  )
  .indexes([
    // One pending removal per product: a page replayed after a crash holds nothing twice.
    { on: ["catalog_id"], unique: true, where: "deleted_at IS NULL AND status IN ('held', 'approved')" },
    { on: ["status"], where: "deleted_at IS NULL" },
    { on: ["paused_run_id"], where: "deleted_at IS NULL AND paused_run_id IS NOT NULL" },
  ])

export default CatalogHeldRemoval
