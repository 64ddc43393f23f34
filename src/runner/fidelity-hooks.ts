// The fidelity hooks (src/workflows/fidelity) behind one interface, so the runner
// calls reference data, page extras and removal cleanup in one place.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CatalogClient } from "../catalog-client"
import type { CardDetails } from "../sync/card-details"
import type { EffectiveSettings } from "../sync/settings"
import {
  applyPageExtras,
  categoryIdsFor,
  refreshReferenceData,
  removeProductExtras,
  type ReferenceMaps,
  type WrittenProduct,
} from "../workflows/fidelity"

export type { ReferenceMaps, WrittenProduct }

export interface FidelityHooks {
  refreshReferenceData(container: MedusaContainer, client: CatalogClient, state: { id: string; reference_cache?: unknown }, settings: EffectiveSettings): Promise<ReferenceMaps>
  applyPageExtras(container: MedusaContainer, written: WrittenProduct[], ctx: { refs: ReferenceMaps; settings: EffectiveSettings }): Promise<void>
  removeProductExtras(container: MedusaContainer, productIds: string[]): Promise<void>
  categoryIdsFor(details: CardDetails, refs: ReferenceMaps): string[]
}

export const fidelityHooks: FidelityHooks = { refreshReferenceData, applyPageExtras, removeProductExtras, categoryIdsFor }
