// Per-item validation: a card that fails validation becomes a RejectedItem, never a failed page.
import type { z } from "zod"
import { toCatalogId } from "./ids"
import { stringifyLossless } from "./json"
import { describeIssues, productCardSchema, type ProductCard } from "./schemas"

export interface RejectedItem {
  /** The item's id when it could be read, else null. */
  id: string | null
  reason: string
  /** The raw item as JSON text (ids exact), cut to 2,000 characters. */
  raw?: string
}

export type ChangeItem =
  | { status: "removed"; id: string }
  | { status: string; id: string; product: ProductCard; changed?: string[] }

export interface Validated<T> {
  items: T[]
  rejected: RejectedItem[]
}

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

function reject(item: unknown, reason: string): RejectedItem {
  return { id: readableId(item), reason, raw: rawText(item) }
}

/** Validates each element on its own; the valid ones are returned in order. */
export function validateEach<S extends z.ZodType>(raw: unknown[], schema: S): Validated<z.output<S>> {
  const items: z.output<S>[] = []
  const rejected: RejectedItem[] = []
  for (const item of raw) {
    const result = schema.safeParse(item)
    if (result.success) items.push(result.data)
    else rejected.push(reject(item, describeIssues(result.error)))
  }
  return { items, rejected }
}

/** Validates the items of a changes page: removed items need only an id, others a valid card. */
export function validateChangeItems(raw: unknown[]): Validated<ChangeItem> {
  const items: ChangeItem[] = []
  const rejected: RejectedItem[] = []
  for (const item of raw) {
    if (item === null || typeof item !== "object") {
      rejected.push(reject(item, "change item is not an object"))
      continue
    }
    const record = item as Record<string, unknown>
    const status = record.status
    if (typeof status !== "string") {
      rejected.push(reject(item, "status: expected a string"))
      continue
    }
    if (status === "removed") {
      const id = readableId(item)
      if (id === null) rejected.push(reject(item, "id: expected an integer id from 1 to 9223372036854775807"))
      else items.push({ status, id })
      continue
    }
    const card = productCardSchema.safeParse(record.product)
    if (!card.success) {
      rejected.push(reject(item, describeIssues(card.error).replace(/^|; /g, (m) => m + "product.")))
      continue
    }
    const changed = Array.isArray(record.changed)
      ? record.changed.filter((c): c is string => typeof c === "string")
      : undefined
    const id = toCatalogId(record.id) ?? card.data.id
    if (id !== card.data.id) {
      rejected.push(reject(item, `id ${id} differs from product.id ${card.data.id}`))
      continue
    }
    items.push(changed ? { status, id, product: card.data, changed } : { status, id, product: card.data })
  }
  return { items, rejected }
}
