// Which fields the sync may write for one product: a shop-wide default and per-product
// overrides. A locked field is never written; the catalog's value for it is handed back so
// it can be recorded and shown to the admin (who unlocks to take it).
import { z } from "zod"
import { LOCKABLE_FIELDS, isPerSizeField, lockableFieldSchema, type LockableField, type PlannedFieldValues } from "./fields"

const fieldList = z
  .array(lockableFieldSchema)
  .default([])
  .transform((f) => [...new Set(f)])

/** Shop-wide: fields locked on every product unless a product unlocks them. */
export const shopLockDefaultsSchema = z.object({
  locked: fieldList,
  /** Lock a managed field when an admin edits it in the dashboard. */
  auto_lock_on_admin_edit: z.boolean().default(false),
})
export type ShopLockDefaults = z.output<typeof shopLockDefaultsSchema>

/** Per product: fields locked or unlocked on top of the shop's default. */
export const productLockOverrideSchema = z
  .object({ lock: fieldList, unlock: fieldList })
  .refine((o) => !o.lock.some((f) => o.unlock.includes(f)), "a field cannot be both locked and unlocked")
export type ProductLockOverride = z.output<typeof productLockOverrideSchema>

export const NO_OVERRIDE: ProductLockOverride = { lock: [], unlock: [] }

/** The fields locked on one product, in LOCKABLE_FIELDS order. */
export function effectiveLocks(defaults: Pick<ShopLockDefaults, "locked">, override: ProductLockOverride | null | undefined): LockableField[] {
  const o = override ?? NO_OVERRIDE
  return LOCKABLE_FIELDS.filter((f) => o.lock.includes(f) || (defaults.locked.includes(f) && !o.unlock.includes(f)))
}

/** The override that locks (or unlocks) fields, minimal against the shop's default. */
export function withFieldLock(
  defaults: Pick<ShopLockDefaults, "locked">,
  override: ProductLockOverride | null | undefined,
  fields: readonly LockableField[],
  locked: boolean
): ProductLockOverride {
  const lock = new Set((override ?? NO_OVERRIDE).lock)
  const unlock = new Set((override ?? NO_OVERRIDE).unlock)
  for (const f of fields) {
    lock.delete(f)
    unlock.delete(f)
    const byDefault = defaults.locked.includes(f)
    if (locked && !byDefault) lock.add(f)
    if (!locked && byDefault) unlock.add(f)
  }
  return { lock: LOCKABLE_FIELDS.filter((f) => lock.has(f)), unlock: LOCKABLE_FIELDS.filter((f) => unlock.has(f)) }
}

export interface LockedWrite {
  /** What the sync writes: the planned values minus locked fields. */
  write: PlannedFieldValues
  /** The catalog's values for locked fields, to record for the admin (not written). */
  held: PlannedFieldValues
  /** Locked fields the plan had a value for. */
  heldFields: LockableField[]
}

/**
 * Splits a planned write by the product's locks. Prices and stock are locked per existing
 * size: a size the shop does not have yet (a new variant) still gets its catalog price and
 * stock, or it would be created unpriced and unstocked.
 */
export function applyLocks(planned: PlannedFieldValues, locked: readonly LockableField[], existingSizes: ReadonlySet<string> = new Set()): LockedWrite {
  const write: PlannedFieldValues = {}
  const held: PlannedFieldValues = {}
  const heldFields: LockableField[] = []
  for (const field of LOCKABLE_FIELDS) {
    if (!(field in planned) || planned[field] === undefined) continue
    const value = planned[field]
    if (!locked.includes(field)) {
      ;(write as any)[field] = value
      continue
    }
    if (isPerSizeField(field)) {
      const perSize = value as Record<string, unknown>
      const toWrite: Record<string, unknown> = {}
      const toHold: Record<string, unknown> = {}
      for (const [size, v] of Object.entries(perSize)) (existingSizes.has(size) ? toHold : toWrite)[size] = v
      if (Object.keys(toWrite).length > 0) (write as any)[field] = toWrite
      if (Object.keys(toHold).length > 0) {
        ;(held as any)[field] = toHold
        heldFields.push(field)
      }
      continue
    }
    ;(held as any)[field] = value
    heldFields.push(field)
  }
  return { write, held, heldFields }
}
