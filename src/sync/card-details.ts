// Pure: a catalog card's descriptive fields → the places Medusa has for them.
// Prices, variants, stock and images are mapped in map-card.ts; this file covers everything
// else, so nothing the card carries is lost. README.md ("Catalog card → Medusa") is the table.
import Decimal from "decimal.js"
import type { ProductCard } from "../catalog-client/schemas"
import { sellingAmount, toAmount } from "./money"
import type { Language } from "./settings/language"
import { LOCALE_BY_LANGUAGE, type CatalogProduct, type ProductTranslation } from "./catalog-product"
import type { ProductColumnValues } from "./product-columns"

export function otherLanguage(language: Language): Language {
  return language === "uk" ? "ru" : "uk"
}

/** The columns mapCardToProduct sets from the card's other parts (status from prices, thumbnail from images). */
type ColumnsSetByMapCard = "subtitle" | "status" | "external_id" | "thumbnail"

/**
 * The descriptive part of a CatalogProduct: every column of the description (product-columns.ts)
 * but those map-card.ts sets, and the metadata, translations and catalog references. A column
 * added to the description is a type error here until mapCardDetails maps it.
 */
export type CardDescription = Omit<ProductColumnValues, ColumnsSetByMapCard> &
  Pick<CatalogProduct, "extraMetadata" | "translations" | "categoryCatalogId" | "brand" | "brandModel">

export interface CardDetailsContext {
  primaryLanguage: Language
}

/** Empty strings count as absent: a blank description is no description. */
function text(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null
  const trimmed = value.trim()
  return trimmed === "" ? null : trimmed
}

function pick(card: ProductCard, field: "name" | "description" | "marketplace_text" | "material", language: Language): string | null {
  return text(card[`${field}_${language}` as keyof ProductCard] as string | null | undefined)
}

/** Title in a language, falling back to the other language and then to `name`, so a title is never empty. */
function titleIn(card: ProductCard, language: Language): string {
  return pick(card, "name", language) ?? pick(card, "name", otherLanguage(language)) ?? text(card.name) ?? card.sku
}

/** Decimal string × factor as a number. Measures are small, so a JS number holds them exactly enough. */
function scaled(value: string | null | undefined, factor: number): number | null {
  const t = text(value)
  if (t === null) return null
  const d = new Decimal(t)
  if (!d.isFinite() || d.isNegative()) return null
  return d.times(factor).toDecimalPlaces(3, Decimal.ROUND_HALF_UP).toNumber()
}

function countryCode(value: string | null | undefined): string | null {
  const t = text(value)
  return t !== null && /^[A-Za-z]{2}$/.test(t) ? t.toLowerCase() : null
}

/**
 * URL handle: the SKU made URL-safe, suffixed with the catalog id so two cards with
 * similar SKUs never collide on Medusa's unique handle index.
 */
export function productHandle(card: ProductCard): string {
  const base = card.sku
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/[\s_]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
  return base ? `${base}-${card.id}` : `catalog-${card.id}`
}

function bilingual(card: ProductCard, field: "marketplace_text" | "material" | "description" | "name"): { uk: string | null; ru: string | null } | null {
  const uk = pick(card, field, "uk")
  const ru = pick(card, field, "ru")
  return uk === null && ru === null ? null : { uk, ru }
}

export function mapCardDetails(card: ProductCard, ctx: CardDetailsContext): CardDescription {
  const primary = ctx.primaryLanguage
  const other = otherLanguage(primary)

  const translation: ProductTranslation = {
    title: titleIn(card, other),
    description: pick(card, "description", other),
    material: pick(card, "material", other),
  }

  const dims = card.dimensions_cm ?? null
  const attributes = (card.attributes ?? []).map((a) => ({
    name_uk: text(a.name_uk),
    name_ru: text(a.name_ru),
    value_uk: text(a.value_uk),
    value_ru: text(a.value_ru),
  }))

  // Metadata is what the storefront can read beyond the typed fields (productMetadata adds the
  // catalog references and the other language). Deliberately left out: sync_version and
  // updated_at (they change on every stock change, so they would defeat the fingerprint; the
  // product map keeps them) and cost_price (the reseller's wholesale cost must not reach the
  // public store API).
  const extraMetadata: Record<string, unknown> = {
    is_new: card.is_new ?? null,
    marketplace_text: bilingual(card, "marketplace_text"),
    attributes,
  }
  // A country the catalog spells in a way Medusa cannot store is kept as given.
  const country = countryCode(card.origin_country)
  if (country === null && text(card.origin_country) !== null) extraMetadata.origin_country_raw = text(card.origin_country)

  return {
    title: titleIn(card, primary),
    description: pick(card, "description", primary),
    handle: productHandle(card),
    weight: scaled(card.weight_kg, 1000),
    length: scaled(dims?.length, 10),
    width: scaled(dims?.width, 10),
    height: scaled(dims?.height, 10),
    material: pick(card, "material", primary),
    origin_country: country,
    extraMetadata,
    translations: { [LOCALE_BY_LANGUAGE[other]]: translation },
    categoryCatalogId: card.category_id ?? null,
    brand: card.brand ? { id: card.brand.id, name: card.brand.name } : null,
    brandModel: card.brand_model ? { id: card.brand_model.id, name: card.brand_model.name } : null,
  }
}

/** The two amounts of one variant (or of a card without sizes), exact major-unit strings. */
export interface VariantAmounts {
  /** The variant's own (base) price: the original, which the storefront strikes through when a sale applies. */
  amount: string | null
  /** The price charged, written to the plugin's sale price list; null when there is no crossed-out price. */
  saleAmount: string | null
}

/**
 * How a crossed-out price reaches Medusa. Medusa 2.21 computes `calculated_price` as the
 * lower of the base price and a price of an active "sale" price list, and reports the base
 * price as `original_amount` (a sale never moves the original). So the crossed-out
 * `old_price` is the base price and the selling `price` goes in the sale list; the
 * storefront then shows original_amount struck through next to calculated_amount.
 * With no old_price, or one not above the selling price, the base price is the selling price.
 */
export function variantAmounts(entry: { price?: string | null; old_price?: string | null; cost_price?: string | null }): VariantAmounts {
  const selling = sellingAmount(entry)
  const old = toAmount(entry.old_price ?? null)
  if (selling !== null && old !== null && new Decimal(old).greaterThan(selling)) {
    return { amount: old, saleAmount: selling }
  }
  return { amount: selling, saleAmount: null }
}
