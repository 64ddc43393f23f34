// Serializable data the page workflow passes between its steps (workflow data is plain:
// Medusa's workflow engine checkpoints it, so maps become records).
//
// Why compact records: Medusa's workflow engine deep-copies every step's and transform's input
// each time it is read (resolveValue → parseStringifyIfNecessary). A page's plan with its cards
// is ~1.2 MB, and read whole by every step it made the page ~20 % slower. So the `page`
// transform (pagePlanRecords) shapes the plan once into small per-step records (ids, sizes,
// amounts, fingerprints), and only the product writes read the products' full write inputs.
import type { RejectedItem } from "../../catalog-client/items"
import { plannedSellingPrice } from "../../sync/change-rows"
import type { ChangedParts } from "../../sync/fingerprint"
import type { MapRow, PagePlan, PlannedUpsert } from "../../sync/plan-page"
import type { CatalogProduct, CatalogReference, ProductTranslation, StockInput } from "../../sync/catalog-product"
import type { CreatedProduct } from "../page-input"
import type { SkuSubject } from "../resolve-variant-skus"
import { variantSku } from "../../sync/map-card"

/** Reference data of the run (src/workflows/extras refreshReferenceData), as records. */
export interface PageReferences {
  categoryIdByCatalogId: Record<string, string>
  brandIdByCatalogId: Record<string, string>
  brandModelIdByCatalogId: Record<string, string>
  salePriceListId: string | null
  translationsEnabled: boolean
}

/** One planned product as the steps read it: everything but its write input. */
export interface PlannedRecord {
  catalogId: string
  /** The card's id and SKU (variant SKUs, the map row). */
  card: { id: string; sku: string }
  syncVersion: number
  /** The existing map row (null for a product never seen). */
  row: MapRow | null
  /** The card's size keys, in variant order. */
  sizeKeys: string[]
  stock: StockInput
  fingerprint: string
  stockFingerprint: string
  partsToWrite: ChangedParts
  /** What the change log says of it (src/sync/change-rows.ts). */
  title: string
  draft: boolean
  sellingPrice: string | null
  imageUrls: string[]
  /** Each variant's selling amount when below its base price (the sale price list). */
  variants: { sizeKey: string; saleAmount: string | null }[]
  brand: CatalogReference | null
  brandModel: CatalogReference | null
  translations: Record<string, ProductTranslation>
}

/** The page's plan as records. */
export interface PlanRecords {
  create: PlannedRecord[]
  update: PlannedRecord[]
  stockOnly: PlannedRecord[]
  /** Map row ids of the unchanged products (a full pass marks them seen). */
  unchangedRowIds: string[]
  remove: MapRow[]
  rejected: RejectedItem[]
}

/** A product's write input (what the create and update workflows write), keyed by catalog id. */
export type ProductsToWrite = Record<string, { input: CatalogProduct; stock: StockInput }>

/** A written product: its catalog id and what its write returned. */
export interface PlannedWrite {
  catalogId: string
  result: CreatedProduct
}

/** A written product's record and what its write returned. */
export interface WrittenRecord {
  record: PlannedRecord
  result: CreatedProduct
}

export interface ChunkedWriteOutcome {
  written: PlannedWrite[]
  rejected: RejectedItem[]
  /** Catalog ids written as price-only changes in bulk: their fields and variants are as they were. */
  pricesOnly?: string[]
}

/** A product this page wrote, as the steps after the product writes read it. */
export interface WrittenProduct {
  catalogId: string
  productId: string
  variantIdsBySize: Record<string, string>
  /** Each variant's selling amount when below its base price (mapped once, in map-card). */
  variants: { sizeKey: string; saleAmount: string | null }[]
  brand: CatalogReference | null
  brandModel: CatalogReference | null
  /** The non-primary language, keyed by Medusa locale. */
  translations: Record<string, ProductTranslation>
}

export function writtenProducts(writes: WrittenRecord[]): WrittenProduct[] {
  return writes.map(({ record, result }) => ({
    catalogId: record.catalogId,
    productId: result.productId,
    variantIdsBySize: result.variantIds,
    variants: record.variants,
    brand: record.brand,
    brandModel: record.brandModel,
    translations: record.translations,
  }))
}

function recordOf(p: PlannedUpsert): PlannedRecord {
  const { input } = p
  return {
    catalogId: p.catalogId,
    card: { id: input.catalogId, sku: input.sku },
    syncVersion: input.syncVersion,
    row: p.row,
    sizeKeys: input.variants.map((v) => v.sizeKey),
    stock: p.stock,
    fingerprint: p.fingerprint,
    stockFingerprint: p.stockFingerprint,
    partsToWrite: p.partsToWrite,
    title: input.title,
    draft: input.status === "draft",
    sellingPrice: plannedSellingPrice(input.variants),
    imageUrls: input.images.map((i) => i.url),
    variants: input.variants.map((v) => ({ sizeKey: v.sizeKey, saleAmount: v.saleAmount })),
    brand: input.brand,
    brandModel: input.brandModel,
    translations: input.translations,
  }
}

/** The plan as the page workflow's steps read it (one pass over the plan, in the `page` transform). */
export function planRecords(plan: PagePlan): PlanRecords {
  return {
    create: plan.create.map(recordOf),
    update: plan.update.map(recordOf),
    stockOnly: plan.stockOnly.map(recordOf),
    unchangedRowIds: plan.unchanged.map((p) => p.row!.id),
    remove: plan.remove,
    rejected: plan.rejected,
  }
}

/** What the SKU step reads of a product: its card's id and SKU, map row and sizes (plain SKUs to start). */
export function skuSubject(p: PlannedRecord): SkuSubject {
  return {
    catalogId: p.catalogId,
    card: p.card,
    row: p.row ? { product_id: p.row.product_id, variant_ids: p.row.variant_ids } : null,
    input: { variants: p.sizeKeys.map((sizeKey) => ({ sizeKey, sku: variantSku(p.card, sizeKey) })) },
  }
}

/**
 * The write inputs of the products to create or update, by catalog id (the map check may have
 * moved a stock-only product there; stock-only and unchanged products write no product).
 */
export function productsToWrite(plan: PagePlan, records: Pick<PlanRecords, "create" | "update">): ProductsToWrite {
  const wanted = new Set([...records.create, ...records.update].map((r) => r.catalogId))
  const out: ProductsToWrite = {}
  for (const p of [...plan.create, ...plan.update, ...plan.stockOnly]) {
    if (!wanted.has(p.catalogId)) continue
    out[p.catalogId] = { input: p.input, stock: p.stock }
  }
  return out
}
