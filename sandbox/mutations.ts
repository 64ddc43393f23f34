// Random (but seeded) changes to the catalog, of every kind the spec names, recorded in the change log.

import type { Catalog } from "./catalog"
import type { ChangeKind, Product } from "./model"
import { imageToken } from "./generate"
import { Prng } from "./prng"
import { PRODUCT_TYPES, SIZE_SETS } from "./vocabulary"

export type MutationKind =
  "price" | "stock" | "sizes" | "photos" | "description" | "remove" | "add" | "size_leave" | "size_return" | "restore" | "price_swing" | "photo_order"

/** The kinds drawn when none are given (unchanged since the first version, so seeded sequences stay the same). */
export const DEFAULT_MUTATION_KINDS: MutationKind[] = ["price", "stock", "sizes", "photos", "description", "remove", "add"]

/**
 * Every kind: the defaults plus the churn of a real clothing catalog over time — a size that sells
 * out and leaves (`size_leave`), a size that left coming back (`size_return`), a product taken off
 * sale coming back on sale (`restore`), big price moves of one supplier or one size (`price_swing`)
 * and the same photos in another order (`photo_order`).
 */
export const MUTATION_KINDS: MutationKind[] = [...DEFAULT_MUTATION_KINDS, "size_leave", "size_return", "restore", "price_swing", "photo_order"]

/** How often each kind is drawn: stock and price changes dominate, as in real feeds. */
const WEIGHTS: Record<MutationKind, number> = {
  stock: 40,
  price: 25,
  sizes: 8,
  photos: 8,
  description: 8,
  remove: 5,
  add: 6,
  size_leave: 8,
  size_return: 8,
  restore: 4,
  price_swing: 8,
  photo_order: 6,
}

/** A size that left a product: its per-supplier costs, so it comes back at the price it had. */
interface DepartedSize {
  size: string
  costs: (number | null)[]
}

export interface MutationResult {
  changed: bigint[]
  removed: bigint[]
  added: bigint[]
}

export class Mutator {
  private readonly rng: Prng
  /** Sizes that left each product (by id text), newest last, for `size_return`. */
  private readonly departed = new Map<string, DepartedSize[]>()

  constructor(
    private readonly catalog: Catalog,
    seed: number,
    private readonly now: () => number
  ) {
    this.rng = new Prng(seed * 104729 + 3)
  }

  /** Applies `count` random mutations of the given kinds (DEFAULT_MUTATION_KINDS when none), optionally only to `ids`. */
  mutate(count: number, kinds: MutationKind[] = DEFAULT_MUTATION_KINDS, ids: string[] | null = null): MutationResult {
    const result: MutationResult = { changed: [], removed: [], added: [] }
    const targets = ids?.map((id) => this.catalog.findLive(id)).filter((p): p is Product => p !== undefined) ?? null
    for (let n = 0; n < count; n++) {
      const kind = this.drawKind(kinds)
      if (kind === "add") {
        result.added.push(this.catalog.addProduct(this.now()).id)
        continue
      }
      if (kind === "restore") {
        // Back on sale: reported as changed (the feed serves it again, as "updated").
        const product = this.pickRemoved(ids)
        if (!product) continue
        product.removed = false
        this.catalog.recordChange(product, ["status"], this.now())
        result.removed = result.removed.filter((id) => id !== product.id)
        if (!result.changed.includes(product.id)) result.changed.push(product.id)
        continue
      }
      const product = this.pickProduct(kind, targets)
      if (!product) continue
      if (kind === "remove") {
        this.remove(product)
        result.removed.push(product.id)
        result.changed = result.changed.filter((id) => id !== product.id)
        if (targets) targets.splice(targets.indexOf(product), 1)
        continue
      }
      const applied = this.apply(kind, product)
      if (applied.length === 0) continue
      this.catalog.recordChange(product, applied, this.now())
      if (!result.changed.includes(product.id)) result.changed.push(product.id)
    }
    return result
  }

  /** Takes the given products off sale. Unknown or already removed ids are skipped. */
  removeIds(ids: string[]): bigint[] {
    const removed: bigint[] = []
    for (const id of ids) {
      const product = this.catalog.findLive(id)
      if (!product) continue
      this.remove(product)
      removed.push(product.id)
    }
    return removed
  }

  /**
   * Sets every supplier's costs of the given products to `percent` % of what they are (a
   * supplier's bad hour: prices at a tenth is 10). Unknown or removed ids are skipped.
   */
  scaleCosts(ids: string[], percent: number): bigint[] {
    const scale = (cost: number | null) => (cost === null ? null : Math.max(100, Math.round((cost * percent) / 100)))
    const changed: bigint[] = []
    for (const id of ids) {
      const product = this.catalog.findLive(id)
      if (!product) continue
      for (const offer of product.suppliers) {
        offer.baseCost = scale(offer.baseCost)
        offer.sizeCosts = offer.sizeCosts.map(scale)
      }
      this.catalog.recordChange(product, ["price"], this.now())
      changed.push(product.id)
    }
    return changed
  }

  private remove(product: Product): void {
    product.removed = true
    this.catalog.recordChange(product, ["status"], this.now())
  }

  private drawKind(kinds: MutationKind[]): MutationKind {
    const total = kinds.reduce((sum, k) => sum + WEIGHTS[k], 0)
    let roll = this.rng.next() * total
    for (const kind of kinds) {
      roll -= WEIGHTS[kind]
      if (roll < 0) return kind
    }
    return kinds[kinds.length - 1]
  }

  private pickProduct(kind: MutationKind, targets: Product[] | null): Product | undefined {
    const all = this.catalog.all()
    for (let attempt = 0; attempt < 50; attempt++) {
      const product = targets ? targets[this.rng.int(0, targets.length - 1)] : all[this.rng.int(0, all.length - 1)]
      if (!product || product.removed) continue
      if (kind === "sizes" && !product.hasSizes) continue
      if (kind === "size_leave" && product.sizes.length < 2) continue
      if (kind === "size_return" && !this.returnable(product).length) continue
      if (kind === "photo_order" && product.images.length < 2) continue
      return product
    }
    if (kind === "size_return") {
      // Few products have a departed size: pick among them directly.
      const candidates = (targets ?? all).filter((p) => !p.removed && this.returnable(p).length)
      return candidates.length ? candidates[this.rng.int(0, candidates.length - 1)] : undefined
    }
    return undefined
  }

  /** Departed sizes the product does not have now. */
  private returnable(product: Product): DepartedSize[] {
    return (this.departed.get(product.idText) ?? []).filter((d) => !product.sizes.includes(d.size))
  }

  /** A product taken off sale (one of `ids` when given), to bring back. */
  private pickRemoved(ids: string[] | null): Product | undefined {
    const pool = ids ? ids.map((id) => this.catalog.findAny(id)).filter((p): p is Product => p !== undefined) : this.catalog.all()
    const removed = pool.filter((p) => p.removed)
    return removed.length ? removed[this.rng.int(0, removed.length - 1)] : undefined
  }

  /**
   * Sets a product's sizes (in the given order): kept sizes keep their offers, a size that left
   * earlier comes back at its old costs, a new one gets the product's base costs; stock is drawn.
   * For tests that need an exact sequence of sizes; recorded as one change.
   */
  setSizes(idText: string, sizes: string[]): Product {
    const product = this.catalog.findLive(idText)
    if (!product) throw new Error(`no product ${idText} on sale`)
    if (!product.hasSizes || sizes.length === 0) throw new Error("setSizes needs a product with sizes and at least one size")
    for (const size of [...product.sizes]) if (!sizes.includes(size)) this.leaveSize(product, product.sizes.indexOf(size))
    sizes.forEach((size, slot) => {
      const at = product.sizes.indexOf(size)
      if (at === slot) return
      if (at >= 0) {
        // Move an existing size into place.
        product.sizes.splice(at, 1)
        product.sizes.splice(slot, 0, size)
        for (const offer of product.suppliers) {
          const [cost] = offer.sizeCosts.splice(at, 1)
          const [stock] = offer.sizeStock.splice(at, 1)
          offer.sizeCosts.splice(slot, 0, cost)
          offer.sizeStock.splice(slot, 0, stock)
        }
        return
      }
      this.insertSize(product, size, slot)
    })
    this.catalog.recordChange(product, ["sizes", "stock", "price"], this.now())
    return product
  }

  /** Removes the size in `slot`, remembering its costs for a later return. */
  private leaveSize(product: Product, slot: number): void {
    const [size] = product.sizes.splice(slot, 1)
    const costs: (number | null)[] = []
    for (const offer of product.suppliers) {
      costs.push(offer.sizeCosts.splice(slot, 1)[0] ?? null)
      offer.sizeStock.splice(slot, 1)
    }
    const list = this.departed.get(product.idText) ?? []
    this.departed.set(product.idText, [...list.filter((d) => d.size !== size), { size, costs }])
  }

  /** Inserts `size` at `slot` (a departed size at its old costs), with fresh stock for every supplier that carries it. */
  private insertSize(product: Product, size: string, slot: number): void {
    const list = this.departed.get(product.idText) ?? []
    const before = list.find((d) => d.size === size)
    this.departed.set(
      product.idText,
      list.filter((d) => d.size !== size)
    )
    product.sizes.splice(slot, 0, size)
    product.suppliers.forEach((offer, index) => {
      const cost = before ? (before.costs[index] ?? null) : offer.baseCost
      const carries = index === 0 || cost !== null
      offer.sizeCosts.splice(slot, 0, carries ? (cost ?? offer.baseCost) : null)
      offer.sizeStock.splice(slot, 0, carries ? this.rng.int(1, 10) : -1)
    })
  }

  /** The slot a size takes to keep the size set's order. */
  private slotFor(product: Product, size: string): number {
    const set = SIZE_SETS[PRODUCT_TYPES[product.typeIndex].sizeKind]
    let slot = 0
    while (slot < product.sizes.length && set.indexOf(product.sizes[slot]) < set.indexOf(size)) slot++
    return slot
  }

  /** Changes the product in place; returns the kinds actually changed. */
  private apply(kind: Exclude<MutationKind, "add" | "remove" | "restore">, product: Product): ChangeKind[] {
    switch (kind) {
      case "size_leave": {
        if (product.sizes.length < 2) return []
        this.leaveSize(product, this.rng.int(0, product.sizes.length - 1))
        return ["sizes", "stock", "price"]
      }
      case "size_return": {
        const list = this.returnable(product)
        if (!list.length) return []
        const { size } = list[this.rng.int(0, list.length - 1)]
        this.insertSize(product, size, this.slotFor(product, size))
        return ["sizes", "stock", "price"]
      }
      case "price_swing":
        return this.swingPrice(product) ? ["price"] : []
      case "photo_order":
        return this.reorderPhotos(product) ? ["photos"] : []
      case "price":
        return this.changePrice(product) ? ["price"] : []
      case "stock":
        return this.changeStock(product) ? ["stock"] : []
      case "sizes":
        return this.changeSizes(product) ? ["sizes", "stock", "price"] : []
      case "photos":
        this.changePhotos(product)
        return ["photos"]
      case "description":
        product.descriptionVariant = ((product.descriptionVariant ?? -1) + 1) % 1000
        return ["description"]
    }
  }

  private changePrice(product: Product): boolean {
    const offer = this.rng.pick(product.suppliers)
    if (offer.baseCost === null) {
      // A supplier without a price gets one.
      offer.baseCost = this.rng.int(200, 3000) * 100 + this.rng.int(0, 99)
      offer.sizeCosts = offer.sizeCosts.map((_, slot) => (offer.sizeStock[slot] >= 0 ? offer.baseCost : null))
      return true
    }
    const factor = 1 + ((this.rng.chance(0.5) ? 1 : -1) * this.rng.int(1, 15)) / 100
    offer.baseCost = Math.max(100, Math.round(offer.baseCost * factor))
    offer.sizeCosts = offer.sizeCosts.map((cost) => (cost === null ? null : Math.max(100, Math.round(cost * factor))))
    return true
  }

  private changeStock(product: Product): boolean {
    const offer = this.rng.pick(product.suppliers)
    const carried = offer.sizeStock.map((stock, slot) => (stock >= 0 ? slot : -1)).filter((slot) => slot >= 0)
    if (carried.length === 0) return false
    const slot = this.rng.pick(carried)
    const before = offer.sizeStock[slot]
    let after = this.rng.chance(0.25) ? 0 : this.rng.int(1, 15)
    if (after === before) after = before === 0 ? 1 : 0
    offer.sizeStock[slot] = after
    return true
  }

  private changeSizes(product: Product): boolean {
    const set = SIZE_SETS[PRODUCT_TYPES[product.typeIndex].sizeKind]
    const missing = set.filter((size) => !product.sizes.includes(size))
    const addSize = missing.length > 0 && (product.sizes.length <= 1 || this.rng.chance(0.5))
    if (addSize) {
      const size = this.rng.pick(missing)
      // Keep the sizes in the set's order.
      let slot = 0
      while (slot < product.sizes.length && set.indexOf(product.sizes[slot]) < set.indexOf(size)) slot++
      product.sizes.splice(slot, 0, size)
      const departed = this.departed.get(product.idText)
      if (departed)
        this.departed.set(
          product.idText,
          departed.filter((d) => d.size !== size)
        )
      product.suppliers.forEach((offer, index) => {
        const carries = index === 0 || this.rng.chance(0.5)
        offer.sizeCosts.splice(slot, 0, carries ? offer.baseCost : null)
        offer.sizeStock.splice(slot, 0, carries ? this.rng.int(0, 10) : -1)
      })
      return true
    }
    if (product.sizes.length <= 1) return false
    this.leaveSize(product, this.rng.int(0, product.sizes.length - 1))
    return true
  }

  /**
   * A big move: one supplier's costs change by 20 to 60 % either way, or one size's costs at
   * every supplier do (then sizes of one product differ in price).
   */
  private swingPrice(product: Product): boolean {
    const percent = this.rng.int(20, 60) * (this.rng.chance(0.5) ? 1 : -1)
    const swing = (cost: number | null) => (cost === null ? null : Math.max(100, Math.round((cost * (100 + percent)) / 100)))
    if (product.sizes.length > 1 && this.rng.chance(0.5)) {
      const slot = this.rng.int(0, product.sizes.length - 1)
      let moved = false
      for (const offer of product.suppliers) {
        const before = offer.sizeCosts[slot]
        offer.sizeCosts[slot] = swing(before)
        moved ||= before !== offer.sizeCosts[slot]
      }
      return moved
    }
    const offer = this.rng.pick(product.suppliers)
    if (offer.baseCost === null) return false
    offer.baseCost = swing(offer.baseCost)
    offer.sizeCosts = offer.sizeCosts.map(swing)
    return true
  }

  /** The same photos in another order (the main photo may change). */
  private reorderPhotos(product: Product): boolean {
    if (product.images.length < 2) return false
    const before = product.images.join(",")
    for (let attempt = 0; attempt < 5 && product.images.join(",") === before; attempt++) {
      for (let i = product.images.length - 1; i > 0; i--) {
        const j = this.rng.int(0, i)
        ;[product.images[i], product.images[j]] = [product.images[j], product.images[i]]
      }
    }
    if (product.images.join(",") === before) product.images.push(product.images.shift()!)
    return true
  }

  private changePhotos(product: Product): void {
    const roll = this.rng.next()
    if (roll < 0.4 && product.images.length < 8) product.images.push(imageToken(this.rng))
    else if (roll < 0.7 && product.images.length > 1) product.images.splice(this.rng.int(0, product.images.length - 1), 1)
    else if (product.images.length > 1) {
      // A new main photo.
      const [main] = product.images.splice(this.rng.int(1, product.images.length - 1), 1)
      product.images.unshift(main)
    } else product.images[0] = imageToken(this.rng)
  }
}
