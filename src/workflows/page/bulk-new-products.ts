// A page's new products as the bulk writer's input (pure): the same fields, option, variants,
// images, prices and stock the core-flows writer's create writes (inventory items titled by product
// and size, as the sync has always titled them), and back from
// the writer's result to the page's CreatedProduct. The product module checks a few things the
// database does not (title, handle, variant options): a product failing them stays on the
// workflow path, which rejects it with the module's own reason.
import { isValidHandle } from "@medusajs/framework/utils"
import type { BulkPlacement, BulkProduct, CreatedBulkProduct } from "../../bulk-write"
import { CURRENCY_CODE } from "../../sync/catalog-product"
import { productFields, type CreatedProduct, type Placement, type ProductToCreate } from "../page-input"

export function bulkPlacementOf(placement: Placement): BulkPlacement {
  return { ...placement, currencyCode: CURRENCY_CODE }
}

/**
 * Would the product module's createProducts refuse it before reaching the database? (Its
 * validateProductCreatePayload and option checks; unique handles and SKUs are the database's.)
 */
export function refusedByProductModule({ input }: ProductToCreate): boolean {
  if (!input.title || !isValidHandle(input.handle)) return true
  const values = input.variants.map((v) => v.optionValue)
  return values.some((v) => !v) || new Set(values).size !== values.length
}

export function bulkProductOf({ input, stock }: ProductToCreate): BulkProduct {
  // The product fields every write of the sync sets (page-input.ts), in the bulk writer's shape.
  const { images, category_ids, thumbnail, ...fields } = productFields(input)
  return {
    ...fields,
    // The product module's default: no thumbnail → the first image.
    thumbnail: !thumbnail && images.length ? images[0].url : thumbnail,
    images: images.map((i) => i.url),
    categoryIds: category_ids,
    options: [{ title: input.optionTitle, values: input.variants.map((v) => v.optionValue) }],
    variants: input.variants.map((v) => ({
      title: v.title,
      sku: v.sku,
      options: { [input.optionTitle]: v.optionValue },
      amount: v.amount,
      stock: stock[v.sizeKey] ?? 0,
      metadata: v.metadata,
      // Product and size: an item's title reads alone in the admin's inventory list.
      inventoryTitle: `${input.title} ${v.title}`,
    })),
  }
}

/** The writer returns variants in input order: size keys are matched by position. */
export function createdProductOf({ catalogId, input }: ProductToCreate, created: CreatedBulkProduct): CreatedProduct {
  const variantIds: Record<string, string> = {}
  const inventoryItemIds: Record<string, string> = {}
  input.variants.forEach((v, i) => {
    const written = created.variants[i]
    if (written?.sku !== v.sku) throw new Error(`variant ${v.sku} of catalog id ${catalogId} was not created`)
    variantIds[v.sizeKey] = written.variantId
    inventoryItemIds[v.sizeKey] = written.inventoryItemId
  })
  return { catalogId, productId: created.productId, variantIds, inventoryItemIds }
}
