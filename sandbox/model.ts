// The sandbox's internal catalog model: what suppliers hold, before any pricing is applied.
// Money is held as integer kopiykas (exact); all arithmetic on it goes through decimal.js.

export type ChangeKind = "price" | "stock" | "sizes" | "photos" | "description" | "status"

export interface SupplierOffer {
  /** The supplier's price for the product (kopiykas), or null when it has none. */
  baseCost: number | null
  /** Per size (aligned with Product.sizes, or one slot for products without sizes): price in kopiykas or null. */
  sizeCosts: (number | null)[]
  /** Per size: pieces in stock, or -1 when the supplier does not carry that size. */
  sizeStock: number[]
}

export interface ProductChange {
  seq: number
  kinds: ChangeKind[]
}

export interface Product {
  id: bigint
  idText: string
  /** Creation order; also the stem of the SKU. */
  serial: number
  sku: string
  typeIndex: number
  audienceIndex: number
  categoryId: number
  brandId: number | null
  brandModelId: number | null
  colorIndex: number
  materialIndex: number
  seasonIndex: number
  originCountry: string | null
  hasSizes: boolean
  /** Size labels; empty for products without sizes (then the offers have one slot). */
  sizes: string[]
  suppliers: SupplierOffer[]
  /** Image tokens; the first is the main image. */
  images: string[]
  /** Bumped by description changes; null when the product has no description at all. */
  descriptionVariant: number | null
  weightGrams: number | null
  dimensionsMm: [number, number, number] | null
  isNew: boolean
  removed: boolean
  syncVersion: number
  updatedAtMs: number
  /** Change-log position at which the product was added (0 for the initial catalog). */
  createdSeq: number
  /** Change-log position of the product's latest change (0 if never changed). */
  lastSeq: number
  changes: ProductChange[]
  /** Lower-cased names and SKU, for `q`. */
  searchText: string
}

export interface Category {
  id: number
  parentId: number | null
  nameUk: string
  nameRu: string
  slug: string
  /** The category and all its descendants, for the `category_id` filter. */
  subtree: Set<number>
}

export interface Brand {
  id: number
  name: string
  slug: string
}

export interface BrandModel {
  id: number
  brandId: number
  name: string
  slug: string
  /** The product group (clothing, shoes, accessories) the model belongs to. */
  group: string
}

export interface ChangeLogEntry {
  seq: number
  product: Product
  kinds: ChangeKind[]
}
