// The page's change log (mcs_sync_run_change): one row per product the page created,
// updated (with what changed), removed, drafted or rejected, stored through the size policy
// (src/sync/change-log-policy.ts). Two parts:
//
//   readShopBefore  before the writes (prepare-page-step.ts): the selling price, title and images
//                   Medusa holds for the products the page will reprice, rewrite or remove (only
//                   those), so a row can say "1200.00 → 1287.50" once the write has replaced them.
//   recordChanges   the page workflow's last step, after the product map: builds the rows
//                   (src/sync/change-rows.ts, pure) and stores as many as the run's cap leaves room
//                   for (one insert, the data module's sql/change-log.ts); the rest are only
//                   counted. It hands back the page's result.
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { readEnvironment } from "../../config/environment"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"
import { rowCap, selectRowsToStore, type Omitted } from "../../sync/change-log-policy"
import type { RejectedItem } from "../../catalog-client/items"
import { changeRowsOf, lowestPrice, type PageChanges, type ProductBefore, type WrittenChange } from "../../sync/change-rows"
import { CURRENCY_CODE } from "../../sync/catalog-product"
import type { PlannedRecord, PlannedWrite, PlanRecords } from "./page-types"
import { openPage } from "./page-context"
import type { NewReferences } from "../extras"
import { insertChangeRows, storedChangeCount } from "../../modules/catalog_sync/sql/change-log"
import { variantPricesIn } from "../../bulk-write/reads/variant-prices"

export const recordChangesStepId = "catalog-sync-record-changes"

interface BeforeWanted {
  catalogId: string
  productId: string
  /** Variant ids whose prices to read (empty when the prices do not change). */
  variantIds: string[]
  /** Whether to read the title and images (a row compares them only when the fields change, or names a removal). */
  fields: boolean
}

/**
 * Each variant's selling amount in Medusa: the sale list's price when it has one, else the base
 * price (one read of their prices, bulk-write/reads/variant-prices.ts).
 */
async function sellingPricesBefore(container: MedusaContainer, variantIds: string[], saleListId: string | null): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>()
  if (!variantIds.length) return out
  const rows = await variantPricesIn(container, variantIds, CURRENCY_CODE)
  const base = new Map<string, string>()
  const sale = new Map<string, string>()
  for (const p of rows) {
    if (!p.price_list_id) base.set(p.variant_id, p.amount)
    else if (p.price_list_id === saleListId) sale.set(p.variant_id, p.amount)
  }
  for (const id of variantIds) out.set(id, sale.get(id) ?? base.get(id) ?? null)
  return out
}

export async function readShopBefore(
  container: MedusaContainer,
  input: { products: BeforeWanted[]; salePriceListId: string | null }
): Promise<Record<string, ProductBefore>> {
  const before: Record<string, ProductBefore> = {}
  if (!input.products.length) return before
  const withFields = input.products.filter((p) => p.fields).map((p) => p.productId)
  const [products, prices] = await Promise.all([
    withFields.length
      ? (container
          .resolve(Modules.PRODUCT)
          .listProducts({ id: withFields }, { select: ["id", "title"], relations: ["images"], take: null }) as unknown as Promise<
          { id: string; title: string; images?: { url: string; rank?: number }[] }[]
        >)
      : [],
    sellingPricesBefore(
      container,
      input.products.flatMap((p) => p.variantIds),
      input.salePriceListId
    ),
  ])
  const byId = new Map(products.map((p) => [p.id, p]))
  for (const p of input.products) {
    const product = byId.get(p.productId)
    before[p.catalogId] = {
      sellingPrice: lowestPrice(p.variantIds.map((id) => prices.get(id) ?? null)),
      title: product?.title ?? null,
      imageUrls: [...(product?.images ?? [])].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0)).map((i) => i.url),
    }
  }
  return before
}

/** What to read of the shop before the writes: the updates' and removals' products (pure). */
export function shopBeforeWanted(
  page: Pick<PlanRecords, "update" | "remove">,
  salePriceListId: string | null
): { products: BeforeWanted[]; salePriceListId: string | null } {
  return {
    products: [
      ...page.update
        .filter((p) => p.row?.product_id)
        .map((p) => ({
          catalogId: p.catalogId,
          productId: p.row!.product_id!,
          variantIds: p.partsToWrite.prices ? Object.values(p.row!.variant_ids ?? {}) : [],
          fields: p.partsToWrite.fields,
        })),
      ...page.remove.filter((r) => r.product_id).map((r) => ({ catalogId: r.catalog_id, productId: r.product_id!, variantIds: [], fields: true })),
    ],
    salePriceListId,
  }
}

function writtenChange(p: PlannedRecord, productId: string | null, created: boolean, locked: Record<string, readonly string[]> = {}): WrittenChange {
  return {
    ...(!created && productId && locked[productId]?.length ? { locked: locked[productId] } : {}),
    catalogId: p.catalogId,
    productId,
    title: p.title,
    draft: p.draft,
    sellingPrice: p.sellingPrice,
    parts: created ? null : p.partsToWrite,
    stockChanged: p.stockFingerprint !== (p.row?.stock_fingerprint ?? null),
    imageUrls: !created && p.partsToWrite.fields ? p.imageUrls : null,
  }
}

export interface RecordChangesInput {
  runId: string
  mode: "changes" | "full"
  changes: PageChanges
  before: Record<string, ProductBefore>
}

export interface RecordedChanges {
  stored: number
  /** Changes of this page that got no row (the run's cap), by kind. */
  omitted: Omitted
}

type ChangeService = { deleteCatalogSyncRunChanges(ids: string[]): Promise<void> }

/** The run's cap (a test may lower it to see the cap work on a small catalog). */
function capOf(mode: "changes" | "full"): number {
  const override = Number(readEnvironment().CATALOG_SYNC_TEST_CHANGE_LOG_CAP)
  return Number.isInteger(override) && override >= 0 ? override : rowCap(mode)
}

async function storeChangeRows(container: MedusaContainer, input: RecordChangesInput): Promise<{ changeLog: RecordedChanges; ids: string[] }> {
  const rows = changeRowsOf(input.changes, input.before)
  if (!rows.length) return { changeLog: { stored: 0, omitted: {} }, ids: [] }
  // The rows earlier pages of this run stored: no count to carry between pages.
  const storedSoFar = await storedChangeCount(container, input.runId)
  const { store, omitted } = selectRowsToStore(rows, storedSoFar, capOf(input.mode))
  const ids = await insertChangeRows(container, input.runId, store)
  return { changeLog: { stored: store.length, omitted }, ids }
}

/** What the page workflow hands back to its run. */
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

/**
 * The change log, then the page's result (a step's output: a workflow whose result is a
 * transform computes it again when the run ends, from the workflow's input).
 */
export const recordChangesStep = createStep(
  recordChangesStepId,
  async (input: { pageKey: string; runId: string; fullPassId: string | null }, { container }) => {
    const open = openPage(input.pageKey)
    const { records, shopBefore, locks } = open.prepared!
    const writes = open.writes!
    const { changeLog, ids } = await storeChangeRows(container, recordChangesInput(records, writes, shopBefore, input, locks.byProductId))
    const result: SyncCatalogPageResult = {
      written: {
        create: writes.created.map((w) => w.catalogId),
        update: writes.updated.map((w) => w.catalogId),
        stockOnly: records.stockOnly.map((p) => p.catalogId),
      },
      rejected: [...records.rejected, ...writes.rejected],
      newReferences: open.newReferences!,
      changeLog,
    }
    return new StepResponse(result, ids)
  },
  // The page failed after this step: its rows go with it (the page is written again).
  async (ids, { container }) => {
    if (ids?.length) await (container.resolve(CATALOG_SYNC_MODULE) as unknown as ChangeService).deleteCatalogSyncRunChanges(ids)
  }
)

/** The change-log step's input: the page's rows from the plan, what was written, and what the shop held before (pure). */
function recordChangesInput(
  page: Pick<PlanRecords, "create" | "update" | "stockOnly" | "remove" | "rejected">,
  writes: { created: PlannedWrite[]; updated: PlannedWrite[]; rejected: RejectedItem[] },
  shopBefore: Record<string, ProductBefore>,
  settings: { runId: string; fullPassId: string | null },
  /** product id → the fields its locks keep (prepare-page-step.ts): logged as held, not as changed. */
  lockedByProductId: Record<string, readonly string[]> = {}
): RecordChangesInput {
  const byId = new Map([...page.create, ...page.update].map((p) => [p.catalogId, p]))
  return {
    runId: settings.runId,
    mode: settings.fullPassId ? "full" : "changes",
    changes: {
      created: writes.created.map((w) => writtenChange(byId.get(w.catalogId)!, w.result.productId, true)),
      updated: writes.updated.map((w) => writtenChange(byId.get(w.catalogId)!, w.result.productId, false, lockedByProductId)),
      stockOnly: page.stockOnly.map((p) => writtenChange(p, p.row?.product_id ?? null, false, lockedByProductId)),
      removed: page.remove.map((r) => ({ catalogId: r.catalog_id, productId: r.product_id })),
      rejected: [...page.rejected, ...writes.rejected].map((r) => ({ id: r.id, reason: r.reason })),
    },
    before: shopBefore,
  }
}
