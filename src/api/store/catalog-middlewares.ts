// Store API additions for catalog brands. Medusa reads only src/api/middlewares.ts, so the
// platform's file spreads `storeCatalogMiddlewares` into its defineMiddlewares routes.
import type { MedusaNextFunction, MedusaRequest, MedusaResponse, MiddlewareRoute } from "@medusajs/framework/http"

/** Product relations the plugin adds through module links (src/links), with their readable fields. */
export const CATALOG_PRODUCT_RELATIONS: Record<string, string[]> = {
  catalog_brand: ["id", "catalog_id", "name", "slug"],
  catalog_brand_model: ["id", "catalog_id", "name", "slug", "brand_id"],
}

/** Medusa's allow list matches exactly: the relation (for `*rel`) and each `rel.field`. */
export const CATALOG_ALLOWED_FIELDS = Object.entries(CATALOG_PRODUCT_RELATIONS).flatMap(([relation, fields]) => [
  relation,
  `${relation}.*`,
  ...fields.map((f) => `${relation}.${f}`),
])

/**
 * The store product routes only return fields on their allow list; this lets a storefront ask
 * for `fields=*catalog_brand,*catalog_brand_model` (or `+catalog_brand.name`).
 */
function allowCatalogRelations(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const allowed = ((req as unknown as { allowed?: string[] }).allowed ??= [])
  allowed.push(...CATALOG_ALLOWED_FIELDS)
  next()
}

export const storeCatalogMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/products", method: ["GET"], middlewares: [allowCatalogRelations] },
  { matcher: "/store/products/:id", method: ["GET"], middlewares: [allowCatalogRelations] },
]
