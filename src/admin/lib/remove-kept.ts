// The one Remove of a product kept by the admin's discard (pure words): the sync page's
// "Kept products" and the product's widget ask and answer the same way.
import type { KeptProduct } from "./types"

/** Only a product kept by a discard has a Remove: one an open order keeps goes by itself. */
export function canRemoveKept(p: Pick<KeptProduct, "reason" | "catalog_id">): p is Pick<KeptProduct, "reason"> & { catalog_id: string } {
  return p.reason === "discarded" && !!p.catalog_id
}

/** The confirm prompt before the removal (usePrompt's options). */
export function removeKeptPrompt(p: Pick<KeptProduct, "title" | "product_id">) {
  return {
    title: "Remove this product?",
    description: `"${p.title ?? p.product_id}" is removed from the shop as the sync removes products the catalog no longer has (an open order keeps what it reserved).`,
    confirmText: "Remove",
    cancelText: "Cancel",
  }
}

export const REMOVE_KEPT_QUEUED = "Removal queued: a sync removes it now"
export const REMOVE_KEPT_FAILED = "The product was not removed"
