// Crossed-out prices the way Medusa storefronts show a sale: the variant's base price is
// the catalog's old_price (written by the product writes), and the selling price sits in one
// plugin-owned price list of type "sale" with no rules. The store API then answers
// calculated_price.original_amount = old_price and calculated_amount = price.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { batchPriceListPricesWorkflow, createPriceListsWorkflow, updatePriceListsWorkflow } from "@medusajs/medusa/core-flows"
import Decimal from "decimal.js"
import { CURRENCY_CODE } from "../../sync/catalog-product"

/** Named for what it holds: the prices the shop charges (the crossed-out ones are the variants' own prices). */
export const SALE_PRICE_LIST_TITLE = "Catalog selling prices"
export const SALE_PRICE_LIST_DESCRIPTION =
  "The prices the shop charges for catalog products that have a crossed-out price. Keep it active: without it those products sell at their crossed-out prices. Managed by medusa-catalog-sync."
export const SALE_PRICE_LIST_SOURCE = "catalog-sync"

type PriceListRow = { id: string; title: string; status: string; type: string; metadata?: Record<string, unknown> | null; rules_count?: number }

/**
 * The plugin's sale price list: the remembered id when it still exists, else one found by
 * its metadata, else a new one. It is kept active and rule-free so it applies to everyone.
 */
export async function ensureSalePriceList(container: MedusaContainer, rememberedId: string | null): Promise<string> {
  const pricing = container.resolve(Modules.PRICING)
  const lists = (await pricing.listPriceLists(
    rememberedId ? { id: [rememberedId] } : {},
    { select: ["id", "title", "status", "type", "metadata", "rules_count"], take: null },
  )) as unknown as PriceListRow[]
  let list = lists.find((l) => l.id === rememberedId) ?? lists.find((l) => l.metadata?.source === SALE_PRICE_LIST_SOURCE)
  if (!list && rememberedId) {
    const all = (await pricing.listPriceLists({}, { select: ["id", "title", "status", "type", "metadata"], take: null })) as unknown as PriceListRow[]
    list = all.find((l) => l.metadata?.source === SALE_PRICE_LIST_SOURCE)
  }
  if (!list) {
    const { result } = await createPriceListsWorkflow(container).run({
      input: {
        price_lists_data: [
          {
            title: SALE_PRICE_LIST_TITLE,
            description: SALE_PRICE_LIST_DESCRIPTION,
            status: "active",
            type: "sale",
            metadata: { source: SALE_PRICE_LIST_SOURCE },
            prices: [],
          } as never,
        ],
      },
    })
    return (result as { id: string }[])[0].id
  }
  if (list.status !== "active" || list.type !== "sale") {
    await updatePriceListsWorkflow(container).run({
      input: { price_lists_data: [{ id: list.id, status: "active", type: "sale" } as never] },
    })
  }
  return list.id
}

export interface SalePriceWanted {
  variantId: string
  /** Major units, exact decimal string; null removes the variant's sale price. */
  saleAmount: string | null
}

function sameAmount(a: unknown, b: string): boolean {
  try {
    return new Decimal(String(a)).equals(new Decimal(b))
  } catch {
    return false
  }
}

/** Upserts the sale list's prices of these variants in one batch. */
export async function syncSalePrices(
  container: MedusaContainer,
  priceListId: string,
  wanted: SalePriceWanted[],
): Promise<{ created: number; updated: number; deleted: number }> {
  if (!wanted.length) return { created: 0, updated: 0, deleted: 0 }
  const t0 = Date.now()
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({
    entity: "product_variant_price_set",
    fields: ["variant_id", "price_set_id"],
    filters: { variant_id: wanted.map((w) => w.variantId) },
  } as never)
  const priceSetByVariant = new Map((links as { variant_id: string; price_set_id: string }[]).map((l) => [l.variant_id, l.price_set_id]))
  const priceSetIds = [...new Set(priceSetByVariant.values())]

  const pricing = container.resolve(Modules.PRICING)
  const existing = priceSetIds.length
    ? ((await pricing.listPrices(
        { price_list_id: [priceListId], price_set_id: priceSetIds },
        { select: ["id", "price_set_id", "amount", "currency_code", "raw_amount"], take: null },
      )) as unknown as { id: string; price_set_id: string; amount: unknown; raw_amount?: { value?: string }; currency_code: string }[])
    : []
  const byPriceSet = new Map<string, typeof existing>()
  for (const p of existing) {
    const list = byPriceSet.get(p.price_set_id) ?? []
    list.push(p)
    byPriceSet.set(p.price_set_id, list)
  }

  const t1 = Date.now()
  const create: { variant_id: string; amount: number; currency_code: string }[] = []
  const update: { id: string; variant_id: string; amount: number; currency_code: string }[] = []
  const remove: string[] = []
  for (const w of wanted) {
    const priceSetId = priceSetByVariant.get(w.variantId)
    // A variant without a price set has no base price either (unpriced): nothing to cross out.
    if (!priceSetId) continue
    const prices = byPriceSet.get(priceSetId) ?? []
    const mine = prices.filter((p) => p.currency_code === CURRENCY_CODE)
    remove.push(...prices.filter((p) => p.currency_code !== CURRENCY_CODE).map((p) => p.id))
    if (w.saleAmount === null) {
      remove.push(...mine.map((p) => p.id))
      continue
    }
    const [first, ...extra] = mine
    remove.push(...extra.map((p) => p.id))
    // Medusa takes decimal strings for amounts (BigNumberValue); a float would round money.
    const amount = w.saleAmount as unknown as number
    if (!first) create.push({ variant_id: w.variantId, amount, currency_code: CURRENCY_CODE })
    else if (!sameAmount(first.raw_amount?.value ?? first.amount, w.saleAmount)) {
      update.push({ id: first.id, variant_id: w.variantId, amount, currency_code: CURRENCY_CODE })
    }
  }
  if (create.length || update.length || remove.length) {
    await batchPriceListPricesWorkflow(container).run({
      input: { data: { id: priceListId, create, update, delete: remove } },
    })
  }
  ;(container.resolve("logger") as { debug?(m: string): void }).debug?.(
    `catalog sync: sale prices read ${t1 - t0}ms, wrote ${Date.now() - t1}ms (${create.length} new, ${update.length} changed, ${remove.length} removed)`,
  )
  return { created: create.length, updated: update.length, deleted: remove.length }
}
