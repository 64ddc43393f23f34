// Pure: what a page does with products whose write failed even when retried one by one.
// A product that cannot be written (say its SKU is taken by another product) must not stall
// the sync: it becomes a rejected item of the run and the page commits without it. But when
// nothing could be written and nothing blames the data (the database is down, the process is
// stopping), the page fails as a whole and is replayed later, so no product is skipped for a
// cause that is not its own.
import type { RejectedItem } from "../catalog-client/items"

/** Medusa error types (MedusaError.Types) that blame the data written, not the system. */
const DATA_ERROR_TYPES = new Set(["invalid_data", "duplicate_error", "invalid_argument", "not_found", "not_allowed", "conflict"])

export function isDataError(error: unknown): boolean {
  const type = (error as { type?: unknown } | null)?.type
  return typeof type === "string" && DATA_ERROR_TYPES.has(type)
}

export function failureMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message
  const text = typeof message === "string" && message ? message : String(error)
  return text.length > 500 ? `${text.slice(0, 500)}…` : text
}

export interface ProductFailure {
  catalogId: string
  error: unknown
}

export type FailureVerdict = { rejected: RejectedItem[] } | { fatal: unknown }

/**
 * @param failures products whose write failed alone
 * @param writtenCount products of the page written so far (proof the system works)
 */
export function judgeFailures(failures: ProductFailure[], writtenCount: number): FailureVerdict {
  if (!failures.length) return { rejected: [] }
  const systemic = writtenCount === 0 && failures.every((f) => !isDataError(f.error))
  if (systemic) return { fatal: failures[0].error }
  return { rejected: failures.map((f) => ({ id: f.catalogId, reason: `write failed: ${failureMessage(f.error)}` })) }
}
