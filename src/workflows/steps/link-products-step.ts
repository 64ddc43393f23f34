// Links new products to the sales channel and the shipping profile, so they can be sold
// and shipped. Compensation dismisses the links.
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { LinkDefinition } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { timed } from "./profile"

export const linkProductsStep = createStep(
  "catalog-sync-link-products",
  async (input: { productIds: string[]; salesChannelId: string; shippingProfileId: string | null }, { container }) => {
    const links: LinkDefinition[] = []
    for (const productId of input.productIds) {
      links.push({ [Modules.PRODUCT]: { product_id: productId }, [Modules.SALES_CHANNEL]: { sales_channel_id: input.salesChannelId } })
      if (input.shippingProfileId) {
        links.push({ [Modules.PRODUCT]: { product_id: productId }, [Modules.FULFILLMENT]: { shipping_profile_id: input.shippingProfileId } })
      }
    }
    if (links.length) await timed(container, "link.create product", () => container.resolve(ContainerRegistrationKeys.LINK).create(links))
    return new StepResponse(undefined, links)
  },
  async (links, { container }) => {
    if (links?.length) await container.resolve(ContainerRegistrationKeys.LINK).dismiss(links)
  }
)
