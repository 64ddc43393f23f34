// What the safety brake (src/sync/safety-brake.ts) reads from the shop: its catalog prices (the
// base of the steep-drop share), the prices a page's sizes have now (the "before" of a drop),
// and the titles the paused run's preview shows.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { priceKey, type BrakePause, type CurrentPrice } from "../sync/safety-brake"
import { lastWrittenPrices, pricedSizeCount } from "../modules/catalog_sync/sql/variant-costs"

/** The shop's catalog prices now: sizes with a variant and a selling price in the cost table. */
export async function shopCatalogPrices(container: MedusaContainer): Promise<number> {
  return pricedSizeCount(container)
}

/**
 * The prices the given products' sizes have now (what the plugin last wrote), by priceKey, except
 * the products `locked` names (a product whose prices the shop locked writes no price: its drops
 * are not judged). The locks are read at the same time as the prices, not before them.
 */
export async function currentPricesOf(
  container: MedusaContainer,
  catalogIds: string[],
  locked: (ids: string[]) => Promise<ReadonlySet<string>>
): Promise<Map<string, CurrentPrice>> {
  if (!catalogIds.length) return new Map()
  const [pricesLocked, rows] = await Promise.all([locked(catalogIds), lastWrittenPrices(container, catalogIds)])
  return new Map(
    rows
      .filter((r) => !pricesLocked.has(r.catalog_id))
      .map((r) => [priceKey(r.catalog_id, r.size_key), { variant_id: r.variant_id, amount: r.amount, crossed_out: r.crossed_out_amount }])
  )
}

/** The pause with product titles on its preview's samples (a removal or drop without one). */
export async function withTitles(container: MedusaContainer, pause: BrakePause): Promise<BrakePause> {
  const { removals, steep_drops } = pause.preview
  const ids = [...new Set([...removals.sample, ...steep_drops.sample].filter((x) => !x.title && x.catalog_id).map((x) => x.catalog_id!))]
  if (!ids.length) return pause
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "product", fields: ["external_id", "title"], filters: { external_id: ids } })
  const titleOf = new Map((data as { external_id: string | null; title: string }[]).map((p) => [p.external_id, p.title]))
  const named = <T extends { catalog_id?: string; title?: string | null }>(x: T): T =>
    x.title || !x.catalog_id ? x : { ...x, title: titleOf.get(x.catalog_id) ?? null }
  return {
    ...pause,
    preview: {
      ...pause.preview,
      removals: { ...removals, sample: removals.sample.map(named) },
      steep_drops: { ...steep_drops, sample: steep_drops.sample.map(named) },
    },
  }
}
