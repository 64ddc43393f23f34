// Fidelity hooks the engine calls (docs/contracts.md "Fidelity hooks"): reference data at
// run start, extras after each page's product writes, cleanup on removal. All idempotent,
// one bulk call per kind per page.
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  AbortedError,
  InvalidApiKeyError,
  PlanRequiredError,
  type CatalogClient,
  type ProductCard,
  type Validators,
} from "../../catalog-client"
import type { CardDetails, Language } from "../../sync/card-details"
import { variantAmounts } from "../../sync/card-details"
import { distinctSizes } from "../../sync/map-card"
import { DEFAULT_SIZE_KEY } from "../../sync/product-input"
import type { EffectiveSettings } from "../../sync/settings"
import { BRAND_LINK, MODEL_LINK, syncLinks } from "./brand-links"
import { brandRecords, CATALOG_SYNC_MODULE, catalogSyncService, liveRecordMap, modelRecords, upsertReferenceRecords } from "./brands"
import { applyCategories, categoryMap, listExistingCategories } from "./categories"
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

export type WrittenProduct = {
  catalogId: string
  productId: string
  variantIdsBySize: Record<string, string>
  card: ProductCard
  details: CardDetails
}

type Logger = { info(m: string): void; warn(m: string): void; debug?(m: string): void }

/** What catalog_sync_state.reference_cache holds (only fidelity writes it). */
export interface ReferenceCache {
  categories?: Validators & { primaryLanguage: Language; translations: boolean; count: number }
  brands?: Validators & { count: number }
  brand_models?: Validators & { count: number }
  sale_price_list_id?: string
  /** Whether the last run had the translation module; off → on backfills product translations. */
  translations_module?: boolean
}

type StateLike = { id?: string; reference_cache?: unknown } | null | undefined

function validatorsOf(v: Validators | undefined): Validators {
  return { ...(v?.etag ? { etag: v.etag } : {}), ...(v?.lastModified ? { lastModified: v.lastModified } : {}) }
}

function loggerOf(container: MedusaContainer): Logger {
  try {
    return container.resolve("logger") as Logger
  } catch {
    return console
  }
}

/** Errors that must stop the run (the engine handles them); anything else only skips a refresh. */
function isFatal(error: unknown): boolean {
  return error instanceof InvalidApiKeyError || error instanceof PlanRequiredError || error instanceof AbortedError
}

/** Product categories of a card's product, for the engine's product write. */
export function categoryIdsFor(details: Pick<CardDetails, "categoryCatalogId">, refs: Pick<ReferenceMaps, "categoryIdByCatalogId">): string[] {
  const id = details.categoryCatalogId ? refs.categoryIdByCatalogId.get(details.categoryCatalogId) : undefined
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
): Promise<ReferenceMaps> {
  const logger = loggerOf(container)
  const catalogSync = catalogSyncService(container) as ReturnType<typeof catalogSyncService> & {
    getEffectiveSettings?: () => Promise<EffectiveSettings>
    getState?: () => Promise<{ id: string; reference_cache?: unknown }>
    updateCatalogSyncStates(data: Record<string, unknown>): Promise<unknown>
  }
  const row = state?.id ? state : await catalogSync.getState?.()
  const cache: ReferenceCache = { ...((row?.reference_cache as ReferenceCache | null) ?? {}) }
  const primary: Language = settings?.primaryLanguage ?? (await catalogSync.getEffectiveSettings?.())?.primaryLanguage ?? "uk"
  const translationsEnabled = translationService(container) !== null
  if (translationsEnabled) await ensureStoreLocales(container)

  // Categories: reuse the validators only if the tree was built the same way and is still whole.
  const existing = await listExistingCategories(container)
  const ownActive = existing.filter((c) => isOwnCategory(c) && c.is_active).length
  let categoryIdByCatalogId = categoryMap(existing)
  const c = cache.categories
  const reuseCategories = !!c && c.primaryLanguage === primary && c.translations === translationsEnabled && c.count === ownActive
  try {
    const res = await client.getCategories({ validators: reuseCategories ? validatorsOf(c) : {} })
    if (!res.notModified && res.data) {
      const applied = await applyCategories(container, res.data, primary)
      categoryIdByCatalogId = applied.map
      cache.categories = { ...validatorsOf(res), primaryLanguage: primary, translations: translationsEnabled, count: applied.map.size }
      if (applied.created || applied.updated || applied.deactivated) {
        logger.info(`catalog sync: categories ${applied.created} created, ${applied.updated} updated, ${applied.deactivated} deactivated`)
      }
    }
  } catch (error) {
    if (isFatal(error)) throw error
    logger.warn(`catalog sync: categories not refreshed: ${(error as Error).message}`)
  }

  let brandIdByCatalogId = await liveRecordMap(container, "brand")
  try {
    const b = cache.brands
    const res = await client.getBrands({ validators: b && b.count === brandIdByCatalogId.size ? validatorsOf(b) : {} })
    if (!res.notModified && res.data) {
      const applied = await upsertReferenceRecords(container, "brand", brandRecords(res.data), { complete: true })
      brandIdByCatalogId = applied.map
      cache.brands = { ...validatorsOf(res), count: applied.map.size }
    }
  } catch (error) {
    if (isFatal(error)) throw error
    logger.warn(`catalog sync: brands not refreshed: ${(error as Error).message}`)
  }

  let brandModelIdByCatalogId = await liveRecordMap(container, "model")
  try {
    const m = cache.brand_models
    const res = await client.getBrandModels({ validators: m && m.count === brandModelIdByCatalogId.size ? validatorsOf(m) : {} })
    if (!res.notModified && res.data) {
      const applied = await upsertReferenceRecords(container, "model", modelRecords(res.data), { complete: true, brandIdByCatalogId })
      brandModelIdByCatalogId = applied.map
      cache.brand_models = { ...validatorsOf(res), count: applied.map.size }
    }
  } catch (error) {
    if (isFatal(error)) throw error
    logger.warn(`catalog sync: brand models not refreshed: ${(error as Error).message}`)
  }

  if (translationsEnabled && cache.translations_module !== true) {
    const n = await backfillProductTranslations(container)
    if (n) logger.info(`catalog sync: translation module found, ${n} product translations written from metadata`)
  }
  cache.translations_module = translationsEnabled

  const salePriceListId = await ensureSalePriceList(container, cache.sale_price_list_id ?? null)
  cache.sale_price_list_id = salePriceListId

  if (row?.id) {
    await catalogSync.updateCatalogSyncStates({ id: row.id, reference_cache: cache })
    if (state && typeof state === "object") state.reference_cache = cache
  }
  return { categoryIdByCatalogId, brandIdByCatalogId, brandModelIdByCatalogId, salePriceListId, translationsEnabled }
}

/** The sale amount wanted for every variant the engine wrote, keyed like the product map. */
export function salePricesOf(written: WrittenProduct[]): SalePriceWanted[] {
  const wanted: SalePriceWanted[] = []
  for (const w of written) {
    const sizes = distinctSizes(w.card)
    if (sizes.length === 0) {
      const variantId = w.variantIdsBySize[DEFAULT_SIZE_KEY]
      if (variantId) wanted.push({ variantId, saleAmount: variantAmounts(w.card).saleAmount })
      continue
    }
    for (const s of sizes) {
      const variantId = w.variantIdsBySize[s.size.trim()]
      if (variantId) wanted.push({ variantId, saleAmount: variantAmounts(s).saleAmount })
    }
  }
  return wanted
}

/**
 * After a page's product writes: brand and model records seen on cards, product ↔ brand /
 * model links, the other language's translations, and the sale (selling) prices.
 */
export async function applyPageExtras(
  container: MedusaContainer,
  written: WrittenProduct[],
  ctx: { refs: ReferenceMaps; settings?: Pick<EffectiveSettings, "primaryLanguage"> },
): Promise<void> {
  if (!written.length) return
  const { refs } = ctx
  const started = Date.now()
  const marks: string[] = []
  const mark = (what: string, since: number) => marks.push(`${what} ${Date.now() - since}ms`)
  let t = Date.now()

  // A card may name a brand or model the last /v1/brands answer did not have yet.
  const newBrands = new Map<string, { id: string; name: string }>()
  const newModels = new Map<string, { id: string; name: string; brandId: string | null }>()
  for (const w of written) {
    const brand = w.card.brand
    const model = w.card.brand_model
    if (brand && !refs.brandIdByCatalogId.has(brand.id)) newBrands.set(brand.id, brand)
    if (model && !refs.brandModelIdByCatalogId.has(model.id)) newModels.set(model.id, { ...model, brandId: brand?.id ?? null })
  }
  if (newBrands.size) {
    const r = await upsertReferenceRecords(
      container,
      "brand",
      [...newBrands.values()].map((b) => ({ catalogId: b.id, name: b.name.trim() || `Brand ${b.id}`, slug: null })),
      { complete: false },
    )
    for (const [k, v] of r.map) refs.brandIdByCatalogId.set(k, v)
  }
  if (newModels.size) {
    const r = await upsertReferenceRecords(
      container,
      "model",
      [...newModels.values()].map((m) => ({ catalogId: m.id, name: m.name.trim() || `Model ${m.id}`, slug: null, brandCatalogId: m.brandId })),
      { complete: false, brandIdByCatalogId: refs.brandIdByCatalogId },
    )
    for (const [k, v] of r.map) refs.brandModelIdByCatalogId.set(k, v)
  }

  const brandWanted = new Map<string, string | null>()
  const modelWanted = new Map<string, string | null>()
  for (const w of written) {
    brandWanted.set(w.productId, w.details.brandCatalogId ? refs.brandIdByCatalogId.get(w.details.brandCatalogId) ?? null : null)
    modelWanted.set(w.productId, w.details.brandModelCatalogId ? refs.brandModelIdByCatalogId.get(w.details.brandModelCatalogId) ?? null : null)
  }
  mark("brands", t)
  t = Date.now()
  await syncLinks(container, BRAND_LINK, brandWanted)
  await syncLinks(container, MODEL_LINK, modelWanted)
  mark("links", t)

  if (refs.translationsEnabled) {
    t = Date.now()
    const desired = new Map<string, Record<string, Record<string, string | null>>>()
    for (const w of written) desired.set(w.productId, w.details.translations as unknown as Record<string, Record<string, string | null>>)
    await syncTranslations(container, "product", desired)
    mark("translations", t)
  }

  if (refs.salePriceListId) {
    t = Date.now()
    await syncSalePrices(container, refs.salePriceListId, salePricesOf(written))
    mark("sale prices", t)
  }
  loggerOf(container).debug?.(`catalog sync: page extras for ${written.length} products in ${Date.now() - started}ms (${marks.join(", ")})`)
}

/**
 * A product left the catalog (deleted or set to draft by the engine): its sale prices,
 * translations and brand links go; they come back if the catalog sends it again.
 */
export async function removeProductExtras(container: MedusaContainer, productIds: string[]): Promise<void> {
  if (!productIds.length) return
  const catalogSync = container.resolve(CATALOG_SYNC_MODULE) as {
    listCatalogProductMaps(f: Record<string, unknown>, c?: Record<string, unknown>): Promise<{ variant_ids?: Record<string, string> | null }[]>
  }
  const maps = await catalogSync.listCatalogProductMaps({ product_id: productIds }, { select: ["variant_ids"], take: null, withDeleted: true })
  const variantIds = maps.flatMap((m) => Object.values(m.variant_ids ?? {}))
  if (variantIds.length) {
    const state = (await (container.resolve(CATALOG_SYNC_MODULE) as { getState?: () => Promise<{ reference_cache?: unknown }> }).getState?.()) ?? null
    const listId = (state?.reference_cache as ReferenceCache | null)?.sale_price_list_id
    if (listId) await syncSalePrices(container, listId, variantIds.map((variantId) => ({ variantId, saleAmount: null })))
  }
  await deleteTranslations(container, productIds)
  const none = new Map(productIds.map((id) => [id, null]))
  await syncLinks(container, BRAND_LINK, none)
  await syncLinks(container, MODEL_LINK, none)
}
