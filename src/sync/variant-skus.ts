// Pure: which SKU each variant of a page gets. The plain `<sku>-<size>` (or `<sku>`) unless a
// variant of another product already holds it, or another card of the page claims it first;
// then `<sku>-<size>#<catalog id>` (variantSku in map-card.ts). Deterministic: a variant that
// already has its plain SKU keeps it, and cards competing for a free one are served in
// catalog-id order, so replaying a page gives every variant the same SKU again.
import { variantSkuCandidates } from "./map-card"

export interface SkuRequest {
  catalogId: string
  card: { sku: string; id: string }
  /** The product already in the shop (an update), or null (a create). */
  productId: string | null
  variants: { sizeKey: string; currentSku: string | null }[]
}

/** catalog id → size key → SKU */
export type SkuChoice = Map<string, Map<string, string>>

function byCatalogId(a: SkuRequest, b: SkuRequest): number {
  // Ids are 64-bit decimal strings: shorter is smaller, then lexicographic.
  return a.catalogId.length - b.catalogId.length || (a.catalogId < b.catalogId ? -1 : a.catalogId > b.catalogId ? 1 : 0)
}

/** A variant that has its plain SKU keeps it (the first claim of a plain SKU wins). */
function keptPlainSkus(requests: SkuRequest[]): { choice: SkuChoice; claimedBy: Map<string, string> } {
  const choice: SkuChoice = new Map(requests.map((r) => [r.catalogId, new Map<string, string>()]))
  const claimedBy = new Map<string, string>()
  for (const r of requests) {
    for (const v of r.variants) {
      const [plain] = variantSkuCandidates(r.card, v.sizeKey)
      if (v.currentSku === plain && !claimedBy.has(plain)) {
        claimedBy.set(plain, r.catalogId)
        choice.get(r.catalogId)!.set(v.sizeKey, plain)
      }
    }
  }
  return { choice, claimedBy }
}

/**
 * The SKUs whose holders `chooseVariantSkus` looks up: the plain SKUs of the variants that do not
 * keep theirs. A page whose variants all keep their plain SKUs (an update of prices or stock) needs
 * no look-up at all.
 */
export function skusToLookUp(requests: SkuRequest[]): string[] {
  const { choice } = keptPlainSkus(requests)
  const out = new Set<string>()
  for (const r of requests) {
    for (const v of r.variants) if (!choice.get(r.catalogId)!.has(v.sizeKey)) out.add(variantSkuCandidates(r.card, v.sizeKey)[0])
  }
  return [...out]
}

/**
 * `holders`: SKU → product id of every live variant in the shop that holds one of the
 * requests' candidate SKUs.
 */
export function chooseVariantSkus(requests: SkuRequest[], holders: Map<string, string>): SkuChoice {
  const { choice, claimedBy } = keptPlainSkus(requests)
  for (const r of [...requests].sort(byCatalogId)) {
    for (const v of r.variants) {
      if (choice.get(r.catalogId)!.has(v.sizeKey)) continue
      const [plain, suffixed] = variantSkuCandidates(r.card, v.sizeKey)
      const holder = holders.get(plain)
      const claimant = claimedBy.get(plain)
      const taken = (holder !== undefined && holder !== r.productId) || (claimant !== undefined && claimant !== r.catalogId)
      const sku = taken ? suffixed : plain
      if (!taken) claimedBy.set(plain, r.catalogId)
      choice.get(r.catalogId)!.set(v.sizeKey, sku)
    }
  }
  return choice
}
