// Variants in size order in the store product routes. The sync ranks each product's variants in
// size order (variant_rank, on every write path), but Medusa's store routes load variants with no
// order, so a size added later is listed wherever PostgreSQL finds its row. The list route takes
// an order: its query asks for the variants by rank, keeping the products' own order (id,
// Medusa's default). The one-product route takes none, so its answer's variants are sorted by rank.
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { FeatureFlag } from "@medusajs/framework/utils"

type Order = Record<string, unknown>

/** The product order a store request asked for, with the variants by rank (the request's own variants order wins). */
export function withVariantsByRank(order: Order | undefined): Order {
  const base: Order = order && Object.keys(order).length ? order : { id: "ASC" }
  const variants = (base.variants ?? {}) as Order
  return { ...base, variants: { variant_rank: "ASC", ...variants } }
}

/**
 * With Medusa's Index module serving the list (feature flag index_engine), the route queries the
 * index, which holds no variant rank: an order on it emptied the listing and then failed it, so
 * the index's own order stands.
 */
export function orderVariantsByRank(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  if (FeatureFlag.isFeatureEnabled("index_engine")) return next()
  const config = (req as unknown as { queryConfig?: { pagination?: { order?: Order } } }).queryConfig
  if (config?.pagination) config.pagination.order = withVariantsByRank(config.pagination.order)
  next()
}

type Variant = { variant_rank?: number | null }

/** The variants by rank, stably (a variant without a rank keeps its place after the ranked ones). */
export function variantsByRank<T extends Variant>(variants: T[]): T[] {
  return variants
    .map((v, i) => ({ v, i }))
    .sort((a, b) => (a.v.variant_rank ?? Infinity) - (b.v.variant_rank ?? Infinity) || a.i - b.i)
    .map(({ v }) => v)
}

export function sortProductVariantsByRank(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const config = (req as unknown as { queryConfig?: { fields?: string[] } }).queryConfig
  const fields = config?.fields
  if (!fields?.some((f) => f === "variants" || f.startsWith("variants."))) return next()
  // The rank to sort by; answered as the variant's own field.
  if (!fields.includes("variants.variant_rank")) fields.push("variants.variant_rank")
  const json = res.json.bind(res)
  res.json = ((body: { product?: { variants?: Variant[] | null } }) => {
    if (Array.isArray(body?.product?.variants)) body.product!.variants = variantsByRank(body.product!.variants)
    return json(body)
  }) as typeof res.json
  next()
}
