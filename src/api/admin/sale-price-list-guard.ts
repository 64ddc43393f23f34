// Refuses to switch the plugin's sale price list off from the admin. It holds the prices the
// shop charges for products that have a crossed-out price: without it those products would
// sell at the crossed-out prices. (Deleting it is not guarded: the next sync recreates it.)
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { SALE_PRICE_LIST_SOURCE, SALE_PRICE_LIST_TITLE } from "../../workflows/extras/sale-prices"

export async function guardSalePriceList(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const body = (req.body ?? {}) as { status?: unknown; type?: unknown; ends_at?: unknown }
  const disabling = (body.status !== undefined && body.status !== "active") || (body.type !== undefined && body.type !== "sale") || !!body.ends_at
  if (!disabling) return next()
  try {
    const [list] = await req.scope.resolve(Modules.PRICING).listPriceLists({ id: [req.params.id] }, { select: ["id", "metadata"], take: 1 })
    if ((list?.metadata as Record<string, unknown> | null)?.source === SALE_PRICE_LIST_SOURCE) {
      res.status(400).json({
        type: "not_allowed",
        message: `"${SALE_PRICE_LIST_TITLE}" holds the prices the shop charges for catalog products with a crossed-out price; switching it off would raise those products to their crossed-out prices. It is managed by the catalog sync and stays active.`,
      })
      return
    }
  } catch {
    // The guard never blocks an unrelated update because of its own failure.
  }
  next()
}
