// "An admin edit of a managed field locks it": a field whose value in the shop differs from
// what the sync last wrote was changed by someone else. Pure: the caller reads both.
import Decimal from "decimal.js"
import { LOCKABLE_FIELDS, type LockableField, type PlannedFieldValues } from "./fields"

/**
 * Set on the sync's own product.updated events (`{ id, catalog_sync_write: true }`): the
 * auto-lock subscriber ignores them, since its record of what the sync wrote is stored after
 * the write. Any other product.updated (the dashboard, the admin API) may be an admin edit.
 */
export const SYNC_WRITE_MARK = "catalog_sync_write"

/**
 * Fields never auto-locked: stock levels move with every order and reservation, so a
 * difference there is not an admin's decision about the catalog's value.
 */
export const NOT_AUTO_LOCKED: readonly LockableField[] = ["stock"]

const sameText = (a: string | null | undefined, b: string | null | undefined) => (a ?? "") === (b ?? "")

function sameAmount(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null
  try {
    return new Decimal(a).eq(b)
  } catch {
    return a === b
  }
}

function sameField(field: LockableField, written: PlannedFieldValues, current: PlannedFieldValues): boolean {
  switch (field) {
    case "title":
      return sameText(written.title, current.title)
    case "description":
      return sameText(written.description, current.description)
    case "images": // order matters: the first image is the thumbnail
      return JSON.stringify(written.images ?? []) === JSON.stringify(current.images ?? [])
    case "categories": {
      const a = new Set(written.categories ?? [])
      const b = new Set(current.categories ?? [])
      return a.size === b.size && [...a].every((id) => b.has(id))
    }
    case "prices": {
      // Sizes the shop no longer has (or has newly) are identity changes, not edits of a price.
      const w = written.prices ?? {}
      const c = current.prices ?? {}
      return Object.keys(w).every((size) => !(size in c) || sameAmount(w[size], c[size]))
    }
    case "stock": {
      const w = written.stock ?? {}
      const c = current.stock ?? {}
      return Object.keys(w).every((size) => !(size in c) || w[size] === c[size])
    }
  }
}

/**
 * The managed fields an admin changed since the sync last wrote them: only fields the sync
 * wrote (present in lastWritten) and the shop still reports (present in current), not
 * already locked, and not in NOT_AUTO_LOCKED.
 */
export function editedByAdmin(lastWritten: PlannedFieldValues, current: PlannedFieldValues, alreadyLocked: readonly LockableField[] = []): LockableField[] {
  return LOCKABLE_FIELDS.filter(
    (f) =>
      !NOT_AUTO_LOCKED.includes(f) &&
      !alreadyLocked.includes(f) &&
      lastWritten[f] !== undefined &&
      current[f] !== undefined &&
      !sameField(f, lastWritten, current)
  )
}
