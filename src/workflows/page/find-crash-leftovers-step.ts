// Products a crash left behind between the product write and the map write: made by this
// plugin (metadata marker) for a catalog id being created, but with no active map row. The
// create adopts one of them (it is written as an update: its variants, prices and inventory
// are found by option value and SKU, what is missing is made), so the product keeps its id
// and nothing is made twice; any further copies are deleted (by the workflow, with Medusa's
// deleteProductsWorkflow). A product of another import that merely shares the external_id is
// left alone.
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { isOwnProduct } from "../../sync/map-card"

export const findCrashLeftoversStepId = "catalog-sync-find-crash-leftovers"

export interface CrashLeftovers {
  /** catalog id → the leftover product this page adopts */
  adopted: Record<string, string>
  /** Further copies, to delete. */
  extraIds: string[]
}

export const findCrashLeftoversStep = createStep(findCrashLeftoversStepId, async (catalogIds: string[], { container }) => {
  const out: CrashLeftovers = { adopted: {}, extraIds: [] }
  if (!catalogIds.length) return new StepResponse(out)
  const products = await container
    .resolve(Modules.PRODUCT)
    .listProducts({ external_id: catalogIds }, { select: ["id", "external_id", "metadata", "created_at"], take: null })
  const orphans = products.filter(isOwnProduct).sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || a.id.localeCompare(b.id))
  for (const p of orphans) {
    if (out.adopted[p.external_id!]) out.extraIds.push(p.id)
    else out.adopted[p.external_id!] = p.id
  }
  return new StepResponse(out)
})
