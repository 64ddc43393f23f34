// The second catalog language through Medusa's translation module, when the app has it.
// A plugin cannot switch the module's feature flag on, so everything here first asks
// whether the module is registered; without it the text lives in metadata (card-details).
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { updateStoresWorkflow } from "@medusajs/medusa/core-flows"
import { LOCALE_BY_LANGUAGE } from "../../sync/catalog-product"
import { shopWriter } from "../../shop-writer/choose-shop-writer"

export const CATALOG_LOCALES = [LOCALE_BY_LANGUAGE.uk, LOCALE_BY_LANGUAGE.ru]

type TranslationRow = { id: string; reference_id: string; reference: string; locale_code: string; translations: Record<string, unknown> }
type TranslationService = {
  listTranslations(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<TranslationRow[]>
}

/** The translation module's service, or null when the app runs without it. */
export function translationService(container: MedusaContainer): TranslationService | null {
  const c = container as MedusaContainer & { hasRegistration?: (key: string) => boolean }
  if (typeof c.hasRegistration === "function" && !c.hasRegistration(Modules.TRANSLATION)) return null
  try {
    return container.resolve(Modules.TRANSLATION, { allowUnregistered: true } as never) ?? null
  } catch {
    return null
  }
}

/** Adds uk-UA and ru-RU to the store's supported locales (the module refuses others). */
export async function ensureStoreLocales(container: MedusaContainer): Promise<void> {
  const storeModule = container.resolve(Modules.STORE)
  const [store] = await storeModule.listStores({}, { relations: ["supported_locales"], take: 1 })
  if (!store) return
  const current = (store.supported_locales ?? []).map((l: { locale_code: string }) => l.locale_code)
  const missing = CATALOG_LOCALES.filter((code) => !current.includes(code))
  if (!missing.length) return
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: { supported_locales: [...current, ...missing].map((locale_code) => ({ locale_code })) },
    },
  })
}

/** Only non-empty strings are written: Medusa's store API applies a translation only over a value of the same type. */
function cleanFields(fields: Record<string, string | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(fields)) if (typeof v === "string" && v.trim() !== "") out[k] = v
  return out
}

function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a).sort()
  const kb = Object.keys(b).sort()
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k])
}

/**
 * Makes the catalog-locale translations of the given records exactly `desired`: rows are
 * created, updated when their text changed, and deleted when a locale is no longer wanted
 * (e.g. after the primary language changed, the primary locale's rows go). One batch write.
 */
export async function syncTranslations(
  container: MedusaContainer,
  reference: "product" | "product_category",
  desired: Map<string, Record<string, Record<string, string | null | undefined>>>
): Promise<{ created: number; updated: number; deleted: number }> {
  const service = translationService(container)
  const ids = [...desired.keys()]
  if (!service || !ids.length) return { created: 0, updated: 0, deleted: 0 }
  const existing = await service.listTranslations(
    { reference_id: ids, locale_code: CATALOG_LOCALES },
    { select: ["id", "reference_id", "reference", "locale_code", "translations"], take: null }
  )
  const byKey = new Map(existing.map((row) => [`${row.reference_id}|${row.locale_code}`, row]))
  const create: { reference: string; reference_id: string; locale_code: string; translations: Record<string, string> }[] = []
  const update: { id: string; translations: Record<string, string> }[] = []
  const remove: string[] = []
  for (const [referenceId, locales] of desired) {
    for (const localeCode of CATALOG_LOCALES) {
      const want = locales[localeCode] ? cleanFields(locales[localeCode]) : null
      const row = byKey.get(`${referenceId}|${localeCode}`)
      if (!want || !Object.keys(want).length) {
        if (row) remove.push(row.id)
      } else if (!row) {
        create.push({ reference, reference_id: referenceId, locale_code: localeCode, translations: want })
      } else if (!sameFields(row.translations ?? {}, want)) {
        update.push({ id: row.id, translations: want })
      }
    }
  }
  await (await shopWriter(container)).writeTranslations({ create, update, delete: remove })
  return { created: create.length, updated: update.length, deleted: remove.length }
}

/** Deletes every catalog-locale translation of the given records. */
export async function deleteTranslations(container: MedusaContainer, referenceIds: string[]): Promise<void> {
  const service = translationService(container)
  if (!service || !referenceIds.length) return
  const rows = await service.listTranslations({ reference_id: referenceIds, locale_code: CATALOG_LOCALES }, { select: ["id"], take: null })
  await (await shopWriter(container)).writeTranslations({ create: [], update: [], delete: rows.map((r) => r.id) })
}

/**
 * Writes the translation rows of every catalog product from its metadata.translations (which
 * the mapping always fills). Used once when the app starts running with the translation
 * module after running without it: unchanged products are not rewritten by the sync, so
 * their translations would otherwise never appear. Pages of 500 products.
 */
export async function backfillProductTranslations(container: MedusaContainer): Promise<number> {
  if (!translationService(container)) return 0
  const productModule = container.resolve(Modules.PRODUCT)
  let written = 0
  for (let skip = 0; ; skip += 500) {
    const products = (await productModule.listProducts({}, { select: ["id", "external_id", "metadata"], take: 500, skip, order: { id: "ASC" } })) as {
      id: string
      metadata?: Record<string, unknown> | null
    }[]
    if (!products.length) break
    const desired = new Map<string, Record<string, Record<string, string | null | undefined>>>()
    for (const p of products) {
      const meta = p.metadata
      if (!meta || typeof meta.catalog_id !== "string") continue
      const byLanguage = (meta.translations ?? {}) as Record<string, Record<string, string | null>>
      const locales: Record<string, Record<string, string | null>> = {}
      for (const [language, fields] of Object.entries(byLanguage)) {
        const locale = LOCALE_BY_LANGUAGE[language as keyof typeof LOCALE_BY_LANGUAGE]
        if (locale && fields && typeof fields === "object") locales[locale] = fields
      }
      desired.set(p.id, locales)
    }
    const r = await syncTranslations(container, "product", desired)
    written += r.created + r.updated
    if (products.length < 500) break
  }
  return written
}
