import { model } from "@medusajs/framework/utils"

// A brand and its models in one file: each refers to the other (hasMany / belongsTo), and two
// files would import each other.

/** A brand from /v1/brands, linked to products with a module link. */
export const CatalogBrand = model
  .define(
    { name: "catalog_brand", tableName: "mcs_brand" },
    {
      id: model.id({ prefix: "cbrand" }).primaryKey(),
      catalog_id: model.text(),
      name: model.text().searchable(),
      slug: model.text().nullable(),
      metadata: model.json().nullable(),
      models: model.hasMany(() => CatalogBrandModel, { mappedBy: "brand" }),
    }
  )
  .indexes([{ on: ["catalog_id"], unique: true, where: "deleted_at IS NULL" }])

/** A brand model from /v1/brand-models, linked to products with a module link. */
export const CatalogBrandModel = model
  .define(
    { name: "catalog_brand_model", tableName: "mcs_brand_model" },
    {
      id: model.id({ prefix: "cbmodel" }).primaryKey(),
      catalog_id: model.text(),
      name: model.text().searchable(),
      slug: model.text().nullable(),
      metadata: model.json().nullable(),
      brand: model.belongsTo(() => CatalogBrand, { mappedBy: "models" }).nullable(),
    }
  )
  .indexes([{ on: ["catalog_id"], unique: true, where: "deleted_at IS NULL" }])
