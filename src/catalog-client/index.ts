// Public API of the catalog client. No Medusa imports anywhere under this folder.
export * from "./errors"
export * from "./catalog-client"
export { accountAccess, type AccountAccess } from "./account"
export type { ChangeItem, RejectedItem } from "./items"
export { MemoryRateLimiter } from "./memory-rate-limiter"
export { RedisRateLimiter, type RedisRateLimiterOptions } from "./redis-rate-limiter"
export { apiKeyId } from "./key-id"
export { AddressNotAllowedError, forbiddenRange, type AddressPolicy } from "./address-guard"
export {
  DEFAULT_LIMITS,
  type HeaderBag,
  type RateLimiter,
  type RateLimits,
  type Release,
  type ReleaseOptions,
} from "./rate-limiter"
export { pricingQuery, type PriceCalculation, type PricingOptions } from "./pricing"
export type { RetryOptions } from "./retry-policy"
export type { CatalogLogger, QuotaSnapshot, TimeoutOptions } from "./transport"
export type { Validators } from "./conditional-cache"
export { MAX_CATALOG_ID, toCatalogId } from "./ids"
export { planStockBatches, type StockBatch } from "./stock-batches"
export type {
  AccountInfo,
  Brand,
  BrandModel,
  Category,
  PricingEcho,
  ProductCard,
  ProductImage,
  ProductSize,
  StockItem,
} from "./schemas"
