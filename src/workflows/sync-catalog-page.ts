// Writes one page of the changes feed: the pure plan (src/sync/plan-page.ts) carried out
// against Medusa, step by step, in this order:
//
//   check the map against the shop → find crash leftovers (adopt one, delete extra copies) →
//   resolve variant SKUs → create → update (adopted leftovers included) → stock-only levels →
//   removals → brand links → translations → sale prices → variant costs → product map → hook `pageWritten`
//
// Creates and updates are written in WRITE_CONCURRENCY concurrent chunks with per-product
// containment (page/write-in-chunks.ts): a product whose write fails alone is rejected, a
// system failure fails the page. The product map is written last, so a page counts as written
// only once everything before it committed; the caller stores the cursor after this returns
// (rule 2: commit before moving the bookmark).
//
// A shop extends the page with the `pageWritten` hook, which receives the run id and the
// products the page wrote:
//   syncCatalogPageWorkflow.hooks.pageWritten(async ({ runId, products }, { container }) => { … })
import { createHook, createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { deleteProductsWorkflow } from "@medusajs/medusa/core-flows"
import type { RejectedItem } from "../catalog-client/items"
import type { Language } from "../sync/settings/language"
import type { PagePlan } from "../sync/plan-page"
import type { ShopVocabulary } from "../sync/shop-vocabulary"
import type { NewReferences } from "./extras"
import type { Placement } from "./page-input"
import type { RemovalMode } from "./remove-catalog-products"
import { setStockLevelsStep } from "./steps/set-stock-levels-step"
import { readShopBefore, recordChanges, type RecordedChanges } from "./page/record-changes-step"
import { checkMapAgainstShopStep } from "./page/check-map-against-shop-step"
import { findCrashLeftoversStep } from "./page/find-crash-leftovers-step"
import { type PageReferences, writtenProducts } from "./page/page-types"
import { removeMappedProductsStep } from "./page/remove-mapped-products-step"
import { resolveVariantSkusStep } from "./page/resolve-variant-skus-step"
import { syncBrandLinksStep } from "./page/sync-brand-links-step"
import { syncSalePricesStep } from "./page/sync-sale-prices-step"
import { syncTranslationsStep } from "./page/sync-translations-step"
import { writeChangedProductsStep } from "./page/write-changed-products-step"
import { writeNewProductsStep } from "./page/write-new-products-step"
import { writeProductMapStep } from "./page/write-product-map-step"
import { storeVariantCostsStep, type StoreVariantCostsInput } from "./page/store-variant-costs-step"

export const syncCatalogPageWorkflowId = "catalog-sync-sync-catalog-page"

export interface SyncCatalogPageInput {
  runId: string
  /** The pure plan of the page (planPage). */
  plan: PagePlan
  placement: Placement
  removalMode: RemovalMode
  /** The full pass this page belongs to (marks products seen for the sweep), or null. */
  fullPassId: string | null
  refs: PageReferences
  primaryLanguage: Language
  vocabulary: ShopVocabulary | null
  /** Concurrent chunks for creates and updates (read by the caller when the page runs). */
  writeConcurrency: number
  /** ISO time stamped on every map row the page writes. */
  syncedAt: string
  /** The run's price_calculation and rules revision, stored with each size's cost (null: priced without rules). */
  pricing?: StoreVariantCostsInput["pricing"]
}

export interface SyncCatalogPageResult {
  /** The plan as written: products that could not be written left it (they are rejected). */
  plan: PagePlan
  /** The page's plan rejections and the products whose write failed alone. */
  rejected: RejectedItem[]
  /** Brand and model records the page made, for the run's later pages. */
  newReferences: NewReferences
  /** Change-log rows the page stored, and the changes the run's cap left without a row. */
  changeLog: RecordedChanges
}

export const syncCatalogPageWorkflow = createWorkflow(syncCatalogPageWorkflowId, (input: SyncCatalogPageInput) => {
  const plan = checkMapAgainstShopStep(input.plan)
  const shopBefore = readShopBefore(plan, input)

  const leftovers = findCrashLeftoversStep(transform({ plan }, ({ plan }) => plan.create.map((p) => p.catalogId)))
  when({ leftovers }, ({ leftovers }) => leftovers.extraIds.length > 0).then(() => {
    deleteProductsWorkflow.runAsStep({ input: transform({ leftovers }, ({ leftovers }) => ({ ids: leftovers.extraIds })) })
  })

  // Every create and update gets its SKUs (an adopted leftover's own SKUs count as its own).
  const withSkus = resolveVariantSkusStep(
    transform({ plan, leftovers }, ({ plan, leftovers }) => ({ planned: [...plan.create, ...plan.update], adopted: leftovers.adopted }))
  )
  const toWrite = transform({ plan, withSkus, leftovers }, ({ plan, withSkus, leftovers }) => {
    const creates = withSkus.slice(0, plan.create.length)
    const updates = withSkus.slice(plan.create.length)
    return {
      fresh: creates.filter((p) => !leftovers.adopted[p.catalogId]),
      // Adopted leftovers are written with the updates (all their parts).
      changed: [...updates, ...creates.filter((p) => !!leftovers.adopted[p.catalogId])],
    }
  })

  const created = writeNewProductsStep(
    transform({ toWrite, input }, ({ toWrite, input }) => ({
      products: toWrite.fresh,
      placement: input.placement,
      concurrency: input.writeConcurrency,
    }))
  )
  const changed = writeChangedProductsStep(
    transform({ toWrite, leftovers, input, created }, ({ toWrite, leftovers, input, created }) => ({
      products: toWrite.changed,
      adopted: leftovers.adopted,
      placement: input.placement,
      concurrency: input.writeConcurrency,
      alreadyWritten: created.written.length,
    }))
  )
  // Adopted products count (and get their map rows) as created.
  const writes = transform({ created, changed, leftovers }, ({ created, changed, leftovers }) => {
    const isAdopted = (catalogId: string) => !!leftovers.adopted[catalogId]
    const createdAll = [...created.written, ...changed.written.filter((w) => isAdopted(w.plan.catalogId))]
    const updated = changed.written.filter((w) => !isAdopted(w.plan.catalogId))
    return {
      created: createdAll,
      updated,
      written: writtenProducts([...createdAll, ...updated]),
      rejected: [...created.rejected, ...changed.rejected],
    }
  })

  setStockLevelsStep(
    transform({ plan, input }, ({ plan, input }) => ({
      levels: plan.stockOnly.flatMap((p) =>
        Object.entries(p.stock)
          .filter(([size]) => p.row!.inventory_item_ids?.[size])
          .map(([size, quantity]) => ({ inventoryItemId: p.row!.inventory_item_ids![size], quantity }))
      ),
      stockLocationId: input.placement.stockLocationId,
    }))
  )

  removeMappedProductsStep(
    transform({ plan, input }, ({ plan, input }) => ({ rows: plan.remove, mode: input.removalMode, runId: input.runId, syncedAt: input.syncedAt }))
  )

  const newReferences = syncBrandLinksStep(transform({ writes, input }, ({ writes, input }) => ({ written: writes.written, refs: input.refs })))
  syncTranslationsStep(
    transform({ writes, input }, ({ writes, input }) => ({
      written: writes.written,
      translationsEnabled: input.refs.translationsEnabled,
      primaryLanguage: input.primaryLanguage,
      vocabulary: input.vocabulary,
    }))
  )
  syncSalePricesStep(transform({ writes, input }, ({ writes, input }) => ({ written: writes.written, salePriceListId: input.refs.salePriceListId })))

  storeVariantCostsStep(transform({ plan, writes, input }, ({ plan, writes, input }) => ({ plan, created: writes.created, updated: writes.updated, pricing: input.pricing ?? null })))

  writeProductMapStep(
    transform({ plan, writes, input }, ({ plan, writes, input }) => ({
      plan,
      created: writes.created,
      updated: writes.updated,
      runId: input.runId,
      fullPassId: input.fullPassId,
      syncedAt: input.syncedAt,
    }))
  )

  const changeLog = recordChanges({ plan, writes, shopBefore, input })

  const pageWritten = createHook("pageWritten", {
    runId: input.runId,
    products: transform({ writes }, ({ writes }) =>
      writes.written.map((w) => ({ catalogId: w.catalogId, productId: w.productId, variantIds: w.variantIdsBySize }))
    ),
  })

  const result = transform({ plan, writes, newReferences, changeLog }, ({ plan, writes, newReferences, changeLog }): SyncCatalogPageResult => ({
    plan: { ...plan, create: writes.created.map((w) => w.plan), update: writes.updated.map((w) => w.plan) },
    rejected: [...plan.rejected, ...writes.rejected],
    newReferences,
    changeLog,
  }))
  return new WorkflowResponse(result, { hooks: [pageWritten] })
})
