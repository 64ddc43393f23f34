// What the page workflow's steps read of the page (page-context.ts): compact records of the
// planned products (ids, sizes, amounts, fingerprints: what the change log, the map and the
// locks read), what the writes return, the written products as the steps after them read them.
import type { RejectedItem } from "../../catalog-client/items"
import { plannedSellingPrice } from "../../sync/change-rows"
import type { ChangedParts } from "../../sync/fingerprint"
import type { MapRow, PagePlan, PlannedUpsert } from "../../sync/plan-page"
import type { CatalogReference, ProductTranslation, StockInput } from "../../sync/catalog-product"
import type { CreatedProduct, ProductToUpdate } from "../page-input"
import type { SkuSubject } from "../resolve-variant-skus"
import { variantSku } from "../../sync/map-card"

/** Reference data of the run (src/workflows/extras refreshReferenceData) a page reads, as records. */
export interface PageReferences {
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
export function writtenProducts(writes: PlannedWrite[], planned: ReadonlyMap<string, Pick<PlannedUpsert, "input">>): WrittenProduct[] {
  return writes.map(({ catalogId, result }) => {
    const { input } = planned.get(catalogId)!
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

/** The plan as the page workflow's steps read it (one pass over the plan). */
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
 * The references a page reads: the run's brands and models of the products it may write (the
 * creates, updates and stock-only ones: the map check may move one to create or update), not the
 * run's whole maps, which a page queued for another instance would carry; categories are placed by the plan.
 */
export function pageReferencesOf(
  refs: Pick<PageReferences, "salePriceListId" | "translationsEnabled"> & {
    brandIdByCatalogId: ReadonlyMap<string, string>
    brandModelIdByCatalogId: ReadonlyMap<string, string>
  },
  plan: PagePlan
): PageReferences {
  const brandIdByCatalogId: Record<string, string> = {}
  const brandModelIdByCatalogId: Record<string, string> = {}
  for (const { input } of [...plan.create, ...plan.update, ...plan.stockOnly]) {
    const brand = input.brand?.id && refs.brandIdByCatalogId.get(input.brand.id)
    const model = input.brandModel?.id && refs.brandModelIdByCatalogId.get(input.brandModel.id)
    if (brand) brandIdByCatalogId[input.brand!.id] = brand
    if (model) brandModelIdByCatalogId[input.brandModel!.id] = model
  }
  return { brandIdByCatalogId, brandModelIdByCatalogId, salePriceListId: refs.salePriceListId, translationsEnabled: refs.translationsEnabled }
}
