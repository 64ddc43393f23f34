// The page workflow's result, as a step's output. A workflow whose result is a transform
// computes it again when the run ends, with no cached transforms: the whole chain back to the
// workflow's input (the page's plan) would be read and shaped a second time.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { SyncCatalogPageResult } from "./page-result"

export const pageResultStepId = "catalog-sync-page-result"

export const pageResultStep = createStep(pageResultStepId, async (result: SyncCatalogPageResult) => new StepResponse(result))
