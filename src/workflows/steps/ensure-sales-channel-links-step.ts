// Changed products must be in the sync's sales channel (the setting may have changed
// since they were created). Links that already exist are kept; other channels an admin
// added by hand are left alone. A product with no shipping profile (a crashed create that
// is adopted) gets the shop's; one an admin gave another profile keeps it.
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { timed } from "./profile"

export const ensureSalesChannelLinksStep = createStep(
  "catalog-sync-ensure-sales-channel-links",
  async (input: { productIds: string[]; salesChannelId: string; shippingProfileId?: string | null }, { container }) => {
    if (!input.productIds.length) return new StepResponse(undefined, { missing: [] as string[], salesChannelId: input.salesChannelId })
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "product_sales_channel",
      fields: ["product_id", "sales_channel_id"],
      filters: { product_id: input.productIds, sales_channel_id: input.salesChannelId },
    })
    const linked = new Set(data.map((l: { product_id: string }) => l.product_id))
    const missing = input.productIds.filter((id) => !linked.has(id))
    if (missing.length) {
      await timed(container, "link.create product-sales-channel", () =>
        container
          .resolve(ContainerRegistrationKeys.LINK)
          .create(missing.map((id) => ({ [Modules.PRODUCT]: { product_id: id }, [Modules.SALES_CHANNEL]: { sales_channel_id: input.salesChannelId } })))
      )
    }
    if (input.shippingProfileId) {
      const { data: profiles } = await query.graph({
        entity: "product_shipping_profile",
        fields: ["product_id"],
        filters: { product_id: input.productIds },
      })
      const shipped = new Set((profiles as { product_id: string }[]).map((l) => l.product_id))
      const unshipped = input.productIds.filter((id) => !shipped.has(id))
      if (unshipped.length) {
        await container
          .resolve(ContainerRegistrationKeys.LINK)
          .create(unshipped.map((id) => ({ [Modules.PRODUCT]: { product_id: id }, [Modules.FULFILLMENT]: { shipping_profile_id: input.shippingProfileId! } })))
      }
    }
    return new StepResponse(undefined, { missing, salesChannelId: input.salesChannelId })
  },
  async (undo, { container }) => {
    if (!undo?.missing.length) return
    // Only the links this step created are undone.
    await container
      .resolve(ContainerRegistrationKeys.LINK)
      .dismiss(undo.missing.map((id) => ({ [Modules.PRODUCT]: { product_id: id }, [Modules.SALES_CHANNEL]: { sales_channel_id: undo.salesChannelId } })))
  }
)
