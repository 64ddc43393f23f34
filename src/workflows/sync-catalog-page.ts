// Writes one page of the changes feed: the pure plan (src/sync/plan-page.ts) carried out
// against Medusa, in five steps:
//
//   prepare (check the map against the shop; side by side: read the shop's prices before (change
//   log), find crash leftovers, read field locks) → delete extra copies of crash leftovers
//   (Medusa's deleteProductsWorkflow) → write products (SKUs, then creates, then updates: adopted
//   leftovers and locks included) → write related records side by side (stock-only levels, held
//   and written field values, removals, brand links, translations, sale prices, variant costs) →
//   product map → change log and the page's result → hook `pageWritten`
//
// Creates are written in one bulk transaction (page/new-products-in-bulk.ts); updates, and
// creates whose bulk transaction rolled back, in WRITE_CONCURRENCY concurrent chunks with
// per-product containment (page/write-in-chunks.ts): a product whose write fails alone is
// rejected, a system failure fails the page. The product map is written last, so a page counts as written
// only once everything before it committed; the caller stores the cursor after this returns
// (rule 2: commit before moving the bookmark).
//
// The page's plan and the steps' working data stay out of the workflow's data
// (page/page-context.ts): the input names the page by its key, with its small settings.
//
// A shop extends the page with the `pageWritten` hook, which receives the run id and the
// products the page wrote:
//   syncCatalogPageWorkflow.hooks.pageWritten(async ({ runId, products }, { container }) => { … })
import { createHook, createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { deleteProductsWorkflow } from "@medusajs/medusa/core-flows"
import type { PageSettings } from "./page/page-context"
import { preparePageStep } from "./page/prepare-page-step"
import { recordChangesStep } from "./page/record-changes-step"
import { writeProductMapStep } from "./page/write-product-map-step"
import { writeProductsStep } from "./page/write-products-step"
import { writeRelatedRecordsStep } from "./page/write-related-records-step"

export const syncCatalogPageWorkflowId = "catalog-sync-sync-catalog-page"

export interface SyncCatalogPageInput extends PageSettings {
  /** The page open in this process (page/page-context.ts withOpenPage). */
  pageKey: string
}

export type { SyncCatalogPageResult } from "./page/record-changes-step"

export const syncCatalogPageWorkflow = createWorkflow(syncCatalogPageWorkflowId, (input: SyncCatalogPageInput) => {
  const prepared = preparePageStep(input)
  when({ prepared }, ({ prepared }) => prepared.extraIds.length > 0).then(() => {
    deleteProductsWorkflow.runAsStep({ input: transform({ prepared }, ({ prepared }) => ({ ids: prepared.extraIds })) })
  })
  const products = writeProductsStep(input)
  writeRelatedRecordsStep(input)
  writeProductMapStep(input)
  const result = recordChangesStep(input)
  const pageWritten = createHook("pageWritten", { runId: input.runId, products })
  return new WorkflowResponse(result, { hooks: [pageWritten] })
})
