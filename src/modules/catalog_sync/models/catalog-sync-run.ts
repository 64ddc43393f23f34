import { model } from "@medusajs/framework/utils"

/** One sync run: what started it, what it did, and how it ended. */
const CatalogSyncRun = model
  .define(
    { name: "catalog_sync_run", tableName: "mcs_sync_run" },
    {
      id: model.id({ prefix: "csrun" }).primaryKey(),
      // "schedule" | "manual" | "settings" | "retry" | "rules_changed"
      trigger: model.text(),
      // "reprice": new pricing rules applied to the stored costs, no API request.
      mode: model.enum(["changes", "full", "reprice"]),
      // "paused": the safety brake stopped it before a write; it waits for confirm or discard.
      status: model.enum(["queued", "running", "paused", "succeeded", "failed", "interrupted"]).default("queued"),
      started_at: model.dateTime().nullable(),
      finished_at: model.dateTime().nullable(),
      pages: model.number().default(0),
      items_seen: model.number().default(0),
      created: model.number().default(0),
      updated: model.number().default(0),
      stock_only: model.number().default(0),
      unchanged: model.number().default(0),
      removed: model.number().default(0),
      skipped: model.number().default(0),
      swept: model.number().default(0),
      requests_used: model.number().default(0),
      // The raw code (ECONNREFUSED, 57P01, rate_limited, …) and its class (network, timeout,
      // database, …; src/sync/failure-class.ts), which decides retry, resume or stop.
      error_code: model.text().nullable(),
      error_class: model.text().nullable(),
      error_message: model.text().nullable(),
      // [{ id: string | null, reason: string }], capped so a broken feed cannot bloat a row.
      rejected_items: model.json().nullable(),
      // { phase, restarts, ... } while running.
      progress: model.json().nullable(),
      job_id: model.text().nullable(),
      // The safety brake: why the run paused and what it would do ({ reasons, preview }), and the
      // admin's answer ({ action: "confirmed" | "discarded", user_id, at }).
      brake: model.json().nullable(),
      brake_resolution: model.json().nullable(),
    }
  )
  .indexes([{ on: ["created_at"] }, { on: ["status"] }])

export default CatalogSyncRun
