import { model } from "@medusajs/framework/utils"
import CatalogBrand from "./catalog-brand"

/** A brand model from /v1/brand-models, linked to products with a module link. */
const CatalogBrandModel = model
  .define("catalog_brand_model", {
    id: model.id({ prefix: "cbmodel" }).primaryKey(),
    catalog_id: model.text(),
    name: model.text().searchable(),
    slug: model.text().nullable(),
    metadata: model.json().nullable(),
    brand: model.belongsTo(() => CatalogBrand, { mappedBy: "models" }).nullable(),
  })
  .indexes([{ on: ["catalog_id"], unique: true, where: "deleted_at IS NULL" }])

export default CatalogBrandModel
