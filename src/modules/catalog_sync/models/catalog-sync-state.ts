import type { InferTypeOf } from "@medusajs/framework/types"
import { model } from "@medusajs/framework/utils"
import type { PricingParams } from "../../../sync/settings/effective-settings"

/**
 * Where the sync stands (a single row): the bookmark into the changes feed and
 * the pricing it was made with, the full pass in progress (for the sweep), the
 * current run, and why the schedule is paused when the key or plan is refused.
 */
const CatalogSyncState = model.define(
  { name: "catalog_sync_state", tableName: "mcs_sync_state" },
  {
    id: model.id({ prefix: "csstate" }).primaryKey(),
    cursor: model.text().nullable(),
    // The pricing parameters sent with every request that produced `cursor`.
    cursor_pricing: model.json().nullable(),
    // "never" | "full_export" | "changes"
    phase: model.text().default("never"),
    // Set while a pass that began without a cursor runs; products of the map not
    // seen in that pass are swept when it ends.
    full_pass_id: model.text().nullable(),
    full_pass_started_at: model.dateTime().nullable(),
    last_full_pass_finished_at: model.dateTime().nullable(),
    current_run_id: model.text().nullable(),
    // "invalid_api_key" | "plan_required" | null, with the settings revision it applies to.
    blocked_code: model.text().nullable(),
    blocked_message: model.text().nullable(),
    blocked_revision: model.number().nullable(),
    // ETag / Last-Modified and hashes of the reference endpoints (categories, brands, models).
    reference_cache: model.json().nullable(),
    // The safety brake's memory: { approved: catalog ids whose removal the admin confirmed (for the
    // run that continues the paused one), discarded: catalog ids whose removal the admin discarded
    // (never removed by a later run or sweep until the catalog sends the product again) }.
    brake_memory: model.json().nullable(),
    // The filter the shop's products were last brought in line with (null: everything).
    applied_filter: model.json().nullable(),
  }
)

/**
 * The state row with its JSON column typed: cursor_pricing holds the pricing parameters the
 * cursor was made with. (reference_cache is the reference data's own: ReferenceCache.)
 */
export type CatalogSyncStateRow = Omit<InferTypeOf<typeof CatalogSyncState>, "cursor_pricing"> & { cursor_pricing: PricingParams | null }

export default CatalogSyncState
