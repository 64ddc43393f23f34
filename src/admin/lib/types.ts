// Shapes of the plugin's admin API (docs/contracts.md "Admin API"). The UI reads
// them defensively: optional fields may be absent while the API evolves.
// Type-only imports from the server side: erased at build, so the admin bundle stays free of them.
import type { PublicSettings } from "../../sync/settings"
import type { QuotaToday } from "../../sync/requests-today"
import type { RunCounts } from "../../sync-run/counts"

import type { RulesPreview } from "../../api/admin/catalog-sync/pricing/preview/preview-plan"
import type { PricingRules } from "../../pricing"

export type { Language, PriceCalculation, RemovalMode } from "../../sync/settings"

/** POST /pricing/preview: the summary over every stored cost and 10 sampled products. */
export type RulesPreviewResult = RulesPreview & { price_calculation: string; currency_code: string }

/** GET /pricing/references: the synced category tree and brands, by catalog id. */
export type PricingReferences = {
  categories: { id: string; name: string; parent_id: string | null }[]
  brands: { id: string; name: string }[]
}

/** The safety brake's thresholds as the settings API names them (percent text). */
export type BrakeSettings = { remove_percent: string; price_drop_share_percent: string; price_drop_percent: string }

/** What the settings carry about the shop's own pricing rules (absent on a server without them). */
export type PricingRulesSettings = {
  pricing_rules?: PricingRules
  pricing_rules_saved?: boolean
  pricing_rules_revision?: number
  brake?: BrakeSettings
}

/** GET /admin/catalog-sync/settings: the key masked, e.g. "••••1234". */
export type SyncSettings = Omit<PublicSettings, "filter"> & PricingRulesSettings & { filter?: PublicSettings["filter"] }

export type RunStatus = "queued" | "running" | "paused" | "succeeded" | "failed" | "interrupted"

/** A rejected item of a run (or, with `kept`, a part dropped from a kept item). */
export type RejectedItem = { id: string | null; field?: string | null; reason: string; excerpt?: string; kept?: boolean }

export type RunProgress = {
  phase?: string | null
  restarts?: number | null
  pages?: number | null
  items_seen?: number | null
  [key: string]: unknown
}

export type Run = RunCounts & {
  id: string
  trigger: string
  mode: "changes" | "full" | "reprice"
  status: RunStatus
  started_at: string | null
  finished_at: string | null
  created_at?: string | null
  error_code: string | null
  error_message: string | null
  rejected_items?: RejectedItem[] | null
  rejected_count?: number
  progress?: RunProgress | null
  /** The admin's answer to a run the safety brake paused. */
  brake_resolution?: {
    action?: string
    user_id?: string | null
    at?: string
    removals?: number
    price_drops?: number
    /** The run queued to carry the answer out (answers recorded before it was kept have none). */
    continued_by?: string
  } | null
}

export type AccountInfo = {
  plan: string | null
  plan_expires_at: string | null
  limits: {
    requests_per_minute: number
    requests_per_day: number
    page_size_max: number
    stock_batch_max: number
    max_concurrent: number
  }
  usage: { requests_today: number; quota_enforced: boolean }
}

export type RemoteError = { code: string; message: string; request_id?: string | null; expired_at?: string | null }

export type SyncState =
  "idle" | "paused" | "running" | "resuming" | "stalled" | "overdue" | "failed" | "key_invalid" | "plan_required" | "not_configured" | "disabled"

export type SyncStatus = {
  state: SyncState
  phase: string | null
  running_run: Run | null
  /** The interrupted run whose work a worker is about to resume (state "resuming"). */
  resuming_run?: Run | null
  last_run: Run | null
  next_run_at: string | null
  /** No run started for over two poll intervals although one should have (state "overdue"). */
  overdue?: { since: string; threshold_ms: number } | null
  products_synced: number
  account: AccountInfo | null
  account_error: RemoteError | null
  quota: { rate_limit_remaining: number | null; quota_remaining: number | null } | null
  /** Why scheduled runs are paused (key refused, plan required), when they are. */
  blocked?: { code: string | null; message: string | null } | null
  /** The catalog's expected size for a running full pass; null when unknown (a first sync). */
  expected_total?: number | null
  /** Requests the catalog counted today for the key (src/sync/requests-today.ts; the one source of quota figures). */
  requests_today?: QuotaToday | null
  expected_total_source?: "last_full_pass" | "product_map" | "account" | null
}

export type ChangeKind = "created" | "updated" | "removed" | "drafted" | "rejected"

/** One row of a run's change log (GET /runs/:id/changes). Prices are exact decimal text. */
export type RunChange = {
  id: string
  run_id: string
  catalog_id: string | null
  product_id: string | null
  title: string | null
  kind: ChangeKind
  price_changed: boolean
  stock_changed: boolean
  sizes_changed: boolean
  images_changed: boolean
  text_changed: boolean
  price_before: string | null
  price_after: string | null
  reason: string | null
  /** What the product's field locks kept out of the write, with the catalog's value where it is one. */
  held?: Partial<Record<"prices" | "title" | "description" | "images" | "categories" | "stock", string | true | null>> | null
  created_at: string
  /** The run's mode and trigger (GET /products/:id/changes only): a reprice is the shop's rules, not the catalog. */
  run_mode?: string | null
  run_trigger?: string | null
}

export type RunChangesPage = {
  changes: RunChange[]
  count: number
  limit: number
  offset: number
  /** Changes counted in the run's figures without a row (the size cap), by kind. */
  omitted: Partial<Record<ChangeKind, number>>
}

export type HistoryRun = Run

/** GET /history: quiet runs folded per day, filters applied, products changed per day. */
export type HistoryRow =
  { type: "run"; run: Run } | { type: "quiet"; day: string; count: number; triggers: Record<string, number>; first_at: string; last_at: string }

export type HistoryPage = {
  rows: HistoryRow[]
  count: number
  runs_count: number
  limit: number
  offset: number
  time_zone: string
  per_day: { day: string; changed: number; runs: number }[]
  truncated: boolean
}

export type HistoryFilters = {
  status?: string
  trigger?: string
  had_changes?: "true" | "false"
}

export type TestConnectionResult = { ok: true; account: AccountInfo } | { ok: false; error: RemoteError }

export type SaveSettingsResult = {
  settings: SyncSettings
  pricing_changed: boolean
  /** price_calculation (or the API parameters) changed: a full pass runs. */
  needs_full_pass?: boolean
  /** Only the pricing rules changed: a reprice run from the stored costs. */
  rules_changed?: boolean
  message?: string
  run?: Run
}

export type ProductCatalogLink = {
  catalog_id: string
  sku: string | null
  sync_version: number | string | null
  synced_at: string | null
  status: string
}

/** GET /admin/catalog-sync/products/:id/locks */
export interface ProductFieldLocks {
  managed: boolean
  catalog_id: string | null
  auto_lock_on_admin_edit: boolean
  held_at: string | null
  fields: { field: LockableFieldName; locked: boolean; locked_by: "product" | "shop" | null; catalog_value: unknown }[]
}

export type LockableFieldName = "title" | "description" | "images" | "categories" | "prices" | "stock"

/** A size or product the catalog removed that the shop keeps while an open order reserves it (GET /kept-for-orders). */
export type KeptForOrder = {
  kind: "size" | "product"
  product_id: string
  title: string | null
  /** The size's label (kind "size"). */
  size: string | null
  catalog_id: string | null
  run_id: string | null
  kept_at: string
}

/** A product the catalog no longer has that the shop keeps (GET /kept-products): by the admin's Discard, or for an open order. */
export type KeptProduct = {
  catalog_id: string | null
  product_id: string
  title: string | null
  reason: "discarded" | "open_order"
  since: string
  run_id: string | null
}

/** Of the removals waiting in the shop, those not decided yet (GET /kept-products's counts). */
export type WaitingRemovals = { awaiting_answer: number; held_until_run_end: number }

export type KeptProductsAnswer = {
  /**
   * `removing`: products the shop still holds whose removal waits (not kept; absent from older
   * servers); of them `awaiting_answer` held at a pause for the admin's Confirm or Discard (nothing
   * decided) and `held_until_run_end` held by a run until it has read its last page.
   */
  counts: { discarded: number; open_order: number; total: number; removing?: number } & Partial<WaitingRemovals>
  products: KeptProduct[]
}
