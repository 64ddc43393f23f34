// The fidelity engineer's hooks (src/workflows/fidelity): reference data, page extras
// (translations, sale prices, categories, brands) and their cleanup on removal. Loaded
// when present; until then the engine runs with no-op defaults behind the same shape.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { ProductCard } from "../catalog-client/schemas"
import type { CardDetails } from "../sync/card-details"

export interface WrittenProduct {
  catalogId: string
  productId: string
  variantIdsBySize: Record<string, string>
  card: ProductCard
  details: CardDetails
}

export interface FidelityHooks {
  refreshReferenceData(container: MedusaContainer, client: unknown, state: unknown): Promise<unknown>
  applyPageExtras(container: MedusaContainer, written: WrittenProduct[], ctx: { refs: unknown; settings: unknown }): Promise<void>
  removeProductExtras(container: MedusaContainer, productIds: string[]): Promise<void>
}

const noop: FidelityHooks = {
  async refreshReferenceData() {
    return null
  },
  async applyPageExtras() {},
  async removeProductExtras() {},
}

export async function loadFidelityHooks(): Promise<FidelityHooks> {
  // A variable path keeps the type checker from requiring the module before it exists.
  const modulePath = "../workflows/fidelity"
  try {
    const mod = (await import(modulePath)) as Partial<FidelityHooks>
    return {
      refreshReferenceData: mod.refreshReferenceData ?? noop.refreshReferenceData,
      applyPageExtras: mod.applyPageExtras ?? noop.applyPageExtras,
      removeProductExtras: mod.removeProductExtras ?? noop.removeProductExtras,
    }
  } catch (e) {
    if ((e as { code?: string }).code === "MODULE_NOT_FOUND" || /Cannot find module/.test(String(e))) return noop
    throw e
  }
}
