// Catalog extras around the product writes (docs/contracts.md "One card, mapped once"): reference
// data at run start, extras after each page's product writes, cleanup on removal. All idempotent,
// one bulk call per kind per page.
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { AbortedError, InvalidApiKeyError, PlanRequiredError, type CatalogClient, type Validators } from "../../catalog-client"
import type { CatalogProduct } from "../../sync/catalog-product"
import type { Language } from "../../sync/settings/language"
import type { EffectiveSettings } from "../../sync/settings"
import type { PageReferences, WrittenProduct } from "../page/page-types"
import { BRAND_LINK, MODEL_LINK, syncLinks } from "./brand-links"
import { settleAll } from "./settle-all"
import { timed } from "../steps/profile"
import type { IdBySize } from "../../modules/catalog_sync/models/catalog-product-map"
import { brandRecords, catalogSyncService, liveRecordMap, modelRecords, syncReferenceRecordsWorkflow, upsertReferenceRecords } from "./brands"
import { categoryMap, listExistingCategories, syncCategoriesWorkflow } from "./categories"
import { isOwnCategory } from "./plan-categories"
import { ensureSalePriceList, syncSalePrices, type SalePriceWanted } from "./sale-prices"
import { backfillProductTranslations, deleteTranslations, ensureStoreLocales, syncTranslations, translationService } from "./translations"

export type ReferenceMaps = {
  categoryIdByCatalogId: Map<string, string>
  brandIdByCatalogId: Map<string, string>
  brandModelIdByCatalogId: Map<string, string>
  salePriceListId: string | null
  translationsEnabled: boolean
}

export type { WrittenProduct }

/** Brand and model records a page made (catalog id → record id). */
export interface NewReferences {
  brandIdByCatalogId: Record<string, string>
  brandModelIdByCatalogId: Record<string, string>
}

/** What mcs_sync_state.reference_cache holds (only refreshReferenceData writes it). */
export interface ReferenceCache {
  categories?: Validators & { primaryLanguage: Language; translations: boolean; count: number }
  brands?: Validators & { count: number }
  brand_models?: Validators & { count: number }
  sale_price_list_id?: string
  /** Whether the last run had the translation module; off → on backfills product translations. */
  translations_module?: boolean
  /** When the three lists were last fetched (200 or 304) all without error (ISO time). */
  lists_fetched_at?: string
}

type StateLike = { id?: string; reference_cache?: unknown } | null | undefined

function validatorsOf(v: Validators | undefined): Validators {
  return { ...(v?.etag ? { etag: v.etag } : {}), ...(v?.lastModified ? { lastModified: v.lastModified } : {}) }
}

function loggerOf(container: MedusaContainer): Logger {
  try {
    return container.resolve("logger") as Logger
  } catch {
    return console as unknown as Logger
  }
}

/** Errors that must stop the run (runSync handles them); anything else only skips a refresh. */
function isFatal(error: unknown): boolean {
  return error instanceof InvalidApiKeyError || error instanceof PlanRequiredError || error instanceof AbortedError
}

/** Product categories of a card's product, for the product write (the mapping sets them). */
export function categoryIdsFor(product: Pick<CatalogProduct, "categoryCatalogId">, refs: Pick<ReferenceMaps, "categoryIdByCatalogId">): string[] {
  const id = product.categoryCatalogId ? refs.categoryIdByCatalogId.get(product.categoryCatalogId) : undefined
  return id ? [id] : []
}

/**
 * At run start: categories, brands and brand models with conditional requests (an unchanged
 * list is a 304 and costs no quota), the sale price list, the store's locales. Validators are
 * saved in the sync state only after their records were applied, so a restart still sends them.
 */
export async function refreshReferenceData(
  container: MedusaContainer,
  client: CatalogClient,
  state: StateLike,
  settings?: Pick<EffectiveSettings, "primaryLanguage">,
  options: { fetchLists?: boolean } = {}
): Promise<ReferenceMaps> {
  // false: the stored records only, no API call (the lists are fresh; see sync-run/reference-refresh),
  // except a list whose stored records are not whole (built for another language or without the
  // translation module, or records deleted in the admin): that one is fetched (and rebuilt) now.
  const fetchLists = options.fetchLists ?? true
  let listsFetched = fetchLists
  const logger = loggerOf(container)
  const catalogSync = catalogSyncService(container)
  const row: StateLike = state?.id ? state : await catalogSync.getState()
  const cache: ReferenceCache = { ...((row?.reference_cache as ReferenceCache | null) ?? {}) }
  const primary: Language = settings?.primaryLanguage ?? (await catalogSync.getEffectiveSettings()).primaryLanguage ?? "uk"
  const translationsEnabled = translationService(container) !== null
  if (translationsEnabled) await ensureStoreLocales(container)

  // Categories: reuse the validators only if the tree was built the same way and is still whole.
  const existing = await listExistingCategories(container)
  const ownActive = existing.filter((c) => isOwnCategory(c) && c.is_active).length
  let categoryIdByCatalogId = categoryMap(existing)
  const c = cache.categories
  const reuseCategories = !!c && c.primaryLanguage === primary && c.translations === translationsEnabled && c.count === ownActive
  if (fetchLists || !reuseCategories) {
    try {
      const res = await client.getCategories({ validators: reuseCategories ? validatorsOf(c) : {} })
      if (!res.notModified && res.data) {
        const { result: applied } = await syncCategoriesWorkflow(container).run({ input: { categories: res.data, primaryLanguage: primary } })
        categoryIdByCatalogId = new Map(Object.entries(applied.map))
        cache.categories = { ...validatorsOf(res), primaryLanguage: primary, translations: translationsEnabled, count: categoryIdByCatalogId.size }
        if (applied.created || applied.updated || applied.deactivated) {
          logger.info(`catalog sync: categories ${applied.created} created, ${applied.updated} updated, ${applied.deactivated} deactivated`)
        }
      }
    } catch (error) {
      if (isFatal(error)) throw error
      listsFetched = false
      logger.warn(`catalog sync: categories not refreshed: ${(error as Error).message}`)
    }
  }

  let brandIdByCatalogId = await liveRecordMap(container, "brand")
  const b = cache.brands
  if (fetchLists || !b || b.count !== brandIdByCatalogId.size) {
    try {
      const res = await client.getBrands({ validators: b && b.count === brandIdByCatalogId.size ? validatorsOf(b) : {} })
      if (!res.notModified && res.data) {
        const { result: applied } = await syncReferenceRecordsWorkflow(container).run({
          input: { kind: "brand", records: brandRecords(res.data), complete: true },
        })
        brandIdByCatalogId = new Map(Object.entries(applied.map))
        cache.brands = { ...validatorsOf(res), count: brandIdByCatalogId.size }
      }
    } catch (error) {
      if (isFatal(error)) throw error
      listsFetched = false
      logger.warn(`catalog sync: brands not refreshed: ${(error as Error).message}`)
    }
  }

  let brandModelIdByCatalogId = await liveRecordMap(container, "model")
  const m = cache.brand_models
  if (fetchLists || !m || m.count !== brandModelIdByCatalogId.size) {
    try {
      const res = await client.getBrandModels({ validators: m && m.count === brandModelIdByCatalogId.size ? validatorsOf(m) : {} })
      if (!res.notModified && res.data) {
        const { result: applied } = await syncReferenceRecordsWorkflow(container).run({
          input: { kind: "model", records: modelRecords(res.data), complete: true, brandIdByCatalogId: Object.fromEntries(brandIdByCatalogId) },
        })
        brandModelIdByCatalogId = new Map(Object.entries(applied.map))
        cache.brand_models = { ...validatorsOf(res), count: brandModelIdByCatalogId.size }
      }
    } catch (error) {
      if (isFatal(error)) throw error
      listsFetched = false
      logger.warn(`catalog sync: brand models not refreshed: ${(error as Error).message}`)
    }
  }

  if (translationsEnabled && cache.translations_module !== true) {
    const n = await backfillProductTranslations(container)
    if (n) logger.info(`catalog sync: translation module found, ${n} product translations written from metadata`)
  }
  cache.translations_module = translationsEnabled

  const salePriceListId = await ensureSalePriceList(container, cache.sale_price_list_id ?? null)
  cache.sale_price_list_id = salePriceListId
  // A list that failed leaves the old time: the next run asks again.
  if (listsFetched) cache.lists_fetched_at = new Date().toISOString()

  if (row?.id) {
    await catalogSync.updateCatalogSyncStates({ id: row.id, reference_cache: cache as Record<string, unknown> })
    if (state && typeof state === "object") state.reference_cache = cache
  }
  return { categoryIdByCatalogId, brandIdByCatalogId, brandModelIdByCatalogId, salePriceListId, translationsEnabled }
}

/** The sale amount wanted for every variant the page wrote, keyed like the product map. */
export function salePricesOf(written: Pick<WrittenProduct, "variants" | "variantIdsBySize">[]): SalePriceWanted[] {
  const wanted: SalePriceWanted[] = []
  for (const w of written) {
    for (const v of w.variants) {
      const variantId = w.variantIdsBySize[v.sizeKey]
      if (variantId) wanted.push({ variantId, saleAmount: v.saleAmount })
    }
  }
  return wanted
}

/** Brand and model records seen on cards but not in the last /v1/brands answer: made now. */
async function ensureCardBrands(container: MedusaContainer, written: WrittenProduct[], refs: PageReferences): Promise<NewReferences> {
  const added: NewReferences = { brandIdByCatalogId: {}, brandModelIdByCatalogId: {} }
  const newBrands = new Map<string, { id: string; name: string }>()
  const newModels = new Map<string, { id: string; name: string; brandId: string | null }>()
  for (const w of written) {
    const brand = w.brand
    const model = w.brandModel
    if (brand && !refs.brandIdByCatalogId[brand.id]) newBrands.set(brand.id, brand)
    if (model && !refs.brandModelIdByCatalogId[model.id]) newModels.set(model.id, { ...model, brandId: brand?.id ?? null })
  }
  if (newBrands.size) {
    const r = await upsertReferenceRecords(
      container,
      "brand",
      [...newBrands.values()].map((b) => ({ catalogId: b.id, name: b.name.trim() || `Brand ${b.id}`, slug: null })),
      { complete: false }
    )
    for (const [k, v] of r.map) added.brandIdByCatalogId[k] = v
  }
  if (newModels.size) {
    const brandIds = new Map(Object.entries({ ...refs.brandIdByCatalogId, ...added.brandIdByCatalogId }))
    const r = await upsertReferenceRecords(
      container,
      "model",
      [...newModels.values()].map((m) => ({ catalogId: m.id, name: m.name.trim() || `Model ${m.id}`, slug: null, brandCatalogId: m.brandId })),
      { complete: false, brandIdByCatalogId: brandIds }
    )
    for (const [k, v] of r.map) added.brandModelIdByCatalogId[k] = v
  }
  return added
}

/**
 * After a page's product writes: brand and model records seen on cards, then each product's
 * brand and model link. Returns the records it made, for the run's later pages.
 */
export async function syncBrandLinks(container: MedusaContainer, written: WrittenProduct[], refs: PageReferences): Promise<NewReferences> {
  if (!written.length) return { brandIdByCatalogId: {}, brandModelIdByCatalogId: {} }
  const added = await ensureCardBrands(container, written, refs)
  const brands = { ...refs.brandIdByCatalogId, ...added.brandIdByCatalogId }
  const models = { ...refs.brandModelIdByCatalogId, ...added.brandModelIdByCatalogId }
  const brandWanted = new Map<string, string | null>()
  const modelWanted = new Map<string, string | null>()
  for (const w of written) {
    brandWanted.set(w.productId, w.brand ? (brands[w.brand.id] ?? null) : null)
    modelWanted.set(w.productId, w.brandModel ? (models[w.brandModel.id] ?? null) : null)
  }
  // Two link tables: written side by side.
  await settleAll([syncLinks(container, BRAND_LINK, brandWanted), syncLinks(container, MODEL_LINK, modelWanted)])
  return added
}

/** The other language's product translations (only with Medusa's translation module). */
export async function syncProductTranslations(container: MedusaContainer, written: WrittenProduct[]): Promise<void> {
  if (!written.length) return
  const desired = new Map<string, Record<string, Record<string, string | null>>>()
  for (const w of written) desired.set(w.productId, w.translations as unknown as Record<string, Record<string, string | null>>)
  await syncTranslations(container, "product", desired)
}

/**
 * A product left the catalog (deleted or set to draft by the sync): its sale prices,
 * translations and brand links go; they come back if the catalog sends it again.
 * `linksGoWithProducts`: the products are soft-deleted in bulk next, which soft-deletes every
 * link table of the products in its transaction (src/bulk-write/remove-products.ts), brand and
 * model links included, as deleteProductsWorkflow dismisses them: not dismissed here first.
 */
export async function removeProductExtras(container: MedusaContainer, productIds: string[], opts: { linksGoWithProducts?: boolean } = {}): Promise<void> {
  if (!productIds.length) return
  const catalogSync = catalogSyncService(container)
  const maps = await timed(container, "removal extras: map rows read", () =>
    catalogSync.listCatalogProductMaps({ product_id: productIds }, { select: ["variant_ids"], take: null, withDeleted: true })
  )
  const variantIds = maps.flatMap((m) => Object.values((m.variant_ids as IdBySize | null) ?? {}))
  if (variantIds.length) {
    const state = await catalogSync.getState()
    const listId = (state?.reference_cache as ReferenceCache | null)?.sale_price_list_id
    if (listId)
      await timed(container, "removal extras: sale prices", () =>
        syncSalePrices(
          container,
          listId,
          variantIds.map((variantId) => ({ variantId, saleAmount: null }))
        )
      )
  }
  await timed(container, "removal extras: translations", () => deleteTranslations(container, productIds))
  if (opts.linksGoWithProducts) return
  const none = new Map(productIds.map((id) => [id, null]))
  await timed(container, "removal extras: brand links", () => syncLinks(container, BRAND_LINK, none))
  await timed(container, "removal extras: model links", () => syncLinks(container, MODEL_LINK, none))
}
