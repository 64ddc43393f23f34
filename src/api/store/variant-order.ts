// Variants in size order in the store product routes. The sync ranks each product's variants in
// size order (variant_rank, on every write path), but Medusa's store routes load variants with no
// order, so a size added later is listed wherever PostgreSQL finds its row. Both routes answer
// with each product's variants sorted by rank, in this process. Not in SQL: an order on the
// variants made the list's query join every product to its variants and sort the whole catalog
// before it took a page (its cost grew with the catalog); sorting the page's own variants costs
// nothing that grows.
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { FeatureFlag } from "@medusajs/framework/utils"

type Variant = { variant_rank?: number | null }

/** The variants by rank, stably (a variant without a rank keeps its place after the ranked ones). */
export function variantsByRank<T extends Variant>(variants: T[]): T[] {
  return variants
    .map((v, i) => ({ v, i }))
    .sort((a, b) => (a.v.variant_rank ?? Infinity) - (b.v.variant_rank ?? Infinity) || a.i - b.i)
    .map(({ v }) => v)
}

type QueryConfig = { fields?: string[] }

/** Asks for each variant's rank when the request reads variants; false when it reads none. */
function withRankField(req: MedusaRequest): boolean {
  const fields = (req as unknown as { queryConfig?: QueryConfig }).queryConfig?.fields
  if (!fields?.some((f) => f === "variants" || f.startsWith("variants."))) return false
  // The rank to sort by; answered as the variant's own field.
  if (!fields.includes("variants.variant_rank")) fields.push("variants.variant_rank")
  return true
}

type ProductBody = { variants?: Variant[] | null }

function sortVariantsOf(product: ProductBody | null | undefined): void {
  if (product && Array.isArray(product.variants)) product.variants = variantsByRank(product.variants)
}

/** /store/products: each listed product's variants by rank (the products' own order and paging are Medusa's). */
export function sortListedVariantsByRank(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  // With Medusa's Index module serving the list (feature flag index_engine), the route queries the
  // index, which holds no variant rank: the index's own order stands.
  if (FeatureFlag.isFeatureEnabled("index_engine") || !withRankField(req)) return next()
  const json = res.json.bind(res)
  res.json = ((body: { products?: ProductBody[] | null }) => {
    if (Array.isArray(body?.products)) body.products.forEach(sortVariantsOf)
    return json(body)
  }) as typeof res.json
  next()
}

/** /store/products/:id: the product's variants by rank. */
export function sortProductVariantsByRank(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  if (!withRankField(req)) return next()
  const json = res.json.bind(res)
  res.json = ((body: { product?: ProductBody | null }) => {
    sortVariantsOf(body?.product)
    return json(body)
  }) as typeof res.json
  next()
}
