// The catalog API client: every endpoint of the spec, typed, validated item by item.
import type { Dispatcher } from "undici"
// One turn of the event loop between validation slices.
import { setImmediate as nextTurn } from "node:timers/promises"
import { anySignal } from "./abort"
import { ConditionalCache, conditionalHeaders, validatorsFrom, type Validators } from "./conditional-cache"
import { CatalogApiError, DailyQuotaExceededError, InvalidApiKeyError, InvalidResponseError, NotFoundError } from "./errors"
import { requireCatalogId, toCatalogId } from "./ids"
import { validateChangeItemsInSlices, validateEach, type ChangeItem, type RejectedItem } from "./items"
import { MemoryRateLimiter } from "./memory-rate-limiter"
import { pricingQuery, type PricingOptions } from "./pricing"
import type { RateLimiter, RateLimits } from "./rate-limiter"
import { resolveRetryOptions, type RetryOptions } from "./retry-policy"
import {
  accountInfoSchema,
  brandModelSchema,
  brandSchema,
  categorySchema,
  describeIssues,
  listEnvelopeSchema,
  productCardSchema,
  singleEnvelopeSchema,
  stockItemSchema,
  type AccountInfo,
  type Brand,
  type BrandModel,
  type Category,
  type PricingEcho,
  type ProductCard,
  type StockItem,
} from "./schemas"
import { planStockBatches } from "./stock-batches"
import type { AddressPolicy } from "./address-guard"
import { CatalogTransport, type ApiResponse, type CatalogLogger, type QuotaSnapshot, type TimeoutOptions } from "./transport"

import type { z } from "zod"

export interface CatalogClientOptions {
  /** API base address without `/v1`, e.g. `https://api.example.com`. */
  baseUrl: string
  apiKey: string
  /** Sent with every product and stock request; the cursor remembers them. */
  pricing?: PricingOptions
  /** Default: a MemoryRateLimiter (60/min, 3 at once). Use RedisRateLimiter across processes. */
  limiter?: RateLimiter
  /**
   * Most the default limiter adopts from `/v1/me` (default 60/min, 3 at once). Raise it only
   * for a sandbox with raised limits; a limiter you pass brings its own `ceiling`.
   */
  limitCeiling?: Partial<RateLimits>
  /** Call `/v1/me` once before the first other request and adopt its limits. Default true. */
  discoverLimits?: boolean
  /**
   * Shares that discovery across clients of one key: `due()` false means the limiter already
   * holds limits adopted recently, so the first request skips `/v1/me`; `adopted()` is called
   * after `me()` adopted limits. Without it every client discovers once.
   */
  limitsDiscovery?: LimitsDiscovery
  /**
   * Whether `me()` passes the limits it reads to the limiter. Default true. A one-off check
   * (e.g. an admin's "test connection") sets false so it never changes a shared bucket.
   */
  adoptLimits?: boolean
  retry?: RetryOptions
  timeouts?: TimeoutOptions
  /** Aborts every call of this client. */
  signal?: AbortSignal
  logger?: CatalogLogger
  /** Bring your own undici dispatcher (its timeouts then apply). */
  dispatcher?: Dispatcher
  userAgent?: string
  /**
   * Refuse non-public addresses (loopback, private, link-local, metadata…) unless
   * `allowPrivateNetworks`; checked on the resolved IP. Unset: no address check.
   */
  addressPolicy?: AddressPolicy
}

export interface CallOptions {
  signal?: AbortSignal
}

export interface PageMeta {
  pricing: PricingEcho | null
  requestId: string | null
}

export interface ProductPage extends PageMeta {
  items: ProductCard[]
  rejected: RejectedItem[]
  /** Parts dropped from kept cards (image URLs that are not http(s)), with id and field. */
  warnings?: RejectedItem[]
  nextCursor: string | null
  hasMore: boolean
}

export interface ChangesPage extends PageMeta {
  items: ChangeItem[]
  rejected: RejectedItem[]
  /** Parts dropped from kept cards (image URLs that are not http(s)), with id and field. */
  warnings?: RejectedItem[]
  /** Store it after the page is committed, even when the page is empty or the last one. */
  nextCursor: string
  hasMore: boolean
}

export interface ProductFilters {
  cursor?: string
  limit?: number
  category_id?: string | number | bigint
  brand_id?: string | number | bigint
  sku_contains?: string
  q?: string
  in_stock?: boolean
  is_new?: boolean
}

export interface StockQuery {
  ids?: (string | number | bigint)[]
  skus?: string[]
}

export interface StockResult {
  items: StockItem[]
  /** Requested ids and skus that do not exist or are off sale, as requested. */
  missing: string[]
  rejected: RejectedItem[]
}

export interface ReferenceResult<T> extends Validators {
  /** The records; on a 304 the cached records, or null when this client has none cached. */
  data: T[] | null
  rejected: RejectedItem[]
  notModified: boolean
}

export interface ReferenceOptions extends CallOptions {
  /** Validators kept by the caller (e.g. in a database); default: the ones this client saw last. */
  validators?: Validators
}

export interface ProductResult {
  product: ProductCard
  pricing: PricingEcho | null
  requestId: string | null
}

/** Most often a client asks /v1/me again because answers contradict the stored plan. */
const PLAN_REFRESH_MIN_MS = 60_000

/** See CatalogClientOptions.limitsDiscovery. */
export interface LimitsDiscovery {
  due(): Promise<boolean>
  adopted(): Promise<void>
}

export class CatalogClient {
  readonly #transport: CatalogTransport
  readonly #pricing: Record<string, string>
  readonly #signal: AbortSignal | undefined
  readonly #cache = new ConditionalCache()
  #discoverLimits: boolean
  readonly #adoptLimits: boolean
  #discovery: Promise<void> | undefined
  readonly #limitsDiscovery: LimitsDiscovery | undefined
  #account: AccountInfo | null = null
  #planRefresh: Promise<void> | null = null
  #planRefreshedAt = 0

  constructor(options: CatalogClientOptions) {
    this.addressPolicy = options.addressPolicy ?? { allowPrivateNetworks: false }
    this.#pricing = pricingQuery(options.pricing)
    this.#signal = options.signal
    this.#adoptLimits = options.adoptLimits ?? true
    this.#discoverLimits = (options.discoverLimits ?? true) && this.#adoptLimits
    this.#limitsDiscovery = options.limitsDiscovery
    this.#transport = new CatalogTransport({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      limiter: options.limiter ?? new MemoryRateLimiter({ ceiling: options.limitCeiling }),
      retry: resolveRetryOptions(options.retry),
      timeouts: options.timeouts,
      dispatcher: options.dispatcher,
      logger: options.logger,
      userAgent: options.userAgent,
      addressPolicy: options.addressPolicy,
      onPlanDisagrees: () => this.#refreshPlan(),
    })
  }

  /** The outbound address policy; image downloads reuse it (src/image-mirror). */
  readonly addressPolicy: AddressPolicy

  /** Last `X-RateLimit-Remaining` and `X-Quota-Remaining` seen. */
  get quota(): QuotaSnapshot {
    return this.#transport.quota
  }

  get limiter(): RateLimiter {
    return this.#transport.limiter
  }

  /** After a 429 this client gave up on (rate limit, daily quota): when to try again (ms since epoch), or null. */
  get retryNotBefore(): number | null {
    return this.#transport.retryNotBefore
  }

  /** The pricing query this client sends (normalised). */
  get pricing(): Readonly<Record<string, string>> {
    return { ...this.#pricing }
  }

  async close(): Promise<void> {
    // A plan refresh under way finishes first: its figures are what the admin and the alerts read next.
    await this.#planRefresh
    await this.#transport.close()
  }

  /**
   * An answer's headers contradict the stored plan (it changed at the catalog): read /v1/me again,
   * in the background (the answer's request still holds its limiter slot), at most once a minute.
   */
  #refreshPlan(): void {
    const now = Date.now()
    if (this.#planRefresh || now - this.#planRefreshedAt < PLAN_REFRESH_MIN_MS) return
    this.#planRefreshedAt = now
    this.#planRefresh = this.me()
      .then(() => undefined)
      .catch(() => undefined)
      .finally(() => {
        this.#planRefresh = null
      })
  }

  /** The plan refresh in flight, if any (a test or a closing caller may wait for it). */
  get planRefresh(): Promise<void> | null {
    return this.#planRefresh
  }

  /** The last account info this client read from /v1/me (its limits discovery included), or null. */
  get account(): AccountInfo | null {
    return this.#account
  }

  /** Account info: plan, expiry, limits, usage. Its limits are adopted by the limiter. */
  async me(options: CallOptions = {}): Promise<AccountInfo> {
    let response: ApiResponse
    try {
      response = await this.#get("/v1/me", {}, options, false)
    } catch (error) {
      // The catalog refused to tell the plan (key or plan): the figures held are not told as current. A
      // 429 for the daily quota marks them in #get already; one for the minute's rate says nothing of the plan.
      if (error instanceof CatalogApiError && (error.status === 401 || error.status === 403)) await this.limiter.planStale?.().catch(() => undefined)
      throw error
    }
    const info = this.#single(response, accountInfoSchema, "account info")
    this.#account = info
    this.#discoverLimits = false
    // The plan's figures for every holder of the key, whether or not this client paces by them.
    await this.limiter
      .planSeen?.({
        requestsPerDay: info.limits.requests_per_day,
        requestsPerMinute: info.limits.requests_per_minute,
        quotaEnforced: info.usage.quota_enforced,
      })
      .catch(() => undefined)
    if (!this.#adoptLimits) return info
    await this.limiter.updateLimits({
      requestsPerMinute: info.limits.requests_per_minute,
      maxConcurrent: info.limits.max_concurrent,
    })
    await this.#limitsDiscovery?.adopted().catch(() => undefined)
    return info
  }

  /** One page of the changes feed; without a cursor, the full export from the start. */
  async getChangesPage(params: { cursor?: string | null; limit?: number } = {}, options: CallOptions = {}): Promise<ChangesPage> {
    const query: Record<string, string> = { ...this.#pricing }
    if (params.cursor) query.cursor = params.cursor
    if (params.limit !== undefined) query.limit = String(checkLimit(params.limit))
    const response = await this.#get("/v1/products/changes", query, options)
    const envelope = this.#envelope(response)
    const nextCursor = envelope.meta?.next_cursor
    if (typeof nextCursor !== "string") {
      throw this.#invalid(response, "changes page without meta.next_cursor")
    }
    // In slices: the client runs on the process that may also serve the shop.
    const { items, rejected, warnings } = await validateChangeItemsInSlices(envelope.data, nextTurn)
    return {
      items,
      rejected,
      warnings,
      nextCursor,
      hasMore: envelope.meta?.has_more ?? false,
      pricing: envelope.meta?.pricing ?? null,
      requestId: response.requestId,
    }
  }

  /** Pages of `/v1/products` with its filters, until `has_more` is false. */
  async *listProducts(filters: ProductFilters = {}, options: CallOptions = {}): AsyncGenerator<ProductPage> {
    const base: Record<string, string> = { ...this.#pricing }
    if (filters.limit !== undefined) base.limit = String(checkLimit(filters.limit))
    if (filters.category_id !== undefined) base.category_id = requireCatalogId(filters.category_id, "category_id")
    if (filters.brand_id !== undefined) base.brand_id = requireCatalogId(filters.brand_id, "brand_id")
    if (filters.sku_contains !== undefined) base.sku_contains = filters.sku_contains
    if (filters.q !== undefined) base.q = filters.q
    if (filters.in_stock !== undefined) base.in_stock = String(filters.in_stock)
    if (filters.is_new !== undefined) base.is_new = String(filters.is_new)
    let cursor = filters.cursor ?? null
    for (;;) {
      const query = cursor ? { ...base, cursor } : base
      const response = await this.#get("/v1/products", query, options)
      const envelope = this.#envelope(response)
      const { items, rejected, warnings } = validateEach(envelope.data, productCardSchema)
      const nextCursor = envelope.meta?.next_cursor ?? null
      const hasMore = (envelope.meta?.has_more ?? false) && nextCursor !== null
      if (hasMore && nextCursor === cursor) throw this.#invalid(response, "products page repeats its cursor")
      yield { items, rejected, warnings, nextCursor, hasMore, pricing: envelope.meta?.pricing ?? null, requestId: response.requestId }
      if (!hasMore) return
      cursor = nextCursor
    }
  }

  /** One product by catalog id; NotFoundError when absent or off sale. */
  async getProduct(id: string | number | bigint, options: CallOptions = {}): Promise<ProductCard> {
    return (await this.getProductResult(id, options)).product
  }

  async getProductResult(id: string | number | bigint, options: CallOptions = {}): Promise<ProductResult> {
    const productId = requireCatalogId(id, "product id")
    const response = await this.#get(`/v1/products/${productId}`, { ...this.#pricing }, options)
    return this.#productResult(response)
  }

  /** One product by its exact article; NotFoundError when absent or off sale. */
  async getProductBySku(sku: string, options: CallOptions = {}): Promise<ProductCard> {
    return (await this.getProductBySkuResult(sku, options)).product
  }

  async getProductBySkuResult(sku: string, options: CallOptions = {}): Promise<ProductResult> {
    if (typeof sku !== "string" || sku.length < 1 || sku.length > 100) throw new TypeError("sku must be 1 to 100 characters")
    const response = await this.#get("/v1/products/by-sku", { ...this.#pricing, sku }, options)
    return this.#productResult(response)
  }

  /** Stock and prices for any number of products, split into API-sized requests. */
  async getStock(query: StockQuery, options: CallOptions = {}): Promise<StockResult> {
    const ids = unique((query.ids ?? []).map((id) => requireCatalogId(id, "stock id")))
    const skus = unique(query.skus ?? [])
    for (const sku of skus) {
      if (sku.length === 0 || sku.includes(",")) throw new TypeError("a sku for /v1/stock must be non-empty and contain no comma")
    }
    const batches = planStockBatches(ids, skus)
    const results = await mapWithConcurrency(batches, Math.max(1, this.limiter.limits.maxConcurrent), async (batch) => {
      const q: Record<string, string> = { ...this.#pricing }
      if (batch.ids.length) q.ids = batch.ids.join(",")
      if (batch.skus.length) q.skus = batch.skus.join(",")
      const response = await this.#get("/v1/stock", q, options)
      const envelope = this.#envelope(response)
      const validated = validateEach(envelope.data, stockItemSchema)
      const missing = (envelope.meta?.missing ?? []).map((m) => (typeof m === "string" ? m : (toCatalogId(m) ?? String(m))))
      return { ...validated, missing }
    })
    return {
      items: results.flatMap((r) => r.items),
      missing: results.flatMap((r) => r.missing),
      rejected: results.flatMap((r) => r.rejected),
    }
  }

  getCategories(options: ReferenceOptions = {}): Promise<ReferenceResult<Category>> {
    return this.#reference("/v1/categories", categorySchema, options)
  }

  getBrands(options: ReferenceOptions = {}): Promise<ReferenceResult<Brand>> {
    return this.#reference("/v1/brands", brandSchema, options)
  }

  getBrandModels(options: ReferenceOptions = {}): Promise<ReferenceResult<BrandModel>> {
    return this.#reference("/v1/brand-models", brandModelSchema, options)
  }

  async #reference<S extends z.ZodType>(path: string, schema: S, options: ReferenceOptions): Promise<ReferenceResult<z.output<S>>> {
    const cached = this.#cache.get<z.output<S>[]>(path)
    const sent = options.validators ?? cached
    const response = await this.#get(path, {}, options, true, conditionalHeaders(sent))
    if (response.status === 304) {
      const usable = cached && (!options.validators || sameValidators(options.validators, cached))
      return {
        data: usable ? cached.data : null,
        rejected: [],
        notModified: true,
        ...pickValidators(sent),
      }
    }
    const envelope = this.#envelope(response)
    const { items, rejected } = validateEach(envelope.data, schema)
    const validators = validatorsFrom(response.headers)
    if (validators.etag || validators.lastModified) this.#cache.set(path, { data: items, ...validators })
    return { data: items, rejected, notModified: false, ...validators }
  }

  async #get(path: string, query: Record<string, string>, options: CallOptions, discover = true, headers?: Record<string, string>): Promise<ApiResponse> {
    const signal = anySignal([options.signal, this.#signal])
    if (discover && this.#discoverLimits) await this.#discover(signal)
    try {
      return await this.#transport.get(path, query, { signal, headers })
    } catch (error) {
      // The catalog's own word that today's quota is spent and enforced, for every holder of the key.
      if (error instanceof DailyQuotaExceededError && error.code === "daily_quota_exceeded") await this.limiter.quotaRefused?.().catch(() => undefined)
      // A refused key: the plan held for it is no longer told as current.
      else if (error instanceof InvalidApiKeyError && error.code === "invalid_api_key") await this.limiter.planStale?.().catch(() => undefined)
      throw error
    }
  }

  /**
   * Adopts `/v1/me` limits once. An answer the client cannot read (or no /v1/me at all) leaves
   * the default limits; auth, plan, quota and network errors surface as they would anyway.
   */
  #discover(signal: AbortSignal | undefined): Promise<void> {
    this.#discovery ??= this.#discoveryDue()
      .then((due) => {
        if (due) return this.me({ signal })
        this.#discoverLimits = false
      })
      .then(
        () => undefined,
        (error) => {
          if (error instanceof InvalidResponseError || error instanceof NotFoundError) {
            this.#discoverLimits = false
            return
          }
          throw error
        }
      )
      .finally(() => {
        this.#discovery = undefined
      })
    return this.#discovery
  }

  /** Whether this client must ask `/v1/me` (an unreadable answer from the check means yes). */
  async #discoveryDue(): Promise<boolean> {
    if (!this.#limitsDiscovery) return true
    // The plan held was contradicted by the catalog since it was read: this run reads it again.
    const held = await Promise.resolve(this.limiter.plan?.()).catch(() => null)
    if (held?.stale) return true
    return this.#limitsDiscovery.due().catch(() => true)
  }

  #envelope(response: ApiResponse): z.output<typeof listEnvelopeSchema> {
    const parsed = listEnvelopeSchema.safeParse(response.body)
    if (!parsed.success) throw this.#invalid(response, describeIssues(parsed.error))
    return parsed.data
  }

  #single<S extends z.ZodType>(response: ApiResponse, schema: S, what: string): z.output<S> {
    const envelope = singleEnvelopeSchema.safeParse(response.body)
    if (!envelope.success) throw this.#invalid(response, describeIssues(envelope.error))
    const parsed = schema.safeParse(envelope.data.data)
    if (!parsed.success) throw this.#invalid(response, `${what}: ${describeIssues(parsed.error)}`)
    return parsed.data
  }

  #productResult(response: ApiResponse): ProductResult {
    const product = this.#single(response, productCardSchema, "product card")
    const envelope = singleEnvelopeSchema.parse(response.body)
    return { product, pricing: envelope.meta?.pricing ?? null, requestId: response.requestId }
  }

  #invalid(response: ApiResponse, reason: string): InvalidResponseError {
    return new InvalidResponseError(`Unexpected catalog API response: ${reason}`, {
      code: "invalid_response",
      status: response.status,
      requestId: response.requestId,
    })
  }
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new TypeError("limit must be an integer from 1 to 200")
  return limit
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}

function sameValidators(a: Validators, b: Validators): boolean {
  return (a.etag ?? null) === (b.etag ?? null) && (a.lastModified ?? null) === (b.lastModified ?? null)
}

function pickValidators(v: Validators | undefined): Validators {
  return { ...(v?.etag ? { etag: v.etag } : {}), ...(v?.lastModified ? { lastModified: v.lastModified } : {}) }
}

async function mapWithConcurrency<T, R>(items: T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++
      try {
        results[index] = await fn(items[index])
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return results
}
