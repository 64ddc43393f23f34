// Product cards and stock items as JSON text. Built by hand (not JSON.stringify) because this
// is the hot path of every page.

import type { Brand, BrandModel, Product } from "./model"
import { quote } from "./json"
import { aggregateCost, applyPricing, type PriceSet, type Pricing, productCostInputs, sizeCostInputs } from "./pricing"
import { AUDIENCES, COLORS, DESCRIPTION_CLOSERS, DESCRIPTION_OPENERS, MATERIALS, PRODUCT_TYPES, SEASONS } from "./vocabulary"
import { productNames } from "./generate"

export interface ReferenceLookup {
  brand(id: number): Brand | undefined
  brandModel(id: number): BrandModel | undefined
}

/**
 * Renders from scratch on every call. Caching rendered fragments was measured slower on a
 * 100,000-product catalog: the retained strings made garbage collection dominate (12 ms vs 5 ms
 * of CPU per 200 cards).
 */
export class CardRenderer {
  constructor(
    private readonly reference: ReferenceLookup,
    /** Public base URL, e.g. http://127.0.0.1:4010; images are served under it. */
    private readonly baseUrl: string,
    /**
     * Money as JSON numbers ("price":130.5) instead of decimal strings ("price":"130.50"): some
     * catalogs send numbers, and the shop must keep every digit of them (control API /money-format).
     */
    private readonly moneyAsNumbers: () => boolean = () => false
  ) {}

  card(product: Product, pricing: Pricing): string {
    return this.head(product) + this.stockAndPrices(product, pricing) + "," + this.tail(product)
  }

  stockItem(product: Product, pricing: Pricing): string {
    return `{"id":${product.idText},"sku":${quote(product.sku)},` + this.stockAndPrices(product, pricing) + `,"sync_version":${product.syncVersion}}`
  }

  imageUrl(product: Product, token: string): string {
    return `${this.baseUrl}/images/${product.idText}/${token}.png`
  }

  private stockAndPrices(product: Product, pricing: Pricing): string {
    const withPrice = pricing.markup !== null
    const withOldPrice = withPrice && (pricing.discount !== null || pricing.oldPriceMarkup !== null)
    // Sizes often share a cost: price each distinct cost once.
    const priced = new Map<number | null, PriceSet>()
    const priceOf = (cost: number | null): PriceSet => {
      let set = priced.get(cost)
      if (!set) {
        set = applyPricing(cost, pricing)
        priced.set(cost, set)
      }
      return set
    }
    const sizeStock = piecesPerSize(product)
    let stock = 0
    for (const pieces of sizeStock) stock += pieces
    const main = priceOf(aggregateCost(productCostInputs(product), pricing.calculation))
    const money = this.moneyAsNumbers() ? moneyNumber : moneyString
    let text = `"in_stock":${stock > 0},"stock":${stock},"cost_price":${money(main.cost)}`
    if (withPrice) text += `,"price":${money(main.price)}`
    if (withOldPrice) text += `,"old_price":${money(main.oldPrice)}`
    text += `,"sizes":[`
    for (let i = 0; i < product.sizes.length; i++) {
      const prices = priceOf(aggregateCost(sizeCostInputs(product, i), pricing.calculation))
      if (i > 0) text += ","
      text += `{"size":${quote(product.sizes[i])},"stock":${sizeStock[i]},"cost_price":${money(prices.cost)}`
      if (withPrice) text += `,"price":${money(prices.price)}`
      if (withOldPrice) text += `,"old_price":${money(prices.oldPrice)}`
      text += "}"
    }
    return text + "]"
  }

  private head(product: Product): string {
    const brand = product.brandId !== null ? (this.reference.brand(product.brandId) ?? null) : null
    const model = product.brandModelId !== null ? (this.reference.brandModel(product.brandModelId) ?? null) : null
    const names = productNames(product, brand?.name ?? null, model?.name ?? null)
    const text = describe(product, names, brand?.name ?? null)
    const material = MATERIALS[product.materialIndex]
    const dims = product.dimensionsMm
    return (
      `{"id":${product.idText},"sku":${quote(product.sku)},"name":${quote(names.uk)},` +
      `"name_uk":${quote(names.uk)},"name_ru":${quote(names.ru)},` +
      `"description_uk":${nullable(text?.descriptionUk)},"description_ru":${nullable(text?.descriptionRu)},` +
      `"marketplace_text_uk":${nullable(text?.marketplaceUk)},"marketplace_text_ru":${nullable(text?.marketplaceRu)},` +
      `"category_id":${product.categoryId},` +
      `"brand":${brand ? `{"id":${brand.id},"name":${quote(brand.name)}}` : "null"},` +
      `"brand_model":${model ? `{"id":${model.id},"name":${quote(model.name)}}` : "null"},` +
      `"attributes":${attributesJson(product)},` +
      `"material_uk":${quote(material.uk)},"material_ru":${quote(material.ru)},` +
      `"origin_country":${nullable(product.originCountry)},` +
      `"weight_kg":${product.weightGrams === null ? "null" : quote(fixed(product.weightGrams, 1000, 3))},` +
      `"dimensions_cm":${dims ? `{"length":"${fixed(dims[0], 10, 1)}","width":"${fixed(dims[1], 10, 1)}","height":"${fixed(dims[2], 10, 1)}"}` : "null"},` +
      `"is_new":${product.isNew},`
    )
  }

  private tail(product: Product): string {
    const images = product.images.map((token, index) => `{"url":${quote(this.imageUrl(product, token))},"is_main":${index === 0}}`).join(",")
    return `"images":[${images}],"sync_version":${product.syncVersion},"updated_at":"${new Date(product.updatedAtMs).toISOString()}"}`
  }
}

/** Attribute lists repeat across products (colour × material × season × audience): build each once. */
const attributeCache = new Map<number, string>()

function attributesJson(product: Product): string {
  const key = ((product.colorIndex * 100 + product.materialIndex) * 100 + product.seasonIndex) * 100 + product.audienceIndex
  let json = attributeCache.get(key)
  if (json === undefined) {
    const color = COLORS[product.colorIndex]
    const material = MATERIALS[product.materialIndex]
    const season = SEASONS[product.seasonIndex]
    const audience = AUDIENCES[product.audienceIndex]
    json = JSON.stringify([
      { name_uk: "Колір", name_ru: "Цвет", value_uk: color.uk, value_ru: color.ru },
      { name_uk: "Матеріал", name_ru: "Материал", value_uk: material.uk, value_ru: material.ru },
      { name_uk: "Сезон", name_ru: "Сезон", value_uk: season.uk, value_ru: season.ru },
      { name_uk: "Для кого", name_ru: "Для кого", value_uk: audience.uk, value_ru: audience.ru },
    ])
    attributeCache.set(key, json)
  }
  return json
}

/** Pieces in stock per size slot, over all suppliers (one slot for products without sizes). */
function piecesPerSize(product: Product): number[] {
  const slots = Math.max(1, product.sizes.length)
  const pieces: number[] = []
  for (let slot = 0; slot < slots; slot++) {
    let sum = 0
    for (const offer of product.suppliers) if (offer.sizeStock[slot] > 0) sum += offer.sizeStock[slot]
    pieces.push(sum)
  }
  return pieces
}

function describe(product: Product, names: { uk: string; ru: string }, brandName: string | null) {
  if (product.descriptionVariant === null) return null
  const variant = product.descriptionVariant
  const opener = DESCRIPTION_OPENERS[variant % DESCRIPTION_OPENERS.length]
  const closer = DESCRIPTION_CLOSERS[Math.floor(variant / 7) % DESCRIPTION_CLOSERS.length]
  const type = PRODUCT_TYPES[product.typeIndex].name
  const material = MATERIALS[product.materialIndex]
  const season = SEASONS[product.seasonIndex]
  const by = brandName ? ` від ${brandName}` : ""
  const byRu = brandName ? ` от ${brandName}` : ""
  return {
    descriptionUk: `${opener.uk} ${type.uk}${by}. Матеріал: ${material.uk}. Сезон: ${season.uk}. ${closer.uk} (ред. ${variant})`,
    descriptionRu: `${opener.ru} ${type.ru}${byRu}. Материал: ${material.ru}. Сезон: ${season.ru}. ${closer.ru} (ред. ${variant})`,
    marketplaceUk: `${names.uk} — оригінал, швидка доставка по Україні. Матеріал: ${material.uk}.`,
    marketplaceRu: `${names.ru} — оригинал, быстрая доставка по Украине. Материал: ${material.ru}.`,
  }
}

function nullable(text: string | null | undefined): string {
  return text === null || text === undefined ? "null" : quote(text)
}

function moneyString(value: string | null): string {
  return value === null ? "null" : `"${value}"`
}

/** "130.50" → 130.5 (a bare JSON number, trailing zeros dropped as a JSON serializer would). */
function moneyNumber(value: string | null): string {
  return value === null ? "null" : value.includes(".") ? value.replace(/\.?0+$/, "") : value
}

/** An integer amount of small units as a decimal string, e.g. 450 g → "0.450" kg. */
function fixed(units: number, perWhole: number, decimals: number): string {
  const whole = Math.floor(units / perWhole)
  const rest = String(units % perWhole).padStart(decimals, "0")
  return `${whole}.${rest}`
}
