// The shop both bulk-write comparisons (compare.exec.ts, events.exec.ts) write into, inside the
// demo app run by `medusa exec`: the default sales channel and shipping profile, a new stock
// location and category, the placement the writers take, and two plain SQL read-backs.
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createProductCategoriesWorkflow, createStockLocationsWorkflow } from "@medusajs/medusa/core-flows"

export const CURRENCY = "uah"

export async function setUpShop(container: any) {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const [salesChannel] = await container.resolve(Modules.SALES_CHANNEL).listSalesChannels({}, { take: 1 })
  const [shippingProfile] = await container.resolve(Modules.FULFILLMENT).listShippingProfiles({}, { take: 1 })
  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({ input: { locations: [{ name: "Склад" }] } })
  const {
    result: [category],
  } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: [{ name: "Взуття", is_active: true }] },
  })
  const placement = {
    salesChannelId: salesChannel.id as string,
    stockLocationId: location.id as string,
    shippingProfileId: (shippingProfile?.id ?? null) as string | null,
    currencyCode: CURRENCY,
  }
  /** The product's live inventory items, in variant rank order. */
  const itemsOf = async (id: string): Promise<string[]> =>
    (
      await pg.raw(
        `select l.inventory_item_id from product_variant_inventory_item l join product_variant v on v.id = l.variant_id
          where v.product_id = ? and l.deleted_at is null and v.deleted_at is null order by v.variant_rank`,
        [id]
      )
    ).rows.map((r: any) => r.inventory_item_id)
  /** The product's live variants, in rank order. */
  const variantsOf = async (id: string): Promise<string[]> =>
    (await pg.raw("select id from product_variant where product_id = ? and deleted_at is null order by variant_rank", [id])).rows.map((r: any) => r.id)
  return { pg, location, category, placement, itemsOf, variantsOf }
}
