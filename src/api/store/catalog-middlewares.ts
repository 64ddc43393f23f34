// Store API additions for catalog brands. Medusa reads only src/api/middlewares.ts, so that
// file spreads `storeCatalogMiddlewares` into its defineMiddlewares routes.
import { allowFields, type MiddlewareRoute } from "@medusajs/framework/http"
import { sortListedVariantsByRank, sortProductVariantsByRank } from "./variant-order"

/** Product relations the plugin adds through module links (src/links), with their readable fields. */
export const CATALOG_PRODUCT_RELATIONS: Record<string, string[]> = {
  catalog_brand: ["id", "catalog_id", "name", "slug"],
  catalog_brand_model: ["id", "catalog_id", "name", "slug", "brand_id"],
}

/** Medusa 2.21's store allow lists match exactly: the relation (for `*rel`), `rel.*` and each `rel.field`. */
export const CATALOG_ALLOWED_FIELDS = Object.entries(CATALOG_PRODUCT_RELATIONS).flatMap(([relation, fields]) => [
  relation,
  `${relation}.*`,
  ...fields.map((f) => `${relation}.${f}`),
])

/**
 * Lets a storefront ask the store product routes for `fields=*catalog_brand,*catalog_brand_model`
 * (or `+catalog_brand.name`). No `method` on purpose: a method-bound route middleware runs after
 * Medusa's own query validation, too late to widen the allow list; a matcher-only middleware
 * runs first and covers /store/products and /store/products/:id.
 */
export const storeCatalogMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/products", middlewares: [allowFields(CATALOG_ALLOWED_FIELDS)] },
  // After Medusa's query validation (method-bound), where req.queryConfig holds the query.
  { matcher: "/store/products", method: "GET", middlewares: [sortListedVariantsByRank] },
  { matcher: "/store/products/:id", method: "GET", middlewares: [sortProductVariantsByRank] },
]
