// Crossed-out prices the way Medusa storefronts show a sale: the variant's base price is
// the catalog's old_price (written by the product writes), and the selling price sits in one
// plugin-owned price list of type "sale" with no rules. The store API then answers
// calculated_price.original_amount = old_price and calculated_amount = price.
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createPriceListsWorkflow, updatePriceListsWorkflow } from "@medusajs/medusa/core-flows"
import { shopWriter } from "../../shop-writer/choose-shop-writer"

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
  const lists = (await pricing.listPriceLists(rememberedId ? { id: [rememberedId] } : {}, {
    select: ["id", "title", "status", "type", "metadata", "rules_count"],
    take: null,
  })) as unknown as PriceListRow[]
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

/** The sale list's prices of these variants made exactly the wanted ones, by the run's writer (src/shop-writer). */
export async function syncSalePrices(
  container: MedusaContainer,
  priceListId: string,
  wanted: SalePriceWanted[]
): Promise<{ created: number; updated: number; deleted: number }> {
  if (!wanted.length) return { created: 0, updated: 0, deleted: 0 }
  return (await shopWriter(container)).setSalePrices(priceListId, wanted)
}
