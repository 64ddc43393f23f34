// The bulk writer's product links: the link API's rows and events (src/bulk-write/product-links.ts)
// without its per-batch uniqueness scan, one transaction, the events after the commit.
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { linkEventMessages, productLinkTo, setProductLinks, transactionWithoutFlushWait } from "../../bulk-write"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"
import type { LinkKind } from "../shop-writer"

export async function setLinksInBulk(container: MedusaContainer, kind: LinkKind, wanted: Map<string, string | null>) {
  const link = productLinkTo(CATALOG_SYNC_MODULE, kind.key)
  // The plugin defines both links (src/links), so the app has them unless it failed to load the plugin's links.
  if (!link) throw new Error(`catalog sync: the app has no link between products and ${kind.key} (src/links)`)
  const changes = await transactionWithoutFlushWait(container, (trx) => setProductLinks(trx, link, wanted))
  const messages = linkEventMessages(link, changes)
  // After the commit, as the link module emits them.
  if (messages.length) await container.resolve(Modules.EVENT_BUS).emit(messages, { internal: true })
  return { created: changes.attached.length, dismissed: changes.detached.length }
}
