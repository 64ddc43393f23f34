// Product ↔ brand and product ↔ brand model module links, one diff per page: links that
// are right stay, wrong ones are dismissed, missing ones created, by the run's writer (src/shop-writer).
import type { MedusaContainer } from "@medusajs/framework/types"
import { shopWriter } from "../../shop-writer/choose-shop-writer"
import type { LinkKind } from "../../shop-writer/shop-writer"

// The links' Query entry points as Medusa names them ("<alias A>_<alias B>" of the links in
// src/links); the brand specs query through these names.
export const BRAND_LINK: LinkKind = { entryPoint: "product_catalog_brand", key: "catalog_brand_id" }
export const MODEL_LINK: LinkKind = { entryPoint: "product_catalog_brand_model", key: "catalog_brand_model_id" }

/** Sets each product's single link of this kind to `wanted` (null: no link). */
export async function syncLinks(
  container: MedusaContainer,
  kind: LinkKind,
  wanted: Map<string /* product id */, string | null>
): Promise<{ created: number; dismissed: number }> {
  if (!wanted.size) return { created: 0, dismissed: 0 }
  return (await shopWriter(container)).setLinks(kind, wanted)
}
