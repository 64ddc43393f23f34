// Pure text of the product widget's field locks: field names and what the catalog now says.
import { compareSizes } from "../../sync/size-order"
import { formatCount, formatUah } from "./format"
import type { LockableFieldName } from "./types"

export const LOCK_FIELD_LABELS: Record<LockableFieldName, string> = {
  title: "Title",
  description: "Description",
  images: "Images",
  categories: "Categories",
  prices: "Prices",
  stock: "Stock",
}

const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
const shorten = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
// Sizes in the shop's order (XS, S, M, L, XL; numbers ascending), not the object's key order.
const perSize = (value: Record<string, unknown>, show: (v: unknown) => string) =>
  Object.entries(value)
    .sort(([a], [b]) => compareSizes(a, b))
    .map(([size, v]) => `${size || "one size"}: ${show(v)}`)
    .join(", ")

/**
 * What the line of a locked field's newer value is called: a held price is what the shop's rules
 * make of the catalog's cost, not a price of the catalog's; the other fields are the catalog's.
 */
export function heldValueLabel(field: LockableFieldName): string {
  return field === "prices" ? "The pricing rules would set now:" : "Catalog now:"
}

/** The catalog's value of a locked field, as one line (null: the catalog has not changed it since the lock). */
export function catalogValueText(field: LockableFieldName, value: unknown): string | null {
  if (value === null || value === undefined) return null
  switch (field) {
    case "title":
      return String(value)
    case "description":
      return shorten(plain(String(value))) || "(empty)"
    case "images":
    case "categories": {
      const list = value as string[]
      return `${list.length} ${field === "images" ? (list.length === 1 ? "image" : "images") : list.length === 1 ? "category" : "categories"}`
    }
    case "prices":
      return perSize(value as Record<string, unknown>, (v) => (v === null ? "no price" : formatUah(String(v))))
    case "stock":
      return perSize(value as Record<string, unknown>, (v) => (typeof v === "number" ? formatCount(v) : String(v)))
  }
}
