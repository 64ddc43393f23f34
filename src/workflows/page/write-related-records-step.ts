// After the product writes, the records around them, side by side (each writes other records,
// so PostgreSQL works on one while this process prepares the next):
//   - stock-only levels through the run's writer (src/shop-writer), but for sizes whose stock the
//     product locked; setting a level to a quantity is idempotent;
//   - the catalog's values that locks kept out (the product widget shows them; unlocking takes
//     them) and, when admin edits lock fields, what the sync wrote (an admin edit is a
//     difference from it); a replayed page records again;
//   - the products the catalog removed (remove-catalog-products.ts);
//   - each written product's brand and model link (records a card names but /v1/brands did not
//     have yet are made first; a diff, so running it again changes nothing);
//   - the other language's words through Medusa's translation module (product fields, then the
//     size option's title and one-size value; without the module nothing: metadata holds them);
//   - the selling price of every written variant in the sale price list when it is below the
//     crossed-out base price (else its sale price goes);
//   - each size's cost (store-variant-costs.ts).
// Brand links and translations come from the product fields: a price-only change leaves them.
// Compensation puts back the cost rows as they were (also when another part failed after they
// were stored), so a page that rolls back leaves no row pointing at a variant it made.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"
import type CatalogSyncModuleService from "../../modules/catalog_sync/service"
import { restoreCostRows } from "../../modules/catalog_sync/sql/variant-costs"
import { shopWriter } from "../../shop-writer/choose-shop-writer"
import { salePricesOf, syncBrandLinks, syncProductTranslations } from "../extras"
import { syncSalePrices } from "../extras/sale-prices"
import { settleAll } from "../extras/settle-all"
import { syncSizeOptionTranslations } from "../option-translations"
import { removeMappedProducts } from "../remove-catalog-products"
import { timed } from "../steps/profile"
import { recordedFieldValues, salePriceSubjects, stockOnlyLevels } from "./field-lock-writes"
import { openPage, type PageSettings } from "./page-context"
import type { WrittenProduct } from "./page-types"
import { plannedCosts, storeVariantCosts, type StoredCosts } from "./store-variant-costs"

export const writeRelatedRecordsStepId = "catalog-sync-write-related-records"

async function writeTranslations(container: MedusaContainer, written: WrittenProduct[], enabled: boolean, settings: PageSettings): Promise<void> {
  if (!written.length) return
  const { vocabulary, primaryLanguage } = settings
  // Product rows and option rows reference different records: written side by side.
  await settleAll([
    enabled ? timed(container, "translations.products", () => syncProductTranslations(container, written)) : null,
    vocabulary
      ? timed(container, "translations.options", () =>
          syncSizeOptionTranslations(
            container,
            written.map((w) => w.productId),
            { primaryLanguage, vocabulary }
          )
        )
      : null,
  ])
}

export const writeRelatedRecordsStep = createStep(
  writeRelatedRecordsStepId,
  async (input: { pageKey: string } & PageSettings, { container }) => {
    const open = openPage(input.pageKey)
    const { page } = open
    const { records, locks } = open.prepared!
    const writes = open.writes!
    const pricesOnly = new Set(writes.pricesOnly)
    const withFields = writes.products.filter((w) => !pricesOnly.has(w.catalogId))
    const salePriceListId = page.refs.salePriceListId
    const stockLevels = stockOnlyLevels(records.stockOnly, locks.byProductId)
    const fieldValues = recordedFieldValues(writes.fieldValues, writes, { stockOnly: records.stockOnly, syncedAt: input.syncedAt }, locks)
    const salePrices = salePriceSubjects(writes.products, writes.lockedPriceSizes)
    const service = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
    // What the cost rows were before this step stored its own (null: nothing stored yet).
    const saved: { costs: StoredCosts | null } = { costs: null }
    try {
      await settleAll([
        syncBrandLinks(container, withFields, page.refs).then((made) => void (open.newReferences = made)),
        writeTranslations(container, withFields, page.refs.translationsEnabled, input),
        stockLevels.length ? shopWriter(container).then((writer) => writer.setStock(stockLevels, input.placement.stockLocationId)) : null,
        (async () => {
          const at = new Date(input.syncedAt)
          await service.mergeFieldValues(
            "held",
            fieldValues.held.map((h) => ({ productId: h.productId, catalogId: h.catalogId, values: h.held })),
            at
          )
          await service.mergeFieldValues(
            "written",
            fieldValues.written.filter((w) => Object.keys(w.values).length > 0),
            at
          )
        })(),
        removeMappedProducts(container, records.remove, { mode: input.removalMode, runId: input.runId, now: new Date(input.syncedAt) }),
        salePrices.length && salePriceListId ? syncSalePrices(container, salePriceListId, salePricesOf(salePrices)) : null,
        storeVariantCosts(container, plannedCosts(page.plan, input.pricing), new Map(writes.products.map((w) => [w.catalogId, w.variantIdsBySize]))).then(
          (stored) => void (saved.costs = stored)
        ),
      ])
    } catch (error) {
      // A failing step gets no compensation data: the rows this step stored are put back here.
      // The page fails with its own error, whether or not the rows could be put back.
      if (saved.costs) await restoreCostRows(container, saved.costs.catalogIds, saved.costs.before).catch(() => undefined)
      throw error
    }
    return new StepResponse(undefined, saved.costs)
  },
  async (saved, { container }) => {
    if (saved) await restoreCostRows(container, saved.catalogIds, saved.before)
  }
)
