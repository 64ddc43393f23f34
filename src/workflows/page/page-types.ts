// Serializable data the page workflow passes between its steps (workflow data is plain:
// Medusa's workflow engine checkpoints it, so maps become records).
//
// Why compact records: the steps read what they need of each product (ids, sizes, amounts,
// fingerprints), and only the product writes read the products' full write inputs. Records and
// write inputs travel sealed (sealed.ts).
import type { RejectedItem } from "../../catalog-client/items"
import { plannedSellingPrice } from "../../sync/change-rows"
import type { ChangedParts } from "../../sync/fingerprint"
import type { MapRow, PagePlan, PlannedUpsert } from "../../sync/plan-page"
import type { CatalogProduct, CatalogReference, ProductTranslation, StockInput } from "../../sync/catalog-product"
import type { CreatedProduct, ProductToUpdate } from "../page-input"
import type { SkuSubject } from "../resolve-variant-skus"
import { variantSku } from "../../sync/map-card"
import { peek, sealShared, type Sealed } from "./sealed"

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

/** A product's write input (what the create and update workflows write). */
export type WriteInput = { input: CatalogProduct; stock: StockInput }

/** Each product's write input, by catalog id, sealed one by one: a page reads only those it writes. */
export type ProductsToWrite = Record<string, Sealed<WriteInput>>

/**
 * A product to write as the write steps get it: without its write input, which they read from
 * the plan's write inputs themselves (`withWriteInput`), with the SKUs its sizes get. The
 * workflow's `toWrite` then seals only these, not each product's input a second time.
 */
export type ToWrite<P extends WriteInput> = Omit<P, keyof WriteInput> & { catalogId: string; skus: Record<string, string> }

export function toWriteOf<P extends WriteInput & { catalogId: string }>(p: P, skus: Record<string, string>): ToWrite<P> {
  const { input: _input, stock: _stock, ...rest } = p
  return { ...rest, skus }
}

/**
 * The product with its write input, read with `peek` (shared and frozen below the product and
 * its variants, which are the caller's own): the write paths read it and never change it.
 */
export function withWriteInput<P extends WriteInput>(p: ToWrite<P>, inputs: ProductsToWrite): P {
  const { skus, ...rest } = p
  const { input, stock } = peek(inputs[p.catalogId])
  return { ...rest, input: { ...input, variants: input.variants.map((v) => ({ ...v, sku: skus[v.sizeKey] ?? v.sku })) }, stock } as unknown as P
}

/** A written product: its catalog id and what its write returned. */
export interface PlannedWrite {
  catalogId: string
  result: CreatedProduct
}

/** What a bulk fast path wrote, and its candidates that did not fit it (the update workflow writes them). */
export interface FastPathOutcome {
  written: { item: ProductToUpdate; result: CreatedProduct }[]
  rest: ProductToUpdate[]
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

/** The written products, with what the steps after the writes read of their write inputs. */
export function writtenProducts(writes: PlannedWrite[], inputs: ProductsToWrite): WrittenProduct[] {
  return writes.map(({ catalogId, result }) => {
    const { input } = peek(inputs[catalogId])
    return {
      catalogId,
      productId: result.productId,
      variantIdsBySize: result.variantIds,
      variants: input.variants.map((v) => ({ sizeKey: v.sizeKey, saleAmount: v.saleAmount })),
      brand: input.brand,
      brandModel: input.brandModel,
      translations: input.translations,
    }
  })
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
 * The references the page's steps read: the brands and models of the products it may write.
 * The run's maps hold every brand and model of the catalog, and the workflow engine copies the
 * data a step reads each time (some dozen reads a page); categories are placed by the plan.
 */
export function pageReferencesOf(refs: PageReferences, plan: PagePlan): PageReferences {
  const brandIdByCatalogId: Record<string, string> = {}
  const brandModelIdByCatalogId: Record<string, string> = {}
  for (const { input } of [...plan.create, ...plan.update, ...plan.stockOnly]) {
    const brand = input.brand?.id
    const model = input.brandModel?.id
    if (brand && refs.brandIdByCatalogId[brand]) brandIdByCatalogId[brand] = refs.brandIdByCatalogId[brand]
    if (model && refs.brandModelIdByCatalogId[model]) brandModelIdByCatalogId[model] = refs.brandModelIdByCatalogId[model]
  }
  return { ...refs, categoryIdByCatalogId: {}, brandIdByCatalogId, brandModelIdByCatalogId }
}

/**
 * The write inputs of every product the page may write, by catalog id: the creates and updates,
 * and the stock-only products (the map check may move one to create or update).
 */
export function writeInputsOf(plan: PagePlan): ProductsToWrite {
  const out: ProductsToWrite = {}
  for (const p of [...plan.create, ...plan.update, ...plan.stockOnly]) out[p.catalogId] = sealShared<WriteInput>({ input: p.input, stock: p.stock })
  return out
}
