// Random (but seeded) changes to the catalog, of every kind the spec names, recorded in the change log.

import type { Catalog } from "./catalog"
import type { ChangeKind, Product } from "./model"
import { imageToken } from "./generate"
import { Prng } from "./prng"
import { PRODUCT_TYPES, SIZE_SETS } from "./vocabulary"

export type MutationKind = "price" | "stock" | "sizes" | "photos" | "description" | "remove" | "add"
export const MUTATION_KINDS: MutationKind[] = ["price", "stock", "sizes", "photos", "description", "remove", "add"]

/** How often each kind is drawn when no kinds are given: stock and price changes dominate, as in real feeds. */
const WEIGHTS: Record<MutationKind, number> = { stock: 40, price: 25, sizes: 8, photos: 8, description: 8, remove: 5, add: 6 }

export interface MutationResult {
  changed: bigint[]
  removed: bigint[]
  added: bigint[]
}

export class Mutator {
  private readonly rng: Prng

  constructor(
    private readonly catalog: Catalog,
    seed: number,
    private readonly now: () => number,
  ) {
    this.rng = new Prng(seed * 104729 + 3)
  }

  /** Applies `count` random mutations of the given kinds (all kinds by default), optionally only to `ids`. */
  mutate(count: number, kinds: MutationKind[] = MUTATION_KINDS, ids: string[] | null = null): MutationResult {
    const result: MutationResult = { changed: [], removed: [], added: [] }
    const targets = ids?.map((id) => this.catalog.findLive(id)).filter((p): p is Product => p !== undefined) ?? null
    for (let n = 0; n < count; n++) {
      const kind = this.drawKind(kinds)
      if (kind === "add") {
        result.added.push(this.catalog.addProduct(this.now()).id)
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
      return product
    }
    return undefined
  }

  /** Changes the product in place; returns the kinds actually changed. */
  private apply(kind: Exclude<MutationKind, "add" | "remove">, product: Product): ChangeKind[] {
    switch (kind) {
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
    const factor = 1 + (this.rng.chance(0.5) ? 1 : -1) * this.rng.int(1, 15) / 100
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
      product.suppliers.forEach((offer, index) => {
        const carries = index === 0 || this.rng.chance(0.5)
        offer.sizeCosts.splice(slot, 0, carries ? offer.baseCost : null)
        offer.sizeStock.splice(slot, 0, carries ? this.rng.int(0, 10) : -1)
      })
      return true
    }
    if (product.sizes.length <= 1) return false
    const slot = this.rng.int(0, product.sizes.length - 1)
    product.sizes.splice(slot, 1)
    for (const offer of product.suppliers) {
      offer.sizeCosts.splice(slot, 1)
      offer.sizeStock.splice(slot, 1)
    }
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
