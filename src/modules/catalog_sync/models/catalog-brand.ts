import { model } from "@medusajs/framework/utils"
import CatalogBrandModel from "./catalog-brand-model"

/** A brand from /v1/brands, linked to products with a module link. */
const CatalogBrand = model
  .define("catalog_brand", {
    id: model.id({ prefix: "cbrand" }).primaryKey(),
    catalog_id: model.text(),
    name: model.text().searchable(),
    slug: model.text().nullable(),
    metadata: model.json().nullable(),
    models: model.hasMany(() => CatalogBrandModel, { mappedBy: "brand" }),
  })
  .indexes([{ on: ["catalog_id"], unique: true, where: "deleted_at IS NULL" }])

export default CatalogBrand
