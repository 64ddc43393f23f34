// Writes one page of the changes feed: the pure plan (src/sync/plan-page.ts) carried out
// against Medusa, step by step, in this order:
//
//   check the map against the shop → side by side: read the shop's prices before (change log),
//   find crash leftovers (adopt one, delete extra copies), read field locks → resolve variant
//   SKUs → create → update (adopted leftovers and locks included) → side by side: stock-only
//   levels (bulk), held and written field values, removals, brand links, translations, sale
//   prices, variant costs → product map → change log → result, hook `pageWritten`
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
import type { WriteFence } from "../bulk-write/write-fence"
import type { WritePath } from "../shop-writer/shop-writer"
import type { Language } from "../sync/settings/language"
import type { PagePlan } from "../sync/plan-page"
import type { ShopVocabulary } from "../sync/shop-vocabulary"
import type { NewReferences } from "./extras"
import type { Placement, ProductToCreate, ProductToUpdate } from "./page-input"
import type { RemovalMode } from "./remove-catalog-products"
import { readShopBeforeStep, recordChangesInput, recordChangesStep, shopBeforeWanted, type RecordedChanges } from "./page/record-changes-step"
import { checkMapAgainstShopStep } from "./page/check-map-against-shop-step"
import { findCrashLeftoversStep } from "./page/find-crash-leftovers-step"
import {
  type PageReferences,
  type PlannedRecord,
  type PlannedWrite,
  pageReferencesOf,
  planRecords,
  skuSubject,
  toWriteOf,
  writeInputsOf,
  writtenProducts,
} from "./page/page-types"
import { pageResultStep } from "./page/page-result-step"
import type { SyncCatalogPageResult } from "./page/page-result"
import { removeMappedProductsStep } from "./page/remove-mapped-products-step"
import { peek, seal, sealShared, takeHandedOver, unseal, type Sealed } from "./page/sealed"
import { ALL_PARTS } from "../sync/fingerprint"
import { setStockInBulkStep } from "./page/set-stock-in-bulk-step"
import { resolveVariantSkusStep } from "./page/resolve-variant-skus-step"
import { syncBrandLinksStep } from "./page/sync-brand-links-step"
import { syncSalePricesStep } from "./page/sync-sale-prices-step"
import { syncTranslationsStep } from "./page/sync-translations-step"
import { writeChangedProductsStep } from "./page/write-changed-products-step"
import { writeNewProductsStep } from "./page/write-new-products-step"
import { productMapInput, writeProductMapStep } from "./page/write-product-map-step"
import { plannedCosts, storeVariantCostsStep, type CostPricing } from "./page/store-variant-costs-step"
import { readFieldLocksStep } from "./page/read-field-locks-step"
import { recordFieldValuesStep } from "./page/record-field-values-step"
import { lockedPageWrites, recordedFieldValues, salePriceSubjects, stockOnlyLevels } from "./page/field-lock-writes"

export const syncCatalogPageWorkflowId = "catalog-sync-sync-catalog-page"

export interface SyncCatalogPageInput {
  runId: string
  /** The pure plan of the page (planPage), sealed (page/sealed.ts: the engine would copy it on every read). */
  plan: Sealed<PagePlan>
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
  /** The run lock every write of the page checks (bulk-write/write-fence.ts); null: unfenced. */
  fence?: WriteFence | null
  /** The run's writer (src/shop-writer), chosen once when the run started; null: chosen by the instance that writes the page. */
  writePath?: WritePath | null
}

export type { SyncCatalogPageResult } from "./page/page-result"

// How data moves through this workflow: Medusa's engine copies workflow data on every read by a
// step or transform (page/sealed.ts), so large data (the plan, its records, the write inputs, the
// written products) travels sealed and each transform reads it once to hand its step a small
// input. Data several transforms read (records, writes, write inputs, written products) is read
// with `peek`: one frozen value shared by all of them, the sealer's own where this workflow sealed
// it (sealShared), and the run's plan is taken as it is (takeHandedOver). The workflow's result
// comes from a step: a result transform would be computed again from the workflow's input when
// the run ends (the engine caches transforms only while steps run).
export const syncCatalogPageWorkflow = createWorkflow(syncCatalogPageWorkflowId, (input: SyncCatalogPageInput) => {
  // The one read of the input.
  const planned = transform({ input }, ({ input }) => {
    const { plan: sealedPlan, ...rest } = input
    // Read only: in this process it is the run's own plan (sealForHandOver).
    const plan = takeHandedOver(sealedPlan)
    return {
      settings: { ...rest, refs: pageReferencesOf(input.refs, plan), salePriceListId: input.refs.salePriceListId },
      records: sealShared(planRecords(plan)),
      costs: sealShared(plannedCosts(plan, input.pricing)),
      writeInputs: writeInputsOf(plan),
    }
  })
  const settings = transform({ planned }, ({ planned }) => planned.settings)
  // The plan's records after the map check (it may move products to create or update).
  const records = checkMapAgainstShopStep(transform({ planned }, ({ planned }) => planned.records))

  // What the steps before the writes read of the records.
  const before = transform({ records, settings }, ({ records, settings }) => {
    const page = peek(records)
    return {
      shop: sealShared(shopBeforeWanted(page, settings.salePriceListId)),
      createIds: page.create.map((p) => p.catalogId),
      skuSubjects: seal([...page.create, ...page.update].map(skuSubject)),
      lockedProductIds: [...page.update, ...page.stockOnly].flatMap((p) => (p.row?.product_id ? [p.row.product_id] : [])),
      removal: seal({ rows: page.remove, mode: settings.removalMode, runId: settings.runId, syncedAt: settings.syncedAt }),
    }
  })
  // The reads before the writes, side by side: what Medusa holds of the products the page
  // rewrites (change log), crash leftovers to adopt, and field locks (locked fields leave the
  // updates and stock-only levels).
  const [shopBefore, leftovers, locks] = parallelize(
    readShopBeforeStep(transform({ before }, ({ before }) => before.shop)),
    findCrashLeftoversStep(transform({ before }, ({ before }) => before.createIds)),
    readFieldLocksStep(transform({ before }, ({ before }) => before.lockedProductIds))
  )
  when({ leftovers }, ({ leftovers }) => leftovers.extraIds.length > 0).then(() => {
    deleteProductsWorkflow.runAsStep({ input: transform({ leftovers }, ({ leftovers }) => ({ ids: leftovers.extraIds })) })
  })

  // Every create and update gets its SKUs (an adopted leftover's own SKUs count as its own).
  const withSkus = resolveVariantSkusStep(
    transform({ before, leftovers }, ({ before, leftovers }) => ({ planned: before.skuSubjects, adopted: leftovers.adopted }))
  )

  const toWrite = transform({ records, planned, withSkus, leftovers, locks }, ({ records, planned, withSkus, leftovers, locks }) => {
    const page = peek(records)
    const skus = peek(withSkus)
    // Read only here (lockedPageWrites reads the fields the locks hold back); the write steps read them again themselves.
    const writeInput = (catalogId: string) => peek(planned.writeInputs[catalogId])
    const adopted = (p: PlannedRecord) => !!leftovers.adopted[p.catalogId]
    const changed = (p: PlannedRecord): ProductToUpdate => {
      const orphan = leftovers.adopted[p.catalogId] ?? null
      return {
        catalogId: p.catalogId,
        productId: orphan ?? p.row!.product_id!,
        ...writeInput(p.catalogId),
        variantIds: orphan ? {} : (p.row!.variant_ids ?? {}),
        inventoryItemIds: orphan ? {} : (p.row!.inventory_item_ids ?? {}),
        partsToWrite: orphan ? ALL_PARTS : p.partsToWrite,
      }
    }
    const fresh = page.create.filter((p) => !adopted(p)).map((p): ProductToCreate => ({ catalogId: p.catalogId, ...writeInput(p.catalogId) }))
    // Adopted leftovers are written with the updates (all their parts).
    const locked = lockedPageWrites({ fresh, changed: [...page.update, ...page.create.filter(adopted)].map(changed) }, locks)
    return {
      fresh: sealShared(fresh.map((p) => toWriteOf(p, skus[p.catalogId] ?? {}))),
      changed: sealShared(locked.changed.map((p) => toWriteOf(p, skus[p.catalogId] ?? {}))),
      fieldValues: sealShared({ held: locked.held, written: locked.written }),
      lockedPriceSizes: locked.lockedPriceSizes,
    }
  })

  const createdSealed = writeNewProductsStep(
    transform({ toWrite, planned, settings }, ({ toWrite, planned, settings }) => ({
      products: toWrite.fresh,
      writeInputs: planned.writeInputs,
      placement: settings.placement,
      concurrency: settings.writeConcurrency,
    }))
  )
  const changedSealed = writeChangedProductsStep(
    transform({ toWrite, planned, settings, created: createdSealed }, ({ toWrite, planned, settings, created }) => ({
      products: toWrite.changed,
      writeInputs: planned.writeInputs,
      placement: settings.placement,
      concurrency: settings.writeConcurrency,
      alreadyWritten: peek(created).written.length,
    }))
  )
  // Adopted products count (and get their map rows) as created.
  const writes = transform({ created: createdSealed, changed: changedSealed, leftovers }, ({ created: createdSealed, changed: changedSealed, leftovers }) => {
    const created = peek(createdSealed)
    const changed = peek(changedSealed)
    const isAdopted = (w: PlannedWrite) => !!leftovers.adopted[w.catalogId]
    // Sealed: five transforms read it.
    return sealShared({
      created: [...created.written, ...changed.written.filter(isAdopted)],
      updated: changed.written.filter((w) => !isAdopted(w)),
      // Brand links and translations come from the product fields: a price-only change leaves them.
      pricesOnly: changed.pricesOnly ?? [],
      rejected: [...created.rejected, ...changed.rejected],
    })
  })
  // The written products as the steps after the writes read them.
  const written = transform({ planned, writes }, ({ planned, writes: sealed }) => {
    const writes = peek(sealed)
    const all = writtenProducts([...writes.created, ...writes.updated], planned.writeInputs)
    const pricesOnly = new Set(writes.pricesOnly)
    return { all: sealShared(all), fields: sealShared(all.filter((w) => !pricesOnly.has(w.catalogId))) }
  })

  // After the product writes, each of these writes other records (stock-only levels, recorded
  // field values, removed products, brand links, translations, sale prices, cost rows): side by
  // side, so PostgreSQL works on one while this process prepares the next. The map goes last.
  const [newReferences] = parallelize(
    syncBrandLinksStep(transform({ written, settings }, ({ written, settings }) => ({ written: peek(written.fields), refs: settings.refs }))),
    syncTranslationsStep(
      transform({ written, settings }, ({ written, settings }) => ({
        written: peek(written.fields),
        translationsEnabled: settings.refs.translationsEnabled,
        primaryLanguage: settings.primaryLanguage,
        vocabulary: settings.vocabulary,
      }))
    ),
    setStockInBulkStep(
      transform({ records, locks, settings }, ({ records, locks, settings }) => ({
        levels: stockOnlyLevels(peek(records).stockOnly, locks.byProductId),
        stockLocationId: settings.placement.stockLocationId,
      }))
    ),
    recordFieldValuesStep(
      transform({ toWrite, writes, records, locks, settings }, ({ toWrite, writes, records, locks, settings }) =>
        recordedFieldValues(peek(toWrite.fieldValues), peek(writes), { stockOnly: peek(records).stockOnly, syncedAt: settings.syncedAt }, locks)
      )
    ),
    removeMappedProductsStep(transform({ before }, ({ before }) => unseal(before.removal))),
    syncSalePricesStep(
      transform({ written, settings, toWrite }, ({ written, settings, toWrite }) => ({
        written: sealShared(salePriceSubjects(peek(written.all), toWrite.lockedPriceSizes)),
        salePriceListId: settings.salePriceListId,
      }))
    ),
    storeVariantCostsStep(
      transform({ written, planned }, ({ written, planned }) => ({
        costs: planned.costs,
        written: sealShared(peek(written.all).map((w) => ({ catalogId: w.catalogId, variantIdsBySize: w.variantIdsBySize }))),
      }))
    )
  )

  writeProductMapStep(
    transform({ records, writes, settings }, ({ records, writes, settings }) => {
      const page = peek(records)
      return sealShared(productMapInput(page, peek(writes), settings))
    })
  )

  const changeLog = recordChangesStep(
    transform({ records, writes, shopBefore, settings, locks }, ({ records, writes, shopBefore, settings, locks }) =>
      sealShared(recordChangesInput(peek(records), peek(writes), peek(shopBefore), settings, locks.byProductId))
    )
  )

  const pageWritten = createHook("pageWritten", {
    runId: transform({ settings }, ({ settings }) => settings.runId),
    products: transform({ written }, ({ written }) =>
      peek(written.all).map((w) => ({ catalogId: w.catalogId, productId: w.productId, variantIds: w.variantIdsBySize }))
    ),
  })

  const result = pageResultStep(
    transform({ records, writes, newReferences, changeLog }, ({ records, writes, newReferences, changeLog }): SyncCatalogPageResult => {
      const page = peek(records)
      const written = peek(writes)
      return {
        written: {
          create: written.created.map((w) => w.catalogId),
          update: written.updated.map((w) => w.catalogId),
          stockOnly: page.stockOnly.map((p) => p.catalogId),
        },
        rejected: [...page.rejected, ...written.rejected],
        newReferences,
        changeLog,
      }
    })
  )
  return new WorkflowResponse(result, { hooks: [pageWritten] })
})
