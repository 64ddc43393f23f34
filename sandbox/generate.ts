// Deterministic catalog generation: the same seed and size always give the same catalog.

import type { Brand, BrandModel, Category, Product, SupplierOffer } from "./model"
import { INT64_MAX, Prng, randomInt64 } from "./prng"
import { slugify } from "./slug"
import { AUDIENCES, BRANDS, COLORS, COUNTRIES, GROUPS, MATERIALS, PRODUCT_TYPES, SEASONS, SIZE_SETS } from "./vocabulary"

export interface ReferenceData {
  categories: Category[]
  /** Leaf category id per audience index and product type index (undefined when not offered). */
  leafCategory: (number | undefined)[][]
  brands: Brand[]
  brandModels: BrandModel[]
  modelsByBrand: Map<number, BrandModel[]>
}

export function buildReferenceData(): ReferenceData {
  const categories: Category[] = []
  let nextId = 1
  const add = (parentId: number | null, nameUk: string, nameRu: string, slugPrefix: string): Category => {
    const category: Category = {
      id: nextId++,
      parentId,
      nameUk,
      nameRu,
      slug: (slugPrefix ? slugPrefix + "-" : "") + slugify(nameUk),
      subtree: new Set(),
    }
    categories.push(category)
    return category
  }
  const leafCategory: (number | undefined)[][] = AUDIENCES.map(() => [])
  AUDIENCES.forEach((audience, audienceIndex) => {
    const top = add(null, audience.uk, audience.ru, "")
    for (const groupKey of ["clothing", "shoes", "accessories"] as const) {
      const group = GROUPS[groupKey]
      const middle = add(top.id, group.uk, group.ru, top.slug)
      PRODUCT_TYPES.forEach((type, typeIndex) => {
        if (type.group !== groupKey) return
        if (type.sizeKind === "kids" && audienceIndex !== 2) return // children's sizes only under "Дітям"
        const leaf = add(middle.id, type.name.uk, type.name.ru, middle.slug)
        leafCategory[audienceIndex][typeIndex] = leaf.id
      })
    }
  })
  const byId = new Map(categories.map((c) => [c.id, c]))
  for (const category of categories) {
    for (let cursor: Category | undefined = category; cursor; cursor = cursor.parentId ? byId.get(cursor.parentId) : undefined) {
      cursor.subtree.add(category.id)
    }
  }

  const brands: Brand[] = []
  const brandModels: BrandModel[] = []
  const modelsByBrand = new Map<number, BrandModel[]>()
  BRANDS.forEach((entry, index) => {
    const brand: Brand = { id: 101 + index, name: entry.name, slug: slugify(entry.name) }
    brands.push(brand)
    const models = entry.models.map(([name, group], modelIndex) => ({
      id: 5001 + index * 100 + modelIndex,
      brandId: brand.id,
      name,
      slug: slugify(entry.name + " " + name),
      group,
    }))
    brandModels.push(...models)
    modelsByBrand.set(brand.id, models)
  })
  return { categories, leafCategory, brands, brandModels, modelsByBrand }
}

/** Ids that exercise the edges of 64-bit handling come first. */
const ANCHOR_IDS = [INT64_MAX, 9007199254740993n, 1n]

export class ProductFactory {
  private readonly idRng: Prng
  private readonly usedIds = new Set<bigint>()
  private nextSerial = 1

  constructor(
    private readonly seed: number,
    private readonly reference: ReferenceData
  ) {
    this.idRng = new Prng(seed * 7919 + 17)
  }

  private nextId(): bigint {
    const anchor = ANCHOR_IDS[this.nextSerial - 1]
    let id = anchor !== undefined && !this.usedIds.has(anchor) ? anchor : randomInt64(this.idRng)
    while (this.usedIds.has(id)) id = randomInt64(this.idRng)
    this.usedIds.add(id)
    return id
  }

  /** A new product; `createdSeq` is the change-log position it was added at (0 for the initial catalog). */
  create(nowMs: number, createdSeq: number): Product {
    const serial = this.nextSerial
    const id = this.nextId()
    this.nextSerial++
    const rng = new Prng(Math.imul(this.seed + 1, 0x2545f491) ^ Math.imul(serial, 0x9e3779b1))
    const { leafCategory, brands, modelsByBrand } = this.reference

    let audienceIndex: number
    let typeIndex: number
    let categoryId: number | undefined
    do {
      audienceIndex = rng.int(0, AUDIENCES.length - 1)
      typeIndex = rng.int(0, PRODUCT_TYPES.length - 1)
      categoryId = leafCategory[audienceIndex][typeIndex]
    } while (categoryId === undefined)
    const type = PRODUCT_TYPES[typeIndex]

    const brand = rng.chance(0.92) ? rng.pick(brands) : null
    const models = (brand ? (modelsByBrand.get(brand.id) ?? []) : []).filter((m) => m.group === type.group)
    const model = models.length > 0 && rng.chance(0.7) ? rng.pick(models) : null

    const sizeSet = SIZE_SETS[type.sizeKind]
    const hasSizes = sizeSet.length > 0
    let sizes: string[] = []
    if (hasSizes) {
      const count = rng.int(Math.min(3, sizeSet.length), Math.min(7, sizeSet.length))
      const start = rng.int(0, sizeSet.length - count)
      sizes = sizeSet.slice(start, start + count)
    }
    const slots = Math.max(1, sizes.length)

    const noPriceAtAll = rng.chance(0.02)
    const outOfStock = rng.chance(0.08)
    const [low, high] = type.costRange
    const baseKop = rng.int(low, high) * 100
    const supplierCount = rng.int(1, 4)
    const suppliers: SupplierOffer[] = []
    for (let s = 0; s < supplierCount; s++) {
      const hasPrice = !noPriceAtAll && (s === 0 || rng.chance(0.95))
      // Each supplier has its own cost around the base, to the kopiyka.
      const baseCost = hasPrice ? Math.round(baseKop * (0.85 + rng.next() * 0.35)) : null
      const largeSurcharge = rng.chance(0.4) ? 1 + rng.int(3, 12) / 100 : 1
      const sizeCosts: (number | null)[] = []
      const sizeStock: number[] = []
      for (let i = 0; i < slots; i++) {
        const carries = !hasSizes || s === 0 || rng.chance(0.65)
        const large = hasSizes && i >= slots - 2
        sizeCosts.push(carries && baseCost !== null ? Math.round(baseCost * (large ? largeSurcharge : 1)) : null)
        sizeStock.push(carries ? (outOfStock || rng.chance(0.3) ? 0 : rng.int(1, 12)) : -1)
      }
      suppliers.push({ baseCost, sizeCosts, sizeStock })
    }

    const imageCount = rng.int(1, 8)
    const images: string[] = []
    for (let i = 0; i < imageCount; i++) images.push(imageToken(rng))

    const color = COLORS[rng.int(0, COLORS.length - 1)]
    const product: Product = {
      id,
      idText: id.toString(),
      serial,
      sku: skuFor(brand?.name ?? null, serial),
      typeIndex,
      audienceIndex,
      categoryId,
      brandId: brand?.id ?? null,
      brandModelId: model?.id ?? null,
      colorIndex: COLORS.indexOf(color),
      materialIndex: rng.int(0, MATERIALS.length - 1),
      seasonIndex: rng.int(0, SEASONS.length - 1),
      originCountry: rng.chance(0.9) ? rng.pick(COUNTRIES) : null,
      hasSizes,
      sizes,
      suppliers,
      images,
      descriptionVariant: rng.chance(0.95) ? rng.int(0, 999) : null,
      weightGrams: rng.chance(0.95) ? rng.int(type.weightGrams[0], type.weightGrams[1]) : null,
      dimensionsMm: rng.chance(0.9) ? [rng.int(150, 600), rng.int(100, 400), rng.int(30, 200)] : null,
      isNew: rng.chance(0.1),
      removed: false,
      syncVersion: 1,
      updatedAtMs: nowMs,
      createdSeq,
      lastSeq: createdSeq,
      changes: createdSeq > 0 ? [{ seq: createdSeq, kinds: [] }] : [],
      searchText: "",
    }
    product.searchText = searchTextOf(product, brand?.name ?? null, model?.name ?? null)
    return product
  }
}

export function imageToken(rng: Prng): string {
  return rng.uint32().toString(16).padStart(8, "0")
}

function skuFor(brandName: string | null, serial: number): string {
  const prefix = brandName
    ? brandName
        .replace(/[^A-Za-z]/g, "")
        .slice(0, 3)
        .toUpperCase()
        .padEnd(3, "X")
    : "GEN"
  return `${prefix}-${String(serial).padStart(6, "0")}`
}

export function productNames(product: Product, brandName: string | null, modelName: string | null): { uk: string; ru: string } {
  const type = PRODUCT_TYPES[product.typeIndex]
  const color = COLORS[product.colorIndex]
  const label = [brandName, modelName].filter(Boolean).join(" ")
  return {
    uk: `${type.name.uk}${label ? " " + label : ""}, ${color.uk}`,
    ru: `${type.name.ru}${label ? " " + label : ""}, ${color.ru}`,
  }
}

function searchTextOf(product: Product, brandName: string | null, modelName: string | null): string {
  const names = productNames(product, brandName, modelName)
  return `${names.uk}\n${names.ru}\n${product.sku}`.toLowerCase()
}
