// First-run setup: make sure the shop can sell what the sync imports. The store gets
// the `uah` currency; the configured stock location and sales channel are used, or
// ones of our own are found (by a metadata marker) or created and named clearly.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { updateStoresWorkflow } from "@medusajs/medusa/core-flows"
import { CURRENCY_CODE } from "../sync/product-input"

export const OWN_STOCK_LOCATION_NAME = "Catalog sync warehouse"
export const OWN_SALES_CHANNEL_NAME = "Catalog sync"
/** Marks the records this plugin created, so later runs find them again. */
const MARKER = { created_by: "medusa-catalog-sync" }

export interface ShopSetup {
  stockLocationId: string
  salesChannelId: string
  /** Products are linked to it so they can be shipped; null when the shop has none. */
  shippingProfileId: string | null
}

async function ensureCurrency(container: MedusaContainer): Promise<void> {
  const storeModule = container.resolve(Modules.STORE)
  const [store] = await storeModule.listStores({}, { relations: ["supported_currencies"], take: 1 })
  if (!store) return
  const current = store.supported_currencies ?? []
  if (current.some((c) => c.currency_code === CURRENCY_CODE)) return
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        supported_currencies: [
          ...current.map((c) => ({ currency_code: c.currency_code, is_default: c.is_default })),
          { currency_code: CURRENCY_CODE, is_default: current.length === 0 },
        ],
      },
    },
  })
}

async function ensureStockLocation(container: MedusaContainer, configured: string | null): Promise<string> {
  const locations = container.resolve(Modules.STOCK_LOCATION)
  if (configured) {
    const [found] = await locations.listStockLocations({ id: configured }, { take: 1 })
    if (found) return found.id
  }
  const own = (await locations.listStockLocations({ name: OWN_STOCK_LOCATION_NAME }, { take: 20 })).find(
    (l) => (l.metadata as Record<string, unknown> | null)?.created_by === MARKER.created_by
  )
  if (own) return own.id
  const created = await locations.createStockLocations({ name: OWN_STOCK_LOCATION_NAME, metadata: MARKER })
  return created.id
}

async function ensureSalesChannel(container: MedusaContainer, configured: string | null): Promise<string> {
  const channels = container.resolve(Modules.SALES_CHANNEL)
  if (configured) {
    const [found] = await channels.listSalesChannels({ id: configured }, { take: 1 })
    if (found) return found.id
  }
  // Sales channels carry no metadata on create: ours is found by its name.
  const [own] = await channels.listSalesChannels({ name: OWN_SALES_CHANNEL_NAME }, { take: 1, order: { created_at: "ASC" } })
  if (own) return own.id
  const created = await channels.createSalesChannels({
    name: OWN_SALES_CHANNEL_NAME,
    description: "Products imported from the reseller catalog",
  })
  return created.id
}

/** The sales channel must see the stock location, or the storefront shows no availability. */
async function ensureChannelSeesLocation(container: MedusaContainer, salesChannelId: string, stockLocationId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "sales_channel_location",
    fields: ["sales_channel_id", "stock_location_id"],
    filters: { sales_channel_id: salesChannelId, stock_location_id: stockLocationId },
  })
  if (data.length) return
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  await link.create({
    [Modules.SALES_CHANNEL]: { sales_channel_id: salesChannelId },
    [Modules.STOCK_LOCATION]: { stock_location_id: stockLocationId },
  })
}

async function defaultShippingProfile(container: MedusaContainer): Promise<string | null> {
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const profiles = await fulfillment.listShippingProfiles({}, { take: 50 })
  const profile = profiles.find((p) => p.type === "default") ?? profiles[0]
  if (profile) return profile.id
  const created = await fulfillment.createShippingProfiles({ name: "Default Shipping Profile", type: "default" })
  return created.id
}

export async function ensureShopSetup(
  container: MedusaContainer,
  configured: { stockLocationId: string | null; salesChannelId: string | null }
): Promise<ShopSetup> {
  await ensureCurrency(container)
  const stockLocationId = await ensureStockLocation(container, configured.stockLocationId)
  const salesChannelId = await ensureSalesChannel(container, configured.salesChannelId)
  await ensureChannelSeesLocation(container, salesChannelId, stockLocationId)
  const shippingProfileId = await defaultShippingProfile(container)
  return { stockLocationId, salesChannelId, shippingProfileId }
}
