// Each written product's brand and model link (records a card names but /v1/brands did not
// have yet are made first). Link sync is a diff, so running it again changes nothing.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { syncBrandLinks } from "../extras"
import type { PageReferences, WrittenProduct } from "./page-types"

export const syncBrandLinksStepId = "catalog-sync-sync-brand-links"

export const syncBrandLinksStep = createStep(
  syncBrandLinksStepId,
  async (input: { written: WrittenProduct[]; refs: PageReferences }, { container }) =>
    new StepResponse(await syncBrandLinks(container, input.written, input.refs))
)
