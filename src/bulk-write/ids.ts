// Ids exactly as Medusa's models make them (`model.id({ prefix })` → generateEntityId):
// `<prefix>_<ULID>`. The prefixes are those of Medusa 2.21's models and module links.
import { generateEntityId } from "@medusajs/framework/utils"

export const ID_PREFIX = {
  product: "prod",
  option: "opt",
  optionValue: "optval",
  productOption: "prodopt",
  productOptionValue: "prodoptval",
  variant: "variant",
  image: "img",
  priceSet: "pset",
  price: "price",
  inventoryItem: "iitem",
  inventoryLevel: "ilev",
  productSalesChannel: "prodsc",
  productShippingProfile: "prodsp",
  variantPriceSet: "pvps",
  variantInventoryItem: "pvitem",
} as const

export function newId(prefix: string): string {
  return generateEntityId(undefined, prefix)
}
