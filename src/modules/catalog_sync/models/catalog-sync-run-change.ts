import { model } from "@medusajs/framework/utils"

/**
 * One product a run changed: created, updated (with what changed), removed, drafted or
 * rejected. Kept compact: flags rather than diffs, prices as exact decimal text, and a
 * capped number of rows per run (src/sync/change-log-policy.ts);
 * the run's own counts stay the totals.
 */
const CatalogSyncRunChange = model
  .define(
    { name: "catalog_sync_run_change", tableName: "mcs_sync_run_change" },
    {
      id: model.id({ prefix: "cschg" }).primaryKey(),
      run_id: model.text(),
      catalog_id: model.text().nullable(),
      product_id: model.text().nullable(),
      // The product's title when the change was recorded, for search and display.
      title: model.text().nullable(),
      kind: model.enum(["created", "updated", "removed", "drafted", "rejected"]),
      price_changed: model.boolean().default(false),
      stock_changed: model.boolean().default(false),
      sizes_changed: model.boolean().default(false),
      images_changed: model.boolean().default(false),
      text_changed: model.boolean().default(false),
      // Selling price before and after, exact decimal text ("1287.50"), for repricing.
      price_before: model.text().nullable(),
      price_after: model.text().nullable(),
      // A rejected or drafted product's reason, in plain words.
      reason: model.text().nullable(),
      // What the product's field locks kept out of the write, with the catalog's value (e.g.
      // { prices: "5963.02" }): shown as "held by your lock", never as a change.
      held: model.json().nullable(),
    }
  )
  .indexes([{ on: ["run_id", "kind"] }, { on: ["catalog_id"] }, { on: ["product_id", "created_at"] }])

export default CatalogSyncRunChange
