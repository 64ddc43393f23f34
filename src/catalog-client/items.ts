// Per-item validation: a card that fails validation becomes a RejectedItem, never a failed page.
// A card kept with part of it dropped (an image URL that is not http(s)) gives a warning: a
// RejectedItem of the same shape whose item still goes on.
import type { z } from "zod"
import { toCatalogId, toJsonCatalogId } from "./ids"
import { stringifyLossless } from "./json"
import { oneItemPerId } from "./duplicate-items"
import { cleanExcerpt } from "./sanitise"
import { describeIssues, droppedImagesOf, fieldName, firstIssueField, productCardSchema, type ProductCard } from "./schemas"

export interface RejectedItem {
  /** The item's id when it could be read, else null. */
  id: string | null
  /** The offending field, relative to the card ("sizes[0].price", "images[2].url", "status"), when known. */
  field?: string | null
  reason: string
  /** The raw item as JSON text (ids exact), cut to 2,000 characters. */
  raw?: string
}

export type ChangeItem = { status: "removed"; id: string } | { status: string; id: string; product: ProductCard; changed?: string[] }

export interface Validated<T> {
  items: T[]
  rejected: RejectedItem[]
  /** Parts dropped from items that were kept (their id, field and why). */
  warnings: RejectedItem[]
}

/** Statuses of change items (docs/contracts.md); any other is refused with the item's id. */
export const CHANGE_STATUSES = new Set(["active", "created", "updated", "removed"])

const RAW_LIMIT = 2000

function rawText(item: unknown): string {
  const text = stringifyLossless(item)
  return text.length > RAW_LIMIT ? text.slice(0, RAW_LIMIT) + "…" : text
}

function readableId(item: unknown): string | null {
  if (item === null || typeof item !== "object") return null
  const record = item as Record<string, unknown>
  const direct = toCatalogId(record.id)
  if (direct !== null) return direct
  const product = record.product
  if (product !== null && typeof product === "object") return toCatalogId((product as Record<string, unknown>).id)
  return null
}

function reject(item: unknown, reason: string, field: string | null = null): RejectedItem {
  return { id: readableId(item), field, reason, raw: rawText(item) }
}

/** Warnings for the images a card lost in validation (the card itself is kept). */
function imageWarnings(card: object, prefix = ""): RejectedItem[] {
  // Any validated element: only a product card has images to drop (and then a string id).
  const id = "id" in card && typeof card.id === "string" ? card.id : null
  return droppedImagesOf(card).map((d) => ({
    id,
    field: `images[${d.index}].url`,
    reason: `${prefix}images.${d.index}.url: ${d.reason}; image dropped, card kept`,
  }))
}

/** Validates each element on its own; the valid ones are returned in order. */
export function validateEach<S extends z.ZodType>(raw: unknown[], schema: S): Validated<z.output<S>> {
  const items: z.output<S>[] = []
  const rejected: RejectedItem[] = []
  const warnings: RejectedItem[] = []
  for (const item of raw) {
    const result = schema.safeParse(item)
    if (result.success) {
      items.push(result.data)
      if (result.data && typeof result.data === "object") warnings.push(...imageWarnings(result.data))
    } else rejected.push(reject(item, describeIssues(result.error), firstIssueField(result.error)))
  }
  return { items, rejected, warnings }
}

/**
 * Validates the items of a changes page: removed items need only an id, others a valid card.
 * An id given more than once keeps one item (oneItemPerId) and the others come back as warnings.
 */
export function validateChangeItems(raw: unknown[]): Validated<ChangeItem> {
  const items: ChangeItem[] = []
  const rejected: RejectedItem[] = []
  const warnings: RejectedItem[] = []
  const ID_RANGE = "expected an integer id from 1 to 9223372036854775807"
  for (const item of raw) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      rejected.push(reject(item, "change item is not an object"))
      continue
    }
    const record = item as Record<string, unknown>
    const status = record.status
    if (typeof status !== "string") {
      rejected.push(reject(item, "status: expected a string", "status"))
      continue
    }
    if (!CHANGE_STATUSES.has(status)) {
      rejected.push(reject(item, `status: unknown status "${cleanExcerpt(status, 40)}"`, "status"))
      continue
    }
    if (status === "removed") {
      const id = toJsonCatalogId(record.id)
      if (id === null) {
        rejected.push(reject(item, `id: ${typeof record.id === "string" ? "expected an integer id, got a string" : ID_RANGE}`, "id"))
      } else items.push({ status, id })
      continue
    }
    if (record.id !== undefined && toJsonCatalogId(record.id) === null) {
      rejected.push(reject(item, `id: ${typeof record.id === "string" ? "expected an integer id, got a string" : ID_RANGE}`, "id"))
      continue
    }
    const card = productCardSchema.safeParse(record.product)
    if (!card.success) {
      rejected.push(
        reject(
          item,
          describeIssues(card.error).replace(/^|; /g, (m) => m + "product."),
          firstIssueField(card.error) ?? "product"
        )
      )
      continue
    }
    const changed = Array.isArray(record.changed) ? record.changed.filter((c): c is string => typeof c === "string") : undefined
    const id = toJsonCatalogId(record.id) ?? card.data.id
    if (id !== card.data.id) {
      rejected.push(reject(item, `id ${id} differs from product.id ${card.data.id}`, fieldName(["id"])))
      continue
    }
    warnings.push(...imageWarnings(card.data, "product."))
    items.push(changed ? { status, id, product: card.data, changed } : { status, id, product: card.data })
  }
  const unique = oneItemPerId(items)
  return { items: unique.items, rejected, warnings: [...warnings, ...unique.duplicates] }
}
