// The plugin options a shop sets in medusa-config, and the few values read straight from them.
import type { LabelOptions } from "../shop-vocabulary"
import type { Language } from "./language"

export type PriceCalculation = "min" | "avg" | "max"
export type RemovalMode = "delete" | "draft"

export const DEFAULT_POLL_INTERVAL_MINUTES = 10
export const MIN_POLL_INTERVAL_MINUTES = 5
export const MAX_POLL_INTERVAL_MINUTES = 15

/** Plugin options from medusa-config (`plugins: [{ resolve: "medusa-catalog-sync", options }]`). All optional. */
export type CatalogSyncPluginOptions = {
  /** Catalog API base URL without /v1, e.g. "https://catalog.example.com". */
  baseUrl?: string
  /** Catalog API key. Settings saved in the admin take precedence. */
  apiKey?: string
  /** Redis for the queue, scheduler, lock and shared rate limit. Defaults to projectConfig.redisUrl. */
  redisUrl?: string
  /** Encrypts the API key saved from the admin (AES-256-GCM). Falls back to CATALOG_SYNC_ENCRYPTION_KEY. */
  encryptionKey?: string
  /** Default pricing parameters sent to the API. */
  pricing?: Partial<{
    price_calculation: PriceCalculation
    markup_percent: string | number | null
    discount_percent: string | number | null
    old_price_markup_percent: string | number | null
  }>
  /** How often scheduled runs poll the changes feed, 5 to 15 (default 10). */
  pollIntervalMinutes?: number
  stockLocationId?: string
  salesChannelId?: string
  /** What a product removed from the catalog becomes: deleted (default) or draft. */
  removalMode?: RemovalMode
  /** The shop's primary language (default "uk"). */
  primaryLanguage?: Language
  /**
   * The size option's words per language, e.g. `{ uk: { option: "Розмір", oneSize: "Один розмір" } }`
   * (defaults: "Розмір"/"Один розмір", "Размер"/"Один размер").
   */
  labels?: LabelOptions
  /**
   * The region first-run setup creates when no region sells uah: default
   * `{ name: "Україна", countries: ["ua"] }`; `create: false` leaves regions to the admin.
   */
  region?: { create?: boolean; name?: string; countries?: string[] }
  /**
   * The most the client adopts from the limits /v1/me reports (default 60/min, 3 at once).
   * Raise it only if your plan's limits are higher. Env fallback: CATALOG_SYNC_MAX_RPM and
   * CATALOG_SYNC_MAX_CONCURRENT.
   */
  rateLimitCeiling?: { requestsPerMinute?: number; maxConcurrent?: number }
  /**
   * Let the plugin connect to loopback, private, link-local and other non-public addresses
   * (default false: the catalog must be on a public address). For a self-hosted catalog on
   * the shop's own network, the sandbox and tests. Env fallback:
   * CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS=true.
   */
  allowPrivateNetworks?: boolean
  /**
   * Opt-in: while a sync runs in a process, V8's old generation grows by this percent of the
   * heap the last full collection left, in place of V8's own factor (V8 takes up to 4× when a
   * program promotes objects quickly, as a sync does; 100 holds it to 2×). Default 0: the
   * plugin leaves the host's GC alone. Also left alone: a process started with
   * --heap-growing-percent or --optimize-for-size on its command line, or one whose heap is
   * small enough that V8's own largest factor is no more than this one (for 100: an old
   * generation under 2 GB). A whole number from 0 to 300. Env fallback:
   * CATALOG_SYNC_HEAP_GROWTH_PERCENT. See docs/node-and-memory.md.
   */
  syncHeapGrowthPercent?: number
  /**
   * How product changes are written: "bulk" (default: the plugin's own SQL in Medusa's
   * transaction, src/bulk-write) or "workflows" (Medusa's own core-flows workflows, so their
   * hooks run and every event they emit fires; several times slower). See docs/write-paths.md.
   * Env fallback: CATALOG_SYNC_WRITE_PATH.
   */
  writePath?: WritePath
  /**
   * A worker instance's (workerMode "worker") CPU niceness, 0 to 19 (default 10): a server
   * instance on the same machine then answers shoppers before the sync's page writes. 0 leaves
   * the process's priority alone. Ignored in "shared" and "server" mode (the process serves the
   * shop). Env fallback: CATALOG_SYNC_WORKER_NICE. See docs/operations.md.
   */
  workerNice?: number
}

export type WritePath = "bulk" | "workflows"

export type RegionSetup = {
  /** false: never create a region (the readiness checklist still reports a missing one). */
  create: boolean
  name: string
  /** ISO 3166-1 alpha-2, lower case. */
  countries: string[]
}

export const DEFAULT_REGION: RegionSetup = { create: true, name: "Україна", countries: ["ua"] }

export function regionFromOptions(options: Pick<CatalogSyncPluginOptions, "region">): RegionSetup {
  const r = options.region ?? {}
  const name = typeof r.name === "string" && r.name.trim() ? r.name.trim() : DEFAULT_REGION.name
  const countries = Array.isArray(r.countries)
    ? r.countries.filter((c): c is string => typeof c === "string" && /^[a-z]{2}$/i.test(c.trim())).map((c) => c.trim().toLowerCase())
    : DEFAULT_REGION.countries
  return { create: r.create !== false, name, countries }
}
