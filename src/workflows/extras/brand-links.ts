// Product ↔ brand and product ↔ brand model module links, one diff per page: links that
// are right stay, wrong ones are dismissed, missing ones created.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"

type LinkKind = { entryPoint: string; key: "catalog_brand_id" | "catalog_brand_model_id" }

// The links' Query entry points as Medusa names them ("<alias A>_<alias B>" of the links in
// src/links); the brand specs query through these names.
export const BRAND_LINK: LinkKind = { entryPoint: "product_catalog_brand", key: "catalog_brand_id" }
export const MODEL_LINK: LinkKind = { entryPoint: "product_catalog_brand_model", key: "catalog_brand_model_id" }

type LinkDefinition = Record<string, Record<string, string>>

function linkDefinition(kind: LinkKind, productId: string, recordId: string): LinkDefinition {
  return { [Modules.PRODUCT]: { product_id: productId }, [CATALOG_SYNC_MODULE]: { [kind.key]: recordId } }
}

/** Sets each product's single link of this kind to `wanted` (null: no link). */
export async function syncLinks(
  container: MedusaContainer,
  kind: LinkKind,
  wanted: Map<string /* product id */, string | null>,
): Promise<{ created: number; dismissed: number }> {
  const productIds = [...wanted.keys()]
  if (!productIds.length) return { created: 0, dismissed: 0 }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: kind.entryPoint,
    fields: ["product_id", kind.key],
    filters: { product_id: productIds },
  } as never)
  const existing = data as Record<string, string>[]
  const dismiss: LinkDefinition[] = []
  const have = new Set<string>()
  for (const row of existing) {
    const productId = row.product_id
    const recordId = row[kind.key]
    if (wanted.get(productId) === recordId && !have.has(productId)) have.add(productId)
    else dismiss.push(linkDefinition(kind, productId, recordId))
  }
  const create: LinkDefinition[] = []
  for (const [productId, recordId] of wanted) {
    if (recordId && !have.has(productId)) create.push(linkDefinition(kind, productId, recordId))
  }
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  if (dismiss.length) await link.dismiss(dismiss as never)
  if (create.length) await link.create(create as never)
  return { created: create.length, dismissed: dismiss.length }
}
