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

type ItemsOut = { items: ChangeItem[]; rejected: RejectedItem[]; warnings: RejectedItem[] }

const ID_RANGE = "expected an integer id from 1 to 9223372036854775807"

/** One change item, validated into `out` (an item, or a rejection). */
function validateChangeItem(item: unknown, out: ItemsOut): void {
  const { items, rejected, warnings } = out
  if (item === null || typeof item !== "object" || Array.isArray(item)) {
    rejected.push(reject(item, "change item is not an object"))
    return
  }
  const record = item as Record<string, unknown>
  const status = record.status
  if (typeof status !== "string") {
    rejected.push(reject(item, "status: expected a string", "status"))
    return
  }
  if (!CHANGE_STATUSES.has(status)) {
    rejected.push(reject(item, `status: unknown status "${cleanExcerpt(status, 40)}"`, "status"))
    return
  }
  if (status === "removed") {
    const id = toJsonCatalogId(record.id)
    if (id === null) {
      rejected.push(reject(item, `id: ${typeof record.id === "string" ? "expected an integer id, got a string" : ID_RANGE}`, "id"))
    } else items.push({ status, id })
    return
  }
  if (record.id !== undefined && toJsonCatalogId(record.id) === null) {
    rejected.push(reject(item, `id: ${typeof record.id === "string" ? "expected an integer id, got a string" : ID_RANGE}`, "id"))
    return
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
    return
  }
  const changed = Array.isArray(record.changed) ? record.changed.filter((c): c is string => typeof c === "string") : undefined
  const id = toJsonCatalogId(record.id) ?? card.data.id
  if (id !== card.data.id) {
    rejected.push(reject(item, `id ${id} differs from product.id ${card.data.id}`, fieldName(["id"])))
    return
  }
  warnings.push(...imageWarnings(card.data, "product."))
  items.push(changed ? { status, id, product: card.data, changed } : { status, id, product: card.data })
}

function validatedItems(out: ItemsOut): Validated<ChangeItem> {
  const unique = oneItemPerId(out.items)
  return { items: unique.items, rejected: out.rejected, warnings: [...out.warnings, ...unique.duplicates] }
}

/**
 * Validates the items of a changes page: removed items need only an id, others a valid card.
 * An id given more than once keeps one item (oneItemPerId) and the others come back as warnings.
 */
export function validateChangeItems(raw: unknown[]): Validated<ChangeItem> {
  const out: ItemsOut = { items: [], rejected: [], warnings: [] }
  for (const item of raw) validateChangeItem(item, out)
  return validatedItems(out)
}

/** Items validated between two turns of the event loop. */
export const VALIDATE_SLICE_ITEMS = 20

/**
 * The same as validateChangeItems, in slices of `sliceItems` items with `turn()` awaited between
 * them: a page of 200 cards validated at once held the process's other requests (a shop's, when
 * the sync runs in the server) behind it for tens of milliseconds, more on a busy machine.
 */
export async function validateChangeItemsInSlices(
  raw: unknown[],
  turn: () => Promise<void>,
  sliceItems = VALIDATE_SLICE_ITEMS
): Promise<Validated<ChangeItem>> {
  const out: ItemsOut = { items: [], rejected: [], warnings: [] }
  for (let i = 0; i < raw.length; i++) {
    if (i > 0 && i % sliceItems === 0) await turn()
    validateChangeItem(raw[i], out)
  }
  return validatedItems(out)
}
