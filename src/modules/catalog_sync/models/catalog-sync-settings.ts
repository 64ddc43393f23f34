import { model } from "@medusajs/framework/utils"

/**
 * The admin's settings for one store (a single row). Values saved here take
 * precedence over the plugin options in medusa-config. Percentages are kept as
 * decimal strings so they reach the catalog API exactly as the admin typed them.
 */
const CatalogSyncSettings = model.define(
  { name: "catalog_sync_settings", tableName: "mcs_sync_settings" },
  {
    id: model.id({ prefix: "cssettings" }).primaryKey(),
    base_url: model.text().nullable(),
    // AES-256-GCM: "v1:<iv>:<tag>:<ciphertext>" (base64). Never returned by any route.
    api_key_encrypted: model.text().nullable(),
    api_key_last4: model.text().nullable(),
    // sha256 of the key, first 16 hex chars: names the key in Redis and detects a key change.
    api_key_hash: model.text().nullable(),
    price_calculation: model.enum(["min", "avg", "max"]).default("max"),
    markup_percent: model.text().nullable(),
    discount_percent: model.text().nullable(),
    old_price_markup_percent: model.text().nullable(),
    poll_interval_minutes: model.number().default(10),
    stock_location_id: model.text().nullable(),
    sales_channel_id: model.text().nullable(),
    removal_mode: model.enum(["delete", "draft"]).default("delete"),
    primary_language: model.enum(["uk", "ru"]).default("uk"),
    enabled: model.boolean().default(true),
    // The shop's own pricing rules (src/pricing/rules.ts), normalised; null = the API parameters
    // above as rules (rulesFromApiPricing). Bumped revision on every change of the rules.
    pricing_rules: model.json().nullable(),
    pricing_rules_revision: model.number().default(0),
    // Safety brake thresholds { removal_percent, lowered_prices_percent, price_drop_percent }; null = defaults.
    brake: model.json().nullable(),
    // Copy product images into the shop's File module (src/image-mirror); off by default.
    mirror_images: model.boolean().default(false),
    // Field locks shop-wide { locked: [...], auto_lock_on_admin_edit } (src/field-locks); null = none.
    field_locks: model.json().nullable(),
    // Which catalog products the shop imports (src/catalog-filter); null = all.
    filter: model.json().nullable(),
    // Where the plugin's alerts are emailed too, when the shop has an email notification provider (src/queue/catalog-sync-alerts.ts); null = feed only.
    alert_email: model.text().nullable(),
    // Bumped on every save; a run blocked by 401/403 stays blocked until this changes.
    revision: model.number().default(1),
  }
)

export default CatalogSyncSettings
