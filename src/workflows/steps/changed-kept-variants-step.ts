// Of the kept variants a page plans to write, those whose fields or base price the shop holds
// differently (src/sync/kept-variant-changes.ts), read by SQL before anything is written: only
// they are written, as the shop's own variant edit writes one variant, so product-variant.updated
// names exactly the variants that changed.
import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { storedVariants } from "../../bulk-write/reads/stored-variants"
import { changedKeptVariants, type WantedVariant } from "../../sync/kept-variant-changes"
import type { KeptVariant } from "../../sync/variant-changes"

export async function readChangedKeptVariants<T extends WantedVariant>(container: MedusaContainer, kept: { fields: T[]; prices: T[] }) {
  const ids = [...new Set([...kept.fields, ...kept.prices].map((v) => v.variantId))]
  if (!ids.length) return kept
  const stored = await storedVariants(container, ids)
  return changedKeptVariants(stored, kept)
}

export const changedKeptVariantsStep = createStep(
  "catalog-sync-changed-kept-variants",
  async (kept: { fields: KeptVariant[]; prices: KeptVariant[] }, { container }) => new StepResponse(await readChangedKeptVariants(container, kept))
)
