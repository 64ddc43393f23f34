// The catalog's state: products (sorted by id), lookups, the ordered change log, and the
// queries the endpoints need. No HTTP here.

import type { Brand, BrandModel, Category, ChangeKind, ChangeLogEntry, Product } from "./model"
import { buildReferenceData, ProductFactory, type ReferenceData } from "./generate"
import { slugify } from "./slug"

export interface ListFilters {
  categoryId: number | null
  brandId: number | null
  skuContains: string | null
  q: string | null
  inStock: boolean | null
  isNew: boolean | null
}

export interface ProductPage {
  products: Product[]
  hasMore: boolean
}

export interface ChangesPage {
  entries: ChangeLogEntry[]
  /** Log position to continue from. */
  nextSeq: number
  hasMore: boolean
}

export class Catalog {
  readonly reference: ReferenceData
  readonly factory: ProductFactory
  /** All products ever created, removed ones included, sorted by id. */
  private sorted: Product[] = []
  private readonly byId = new Map<string, Product>()
  private readonly bySku = new Map<string, Product>()
  private readonly brandsById: Map<number, Brand>
  private readonly modelsById: Map<number, BrandModel>
  readonly log: ChangeLogEntry[] = []
  /** Bumped whenever the set of brands or brand models with products on sale may have changed. */
  referenceVersion = 0
  /** Bumped whenever the category tree changes (a category added through the control API). */
  categoryVersion = 0

  constructor(seed: number, productCount: number, nowMs: number) {
    this.reference = buildReferenceData()
    this.brandsById = new Map(this.reference.brands.map((b) => [b.id, b]))
    this.modelsById = new Map(this.reference.brandModels.map((m) => [m.id, m]))
    this.factory = new ProductFactory(seed, this.reference)
    const products: Product[] = []
    for (let i = 0; i < productCount; i++) products.push(this.factory.create(nowMs, 0))
    products.sort(compareById)
    this.sorted = products
    for (const product of products) this.index(product)
  }

  get size(): number {
    return this.sorted.length
  }

  /** Products on sale, sorted by id (a fresh array). */
  liveProducts(): Product[] {
    return this.sorted.filter((p) => !p.removed)
  }

  all(): readonly Product[] {
    return this.sorted
  }

  brand(id: number): Brand | undefined {
    return this.brandsById.get(id)
  }

  brandModel(id: number): BrandModel | undefined {
    return this.modelsById.get(id)
  }

  category(id: number): Category | undefined {
    return this.reference.categories.find((c) => c.id === id)
  }

  /** A product on sale, or undefined for an unknown or removed one. */
  findLive(idText: string): Product | undefined {
    const product = this.byId.get(idText)
    return product && !product.removed ? product : undefined
  }

  findAny(idText: string): Product | undefined {
    return this.byId.get(idText)
  }

  findLiveBySku(sku: string): Product | undefined {
    const product = this.bySku.get(sku)
    return product && !product.removed ? product : undefined
  }

  /** Products on sale matching the filters, with id above `afterId`, by id ascending. */
  listPage(afterId: bigint | null, limit: number, filters: ListFilters): ProductPage {
    const products: Product[] = []
    const category = filters.categoryId !== null ? this.category(filters.categoryId) : undefined
    if (filters.categoryId !== null && !category) return { products, hasMore: false }
    const skuNeedle = filters.skuContains?.toLowerCase() ?? null
    const qNeedle = filters.q?.toLowerCase() ?? null
    for (let i = this.firstIndexAfter(afterId); i < this.sorted.length; i++) {
      const p = this.sorted[i]
      if (p.removed) continue
      if (category && !category.subtree.has(p.categoryId)) continue
      if (filters.brandId !== null && p.brandId !== filters.brandId) continue
      if (skuNeedle !== null && !p.sku.toLowerCase().includes(skuNeedle)) continue
      if (qNeedle !== null && !p.searchText.includes(qNeedle)) continue
      if (filters.isNew !== null && p.isNew !== filters.isNew) continue
      if (filters.inStock !== null && hasStock(p) !== filters.inStock) continue
      if (products.length === limit) return { products, hasMore: true }
      products.push(p)
    }
    return { products, hasMore: false }
  }

  /** The full export: every product on sale with id above `afterId`. */
  exportPage(afterId: bigint | null, limit: number): ProductPage {
    const products: Product[] = []
    for (let i = this.firstIndexAfter(afterId); i < this.sorted.length; i++) {
      const p = this.sorted[i]
      if (p.removed) continue
      if (products.length === limit) return { products, hasMore: true }
      products.push(p)
    }
    return { products, hasMore: false }
  }

  /** Products changed after log position `afterSeq`, each once at its latest change, older first. */
  changesPage(afterSeq: number, limit: number): ChangesPage {
    const entries: ChangeLogEntry[] = []
    let position = Math.min(afterSeq, this.log.length)
    while (position < this.log.length && entries.length < limit) {
      const entry = this.log[position++]
      if (entry.product.lastSeq === entry.seq) entries.push(entry)
    }
    // Skip entries superseded by later changes of the same product.
    while (position < this.log.length && this.log[position].product.lastSeq !== this.log[position].seq) position++
    return { entries, nextSeq: position, hasMore: position < this.log.length }
  }

  /** Kinds of change a product went through after `afterSeq`. */
  changedSince(product: Product, afterSeq: number): ChangeKind[] {
    const kinds = new Set<ChangeKind>()
    for (let i = product.changes.length - 1; i >= 0 && product.changes[i].seq > afterSeq; i--) {
      for (const kind of product.changes[i].kinds) kinds.add(kind)
    }
    return [...kinds]
  }

  /** Records a change of `product` in the log (the product is already modified). */
  recordChange(product: Product, kinds: ChangeKind[], nowMs: number): void {
    const seq = this.log.length + 1
    this.log.push({ seq, product, kinds })
    product.lastSeq = seq
    product.changes.push({ seq, kinds })
    product.syncVersion++
    product.updatedAtMs = nowMs
    if (kinds.includes("status")) this.referenceVersion++
  }

  /** Adds a category under `parentId` (null: a new top level) and returns it. */
  addCategory(nameUk: string, nameRu: string, parentId: number | null): Category {
    const parent = parentId === null ? undefined : this.category(parentId)
    if (parentId !== null && !parent) throw new RangeError(`unknown parent category ${parentId}`)
    const id = Math.max(0, ...this.reference.categories.map((c) => c.id)) + 1
    const slug = `${parent ? parent.slug + "-" : ""}${slugify(nameUk) || "category"}-${id}`
    const category: Category = { id, parentId, nameUk, nameRu, slug, subtree: new Set([id]) }
    this.reference.categories.push(category)
    for (let up = parent; up; up = up.parentId === null ? undefined : this.category(up.parentId)) up.subtree.add(id)
    this.categoryVersion++
    return category
  }

  /** Moves a product into another category; recorded as a description change (the card's details). */
  moveToCategory(product: Product, categoryId: number, nowMs: number): void {
    if (!this.category(categoryId)) throw new RangeError(`unknown category ${categoryId}`)
    product.categoryId = categoryId
    this.recordChange(product, ["description"], nowMs)
  }

  /** Creates a new product, records it in the log and returns it. */
  addProduct(nowMs: number): Product {
    const seq = this.log.length + 1
    const product = this.factory.create(nowMs, seq)
    product.isNew = true
    this.log.push({ seq, product, kinds: [] })
    const at = this.firstIndexAfter(product.id)
    this.sorted.splice(at, 0, product)
    this.index(product)
    this.referenceVersion++
    return product
  }

  /** Brands with at least one product on sale. */
  brandsOnSale(): Brand[] {
    const ids = new Set<number>()
    for (const p of this.sorted) if (!p.removed && p.brandId !== null) ids.add(p.brandId)
    return this.reference.brands.filter((b) => ids.has(b.id))
  }

  brandModelsOnSale(): BrandModel[] {
    const ids = new Set<number>()
    for (const p of this.sorted) if (!p.removed && p.brandModelId !== null) ids.add(p.brandModelId)
    return this.reference.brandModels.filter((m) => ids.has(m.id))
  }

  private index(product: Product): void {
    this.byId.set(product.idText, product)
    this.bySku.set(product.sku, product)
  }

  /** Index of the first product with id greater than `afterId` (binary search). */
  private firstIndexAfter(afterId: bigint | null): number {
    if (afterId === null) return 0
    let low = 0
    let high = this.sorted.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (this.sorted[mid].id <= afterId) low = mid + 1
      else high = mid
    }
    return low
  }
}

export function hasStock(product: Product): boolean {
  for (const offer of product.suppliers) for (const stock of offer.sizeStock) if (stock > 0) return true
  return false
}

function compareById(a: Product, b: Product): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
