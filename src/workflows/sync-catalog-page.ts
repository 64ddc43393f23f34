// Writes one page of the changes feed: the pure plan (src/sync/plan-page.ts) carried out
// against Medusa, step by step, in this order:
//
//   check the map against the shop → read the shop's prices before (change log) → find crash
//   leftovers (adopt one, delete extra copies) → resolve variant SKUs → read field locks → create →
//   update (adopted leftovers and locks included) → stock-only levels (bulk) → record held and
//   written field values → removals → brand links and translations (side by side) → sale prices →
//   variant costs → product map → change log → hook `pageWritten`
//
// Creates are written in one bulk transaction (page/new-products-in-bulk.ts); updates, and
// creates whose bulk transaction rolled back, in WRITE_CONCURRENCY concurrent chunks with
// per-product containment (page/write-in-chunks.ts): a product whose write fails alone is
// rejected, a system failure fails the page. The product map is written last, so a page counts as written
// only once everything before it committed; the caller stores the cursor after this returns
// (rule 2: commit before moving the bookmark).
//
// A shop extends the page with the `pageWritten` hook, which receives the run id and the
// products the page wrote:
//   syncCatalogPageWorkflow.hooks.pageWritten(async ({ runId, products }, { container }) => { … })
import { createHook, createWorkflow, parallelize, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { deleteProductsWorkflow } from "@medusajs/medusa/core-flows"
import type { RejectedItem } from "../catalog-client/items"
import type { Language } from "../sync/settings/language"
import type { PagePlan } from "../sync/plan-page"
import type { ShopVocabulary } from "../sync/shop-vocabulary"
import type { NewReferences } from "./extras"
import type { Placement, ProductToCreate, ProductToUpdate } from "./page-input"
import type { RemovalMode } from "./remove-catalog-products"
import { readShopBefore, recordChanges, type RecordedChanges } from "./page/record-changes-step"
import { checkMapAgainstShopStep } from "./page/check-map-against-shop-step"
import { findCrashLeftoversStep } from "./page/find-crash-leftovers-step"
import {
  type PageReferences,
  type PlannedRecord,
  type PlannedWrite,
  planRecords,
  productsToWrite,
  skuSubject,
  type WrittenRecord,
  writtenProducts,
} from "./page/page-types"
import { removeMappedProductsStep } from "./page/remove-mapped-products-step"
import { setStockInBulkStep } from "./page/set-stock-in-bulk-step"
import { resolveVariantSkusStep } from "./page/resolve-variant-skus-step"
import { syncBrandLinksStep } from "./page/sync-brand-links-step"
import { syncSalePricesStep } from "./page/sync-sale-prices-step"
import { syncTranslationsStep } from "./page/sync-translations-step"
import { writeChangedProductsStep } from "./page/write-changed-products-step"
import { writeNewProductsStep } from "./page/write-new-products-step"
import { writeProductMapStep } from "./page/write-product-map-step"
import { plannedCosts, storeVariantCostsStep, type CostPricing } from "./page/store-variant-costs-step"
import { readFieldLocksStep } from "./page/read-field-locks-step"
import { recordFieldValuesStep } from "./page/record-field-values-step"
import { lockedPageWrites, recordedFieldValues, salePriceSubjects, stockOnlyLevels } from "./page/field-lock-writes"

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
  pricing?: CostPricing | null
}

export interface SyncCatalogPageResult {
  /**
   * Catalog ids of the plan as written: the map check may move a product to create or update,
   * and products that could not be written left it (they are rejected).
   */
  written: { create: string[]; update: string[]; stockOnly: string[] }
  /** The page's plan rejections and the products whose write failed alone. */
  rejected: RejectedItem[]
  /** Brand and model records the page made, for the run's later pages. */
  newReferences: NewReferences
  /** Change-log rows the page stored, and the changes the run's cap left without a row. */
  changeLog: RecordedChanges
}

const ALL_PARTS = { fields: true, variants: true, prices: true }

export const syncCatalogPageWorkflow = createWorkflow(syncCatalogPageWorkflowId, (input: SyncCatalogPageInput) => {
  // The whole input is read twice only: here, shaped into small per-step records, and by
  // `productsToWrite` below. Every read of workflow data is a deep copy (page/page-types.ts).
  const planned = transform({ input }, ({ input }) => {
    const { plan, ...settings } = input
    return { ...settings, salePriceListId: input.refs.salePriceListId, ...planRecords(plan), costs: plannedCosts(plan, input.pricing) }
  })
  const checked = checkMapAgainstShopStep(
    transform({ planned }, ({ planned }) => ({ create: planned.create, update: planned.update, stockOnly: planned.stockOnly }))
  )
  // The cost rows stay out of `page`, which most steps read: only the cost step needs them.
  const page = transform({ planned, checked }, ({ planned, checked }) => {
    const { costs: _costs, ...records } = planned
    return { ...records, ...checked }
  })
  // The page's settings, read once: steps that need no records read these instead of `page`
  // (every read of workflow data deep-copies all of it, records included).
  const settings = transform({ page }, ({ page }) => ({
    runId: page.runId,
    placement: page.placement,
    writeConcurrency: page.writeConcurrency,
    refs: page.refs,
    primaryLanguage: page.primaryLanguage,
    vocabulary: page.vocabulary,
    salePriceListId: page.salePriceListId,
  }))
  const shopBefore = readShopBefore(page)

  const leftovers = findCrashLeftoversStep(transform({ page }, ({ page }) => page.create.map((p) => p.catalogId)))
  when({ leftovers }, ({ leftovers }) => leftovers.extraIds.length > 0).then(() => {
    deleteProductsWorkflow.runAsStep({ input: transform({ leftovers }, ({ leftovers }) => ({ ids: leftovers.extraIds })) })
  })

  // Every create and update gets its SKUs (an adopted leftover's own SKUs count as its own).
  const withSkus = resolveVariantSkusStep(
    transform({ page, leftovers }, ({ page, leftovers }) => ({
      planned: [...page.create, ...page.update].map(skuSubject),
      adopted: leftovers.adopted,
    }))
  )
  const products = transform({ input, page }, ({ input, page }) => productsToWrite(input.plan, page))
  const toWrite = transform({ page, products, withSkus, leftovers }, ({ page, products, withSkus, leftovers }) => {
    const skus = new Map(withSkus.map((s) => [s.catalogId, new Map(s.input.variants.map((v) => [v.sizeKey, v.sku]))]))
    const writeInput = (catalogId: string) => {
      const { input, stock } = products[catalogId]
      const chosen = skus.get(catalogId)
      return { input: { ...input, variants: input.variants.map((v) => ({ ...v, sku: chosen?.get(v.sizeKey) ?? v.sku })) }, stock }
    }
    const adopted = (p: PlannedRecord) => !!leftovers.adopted[p.catalogId]
    const changed = (p: PlannedRecord): ProductToUpdate => {
      const orphan = leftovers.adopted[p.catalogId] ?? null
      return {
        catalogId: p.catalogId,
        productId: orphan ?? p.row!.product_id!,
        ...writeInput(p.catalogId),
        variantIds: orphan ? {} : p.row!.variant_ids ?? {},
        inventoryItemIds: orphan ? {} : p.row!.inventory_item_ids ?? {},
        partsToWrite: orphan ? ALL_PARTS : p.partsToWrite,
      }
    }
    return {
      fresh: page.create.filter((p) => !adopted(p)).map((p): ProductToCreate => ({ catalogId: p.catalogId, ...writeInput(p.catalogId) })),
      // Adopted leftovers are written with the updates (all their parts).
      changed: [...page.update, ...page.create.filter(adopted)].map(changed),
    }
  })

  // Field locks: locked fields leave the updates (and stock-only levels) before the writes.
  const locks = readFieldLocksStep(
    transform({ page }, ({ page }) => [...page.update, ...page.stockOnly].flatMap((p) => (p.row?.product_id ? [p.row.product_id] : [])))
  )
  const locked = transform({ toWrite, locks }, ({ toWrite, locks }) => lockedPageWrites(toWrite, locks))

  const created = writeNewProductsStep(
    transform({ toWrite, settings }, ({ toWrite, settings }) => ({
      products: toWrite.fresh,
      placement: settings.placement,
      concurrency: settings.writeConcurrency,
    }))
  )
  const changed = writeChangedProductsStep(
    transform({ locked, settings, created }, ({ locked, settings, created }) => ({
      products: locked.changed,
      placement: settings.placement,
      concurrency: settings.writeConcurrency,
      alreadyWritten: created.written.length,
    }))
  )
  // Adopted products count (and get their map rows) as created.
  const writes = transform({ created, changed, leftovers, page }, ({ created, changed, leftovers, page }) => {
    const records = new Map([...page.create, ...page.update].map((p) => [p.catalogId, p]))
    const withRecord = (w: PlannedWrite): WrittenRecord => ({ record: records.get(w.catalogId)!, result: w.result })
    const isAdopted = (w: PlannedWrite) => !!leftovers.adopted[w.catalogId]
    const createdAll = [...created.written, ...changed.written.filter(isAdopted)].map(withRecord)
    const updated = changed.written.filter((w) => !isAdopted(w)).map(withRecord)
    // Brand links and translations come from the product fields: a price-only change leaves them.
    const pricesOnly = new Set(changed.pricesOnly ?? [])
    return {
      created: createdAll,
      updated,
      written: writtenProducts([...createdAll, ...updated]),
      fieldsWritten: writtenProducts([...createdAll, ...updated.filter((w) => !pricesOnly.has(w.record.catalogId))]),
      rejected: [...created.rejected, ...changed.rejected],
    }
  })

  setStockInBulkStep(
    transform({ page, locks }, ({ page, locks }) => ({
      levels: stockOnlyLevels(page.stockOnly, locks.byProductId),
      stockLocationId: page.placement.stockLocationId,
    }))
  )
  recordFieldValuesStep(
    transform({ held: locked.held, written: locked.written, writes, page, locks }, ({ held, written, writes, page, locks }) =>
      recordedFieldValues({ held, written }, writes, page, locks)
    )
  )

  removeMappedProductsStep(
    transform({ page }, ({ page }) => ({ rows: page.remove, mode: page.removalMode, runId: page.runId, syncedAt: page.syncedAt }))
  )

  // Brand links and translations write different records: run side by side.
  const [newReferences] = parallelize(
    syncBrandLinksStep(transform({ writes, settings }, ({ writes, settings }) => ({ written: writes.fieldsWritten, refs: settings.refs }))),
    syncTranslationsStep(
      transform({ writes, settings }, ({ writes, settings }) => ({
        written: writes.fieldsWritten,
        translationsEnabled: settings.refs.translationsEnabled,
        primaryLanguage: settings.primaryLanguage,
        vocabulary: settings.vocabulary,
      }))
    )
  )
  syncSalePricesStep(
    transform({ writes, settings, lockedPriceSizes: locked.lockedPriceSizes }, ({ writes, settings, lockedPriceSizes }) => ({
      written: salePriceSubjects(writes.written, lockedPriceSizes),
      salePriceListId: settings.salePriceListId,
    }))
  )

  storeVariantCostsStep(transform({ writes, planned }, ({ writes, planned }) => ({ costs: planned.costs, written: writes.written })))

  writeProductMapStep(
    transform({ page, writes }, ({ page, writes }) => ({
      created: writes.created,
      updated: writes.updated,
      stockOnly: page.stockOnly,
      unchangedRowIds: page.unchangedRowIds,
      runId: page.runId,
      fullPassId: page.fullPassId,
      syncedAt: page.syncedAt,
    }))
  )

  const changeLog = recordChanges({ page, writes, shopBefore })

  const pageWritten = createHook("pageWritten", {
    runId: transform({ settings }, ({ settings }) => settings.runId),
    products: transform({ writes }, ({ writes }) =>
      writes.written.map((w) => ({ catalogId: w.catalogId, productId: w.productId, variantIds: w.variantIdsBySize }))
    ),
  })

  const result = transform({ page, writes, newReferences, changeLog }, ({ page, writes, newReferences, changeLog }): SyncCatalogPageResult => ({
    written: {
      create: writes.created.map((w) => w.record.catalogId),
      update: writes.updated.map((w) => w.record.catalogId),
      stockOnly: page.stockOnly.map((p) => p.catalogId),
    },
    rejected: [...page.rejected, ...writes.rejected],
    newReferences,
    changeLog,
  }))
  return new WorkflowResponse(result, { hooks: [pageWritten] })
})
