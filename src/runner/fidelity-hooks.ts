// The fidelity hooks (src/workflows/fidelity) behind one interface, so the runner calls
// reference data, page extras and removal cleanup in one place. Required lazily: the
// fidelity code imports module links, which import the catalog_sync module, and the
// platform loads runSync while that module starts (a top-level import would be circular).
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CatalogClient } from "../catalog-client"
import type { CardDetails } from "../sync/card-details"
import type { EffectiveSettings } from "../sync/settings"
import type { ReferenceMaps, WrittenProduct } from "../workflows/fidelity"

export type { ReferenceMaps, WrittenProduct }

export interface FidelityHooks {
  refreshReferenceData(container: MedusaContainer, client: CatalogClient, state: { id: string; reference_cache?: unknown }, settings: EffectiveSettings): Promise<ReferenceMaps>
  applyPageExtras(container: MedusaContainer, written: WrittenProduct[], ctx: { refs: ReferenceMaps; settings: EffectiveSettings }): Promise<void>
  removeProductExtras(container: MedusaContainer, productIds: string[]): Promise<void>
  categoryIdsFor(details: CardDetails, refs: ReferenceMaps): string[]
}

export function loadFidelityHooks(): FidelityHooks {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const fidelity = require("../workflows/fidelity") as typeof import("../workflows/fidelity")
  return {
    refreshReferenceData: fidelity.refreshReferenceData,
    applyPageExtras: fidelity.applyPageExtras,
    removeProductExtras: fidelity.removeProductExtras,
    categoryIdsFor: fidelity.categoryIdsFor,
  }
}
