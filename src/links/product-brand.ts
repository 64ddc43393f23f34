import { defineLink } from "@medusajs/framework/utils"
import ProductModule from "@medusajs/medusa/product"
import CatalogSyncModule from "../modules/catalog_sync"

/**
 * A product has one catalog brand; a brand has many products (Medusa's brand pattern).
 * Query: product fields `catalog_brand.*`, brand fields `products.*`.
 */
export default defineLink({ linkable: ProductModule.linkable.product, isList: true }, CatalogSyncModule.linkable.catalogBrand)
