// Product ↔ brand and product ↔ brand model module links, one diff per page: links that
// are right stay, wrong ones are dismissed, missing ones created, in bulk (src/bulk-write/
// product-links.ts: the link API's rows and events without its per-batch uniqueness scan).
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { linkEventMessages, productLinkTo, setProductLinks, transactionWithoutFlushWait } from "../../bulk-write"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"
import { writePathOf } from "../write-path"
import { linksThroughCoreFlows } from "../writes-through-core-flows"

type LinkKind = { entryPoint: string; key: "catalog_brand_id" | "catalog_brand_model_id" }

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
  if ((await writePathOf(container)) === "workflows") return linksThroughCoreFlows(container, kind, wanted)
  const link = productLinkTo(CATALOG_SYNC_MODULE, kind.key)
  // The plugin defines both links (src/links), so the app has them unless it failed to load the plugin's links.
  if (!link) throw new Error(`catalog sync: the app has no link between products and ${kind.key} (src/links)`)
  const changes = await transactionWithoutFlushWait(container, (trx) => setProductLinks(trx, link, wanted))
  const messages = linkEventMessages(link, changes)
  // After the commit, as the link module emits them.
  if (messages.length) await container.resolve(Modules.EVENT_BUS).emit(messages, { internal: true })
  return { created: changes.attached.length, dismissed: changes.detached.length }
}
