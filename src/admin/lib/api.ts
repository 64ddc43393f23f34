import { BACKEND_URL } from "./sdk"
import { toAdminApiError } from "./errors"
import type { SizePrice } from "./product-story"
import type { ProgressAnswer } from "./progress"
import type {
  HistoryFilters,
  KeptForOrder,
  KeptProductsAnswer,
  HistoryPage,
  PricingReferences,
  RulesPreviewResult,
  ProductCatalogLink,
  RunChange,
  RunChangesPage,
  Run,
  SaveSettingsResult,
  SyncSettings,
  SyncStatus,
  TestConnectionResult,
  LockableFieldName,
  ProductFieldLocks,
} from "./types"

// The plugin's admin routes. Not sdk.client.fetch: its FetchError keeps only the
// message, and the settings form needs the `field` / `errors` of a 400 to show
// each error beside its input. Same session cookie, same origin.

const ROOT = `${BACKEND_URL.replace(/\/+$/, "")}/admin/catalog-sync`

async function adminFetch<T>(path: string, init: { method?: string; body?: unknown; query?: Record<string, string | number> } = {}): Promise<T> {
  const query = init.query ? "?" + new URLSearchParams(Object.entries(init.query).map(([k, v]) => [k, String(v)])).toString() : ""
  const response = await fetch(`${ROOT}${path}${query}`, {
    method: init.method ?? "GET",
    credentials: "include",
    headers: {
      accept: "application/json",
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  })
  const text = await response.text()
  let body: unknown = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = null
  }
  if (!response.ok) throw toAdminApiError(response.status, body)
  return body as T
}

export const catalogSyncApi = {
  getSettings: () => adminFetch<{ settings: SyncSettings }>("/settings"),
  saveSettings: (body: Record<string, unknown>) => adminFetch<SaveSettingsResult>("/settings", { method: "POST", body }),
  disconnect: () => adminFetch<{ settings: SyncSettings; options_key_applies: boolean }>("/settings/api-key", { method: "DELETE" }),
  testConnection: (body: { base_url?: string; api_key?: string }) => adminFetch<TestConnectionResult>("/test-connection", { method: "POST", body }),
  getStatus: () => adminFetch<SyncStatus>("/status"),
  startRun: (mode: "changes" | "full") =>
    adminFetch<{ run: Run; already_running: boolean; waiting_for_answer?: boolean }>("/runs", { method: "POST", body: { mode } }),
  listRuns: (limit: number, offset: number) => adminFetch<{ runs: Run[]; count: number; limit: number; offset: number }>("/runs", { query: { limit, offset } }),
  getRun: (id: string) => adminFetch<{ run: Run }>(`/runs/${encodeURIComponent(id)}`),
  getProgress: (runId?: string) => adminFetch<ProgressAnswer>("/progress", runId ? { query: { run_id: runId } } : {}),
  getRunChanges: (id: string, query: { kind?: string; q?: string; limit: number; offset: number }) =>
    adminFetch<RunChangesPage>(`/runs/${encodeURIComponent(id)}/changes`, { query: compact(query) }),
  getHistory: (query: HistoryFilters & { days: number; tz: string; limit: number; offset: number }) =>
    adminFetch<HistoryPage>("/history", { query: compact(query) }),
  getProductChanges: (productId: string) => adminFetch<{ changes: RunChange[] }>(`/products/${encodeURIComponent(productId)}/changes`),
  getProductPrices: (productId: string) => adminFetch<{ currency_code: string; sizes: SizePrice[] }>(`/products/${encodeURIComponent(productId)}/prices`),
  previewPricingRules: (pricing_rules: unknown) => adminFetch<RulesPreviewResult>("/pricing/preview", { method: "POST", body: { pricing_rules } }),
  getPricingReferences: () => adminFetch<PricingReferences>("/pricing/references"),
  confirmRun: (id: string) => adminFetch<{ run: Run }>(`/runs/${encodeURIComponent(id)}/confirm`, { method: "POST", body: {} }),
  discardRun: (id: string) => adminFetch<{ run: Run }>(`/runs/${encodeURIComponent(id)}/discard`, { method: "POST", body: {} }),
  getKeptProducts: (productId?: string) => adminFetch<KeptProductsAnswer>("/kept-products", { query: compact({ product_id: productId }) }),
  removeKeptProduct: (catalogId: string) =>
    adminFetch<{ run: Run; already_running: boolean }>("/kept-products/remove", { method: "POST", body: { catalog_id: catalogId } }),
  getKeptForOrders: (query: { runId?: string; limit: number; offset: number }) =>
    adminFetch<{ kept: KeptForOrder[]; count: number; counts?: { products: number; sizes: number }; limit: number; offset: number }>("/kept-for-orders", {
      query: compact({ run_id: query.runId, limit: query.limit, offset: query.offset }),
    }),
  getProductLink: (productId: string) => adminFetch<{ link: ProductCatalogLink | null }>(`/products/${encodeURIComponent(productId)}/catalog`),
  getProductLocks: (productId: string) => adminFetch<{ locks: ProductFieldLocks }>(`/products/${encodeURIComponent(productId)}/locks`),
  setProductLocks: (productId: string, fields: LockableFieldName[], locked: boolean) =>
    adminFetch<{ locks: ProductFieldLocks }>(`/products/${encodeURIComponent(productId)}/locks`, { method: "POST", body: { fields, locked } }),
}

/** Drops empty query values, so "all" filters send nothing. */
function compact(query: Record<string, string | number | undefined>): Record<string, string | number> {
  const out: Record<string, string | number> = {}
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") out[key] = value
  return out
}

export const queryKeys = {
  all: ["catalog-sync"] as const,
  settings: ["catalog-sync", "settings"] as const,
  status: ["catalog-sync", "status"] as const,
  runs: (limit: number, offset: number) => ["catalog-sync", "runs", limit, offset] as const,
  run: (id: string) => ["catalog-sync", "run", id] as const,
  productLink: (productId: string) => ["catalog-sync", "product", productId] as const,
  progress: ["catalog-sync", "progress"] as const,
  runChanges: (id: string, query: Record<string, unknown>) => ["catalog-sync", "run", id, "changes", query] as const,
  history: (query: Record<string, unknown>) => ["catalog-sync", "history", query] as const,
  pricingReferences: ["catalog-sync", "pricing", "references"] as const,
  pricingPreview: (rules: string) => ["catalog-sync", "pricing", "preview", rules] as const,
  productChanges: (productId: string) => ["catalog-sync", "product", productId, "changes"] as const,
  productLocks: (productId: string) => ["catalog-sync", "product", productId, "locks"] as const,
  keptProducts: (productId: string | null) => ["catalog-sync", "kept-products", productId] as const,
  keptForOrders: (runId: string | null) => ["catalog-sync", "kept-for-orders", runId] as const,
}

/** POST /filter/count: how many catalog products of the last pass a filter (not yet saved) keeps. */
export type FilterKeptCount = {
  kept: number
  total: number
  not_counted: Array<"in_stock_only" | "new_only">
  /** When the full pass counted over ended; null before any full pass. */
  pass_finished_at?: string | null
  /** Products the shop holds from the catalog now (may differ: removals the admin discarded, products kept for orders). */
  shop_products?: number
}

export const filterApi = {
  count: (filter: Record<string, unknown>) => adminFetch<FilterKeptCount>("/filter/count", { method: "POST", body: { filter } }),
  save: (filter: Record<string, unknown>) => adminFetch<SaveSettingsResult>("/settings", { method: "POST", body: { filter } }),
}
