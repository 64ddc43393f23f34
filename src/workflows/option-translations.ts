// The size option's words in the other catalog language through Medusa's translation module
// (product_option.title and product_option_value.value are translatable in 2.21): "Розмір" gets
// ru-RU "Размер", "Один розмір" gets "Один размер". Without the module the words stay in
// product.metadata.size_labels (map-card). Numeric and letter sizes need no translation.
import type { MedusaContainer } from "@medusajs/framework/types"
import { optionsTitled } from "../bulk-write"
import { otherLanguage } from "../sync/card-details"
import { LOCALE_BY_LANGUAGE } from "../sync/catalog-product"
import type { Language } from "../sync/settings/language"
import type { ShopVocabulary } from "../sync/shop-vocabulary"
import { translationService } from "./extras/translations"
import { shopWriter } from "../shop-writer/choose-shop-writer"
import { timed } from "./steps/profile"

type Row = { id: string; reference_id: string; locale_code: string; translations: Record<string, unknown> }

export async function syncSizeOptionTranslations(
  container: MedusaContainer,
  productIds: string[],
  ctx: { primaryLanguage: Language; vocabulary: ShopVocabulary }
): Promise<void> {
  const service = translationService(container) as unknown as {
    listTranslations(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<Row[]>
  } | null
  if (!service || !productIds.length) return
  const primary = ctx.vocabulary[ctx.primaryLanguage]
  const other = ctx.vocabulary[otherLanguage(ctx.primaryLanguage)]
  const locale = LOCALE_BY_LANGUAGE[otherLanguage(ctx.primaryLanguage)]
  // Each product's size option and its values, read by their indexes (a product module read
  // with both relations took most of their time in a first sync).
  const options = await timed(container, "size options read (translations)", () =>
    optionsTitled(
      container,
      productIds.map((productId) => ({ productId, optionTitle: primary.option }))
    )
  )
  const wanted = new Map<string, { reference: string; translations: Record<string, string> }>()
  for (const option of options.values()) {
    wanted.set(option.optionId, { reference: "product_option", translations: { title: other.option } })
    // The values the product uses, as the product module lists them (a shared option has others).
    for (const value of option.values) {
      if (value.joined && value.value === primary.oneSize) wanted.set(value.id, { reference: "product_option_value", translations: { value: other.oneSize } })
    }
  }
  if (!wanted.size) return
  // Both catalog locales: a row in the primary locale is left from before the primary language changed.
  const existing = await service.listTranslations(
    { reference_id: [...wanted.keys()], locale_code: [LOCALE_BY_LANGUAGE.uk, LOCALE_BY_LANGUAGE.ru] },
    { select: ["id", "reference_id", "locale_code", "translations"], take: null }
  )
  const stale = existing.filter((r) => r.locale_code !== locale).map((r) => r.id)
  const byRef = new Map(existing.filter((r) => r.locale_code === locale).map((r) => [r.reference_id, r]))
  const create: { reference: string; reference_id: string; locale_code: string; translations: Record<string, string> }[] = []
  const update: { id: string; translations: Record<string, string> }[] = []
  for (const [referenceId, want] of wanted) {
    const row = byRef.get(referenceId)
    if (!row) create.push({ reference: want.reference, reference_id: referenceId, locale_code: locale, translations: want.translations })
    else if (JSON.stringify(row.translations ?? {}) !== JSON.stringify(want.translations)) update.push({ id: row.id, translations: want.translations })
  }
  await (await shopWriter(container)).writeTranslations({ create, update, delete: stale })
}
