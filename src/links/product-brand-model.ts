import { defineLink } from "@medusajs/framework/utils"
import ProductModule from "@medusajs/medusa/product"
import CatalogSyncModule from "../modules/catalog_sync"

/** A product has one catalog brand model; a model has many products. Query: `catalog_brand_model.*`. */
export default defineLink({ linkable: ProductModule.linkable.product, isList: true }, CatalogSyncModule.linkable.catalogBrandModel)
