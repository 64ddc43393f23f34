// When a run asks the catalog for its reference lists (categories, brands, brand models).
// Suppliers update about once an hour, so an idle poll must not revalidate them every time:
// a full pass refreshes them as always, otherwise they are asked again only once they are
// older than the interval, or at once when a page carries a category or brand the stored
// lists do not know (so a new category is never missing from a product). Pure: no I/O.

/** Default age after which the lists are revalidated (CATALOG_SYNC_REFERENCE_MAX_AGE_MS). */
export const REFERENCE_MAX_AGE_MS = 3_600_000

export type ReferenceFetchReason = "full_pass" | "never_fetched" | "stale" | "unknown_ids"

export interface ReferenceFetchInput {
  /** When the lists were last fetched whole (ISO string or ms), or null/undefined if never. */
  lastFetchedAt: string | number | null | undefined
  now: number
  maxAgeMs: number
  /** Whether the run works in a full pass (first sync, full run, restart without cursor). */
  fullPass: boolean
  /** Whether this run already fetched them: once per run is as fresh as they get. */
  fetchedThisRun: boolean
  /** Category or brand ids on the page that the stored reference data does not know. */
  unknownIds?: readonly string[]
}

/** Why the lists must be fetched now, or null when the stored ones are fresh enough. */
export function referenceFetchDue(input: ReferenceFetchInput): ReferenceFetchReason | null {
  if (input.fetchedThisRun) return null
  if (input.fullPass) return "full_pass"
  const last = typeof input.lastFetchedAt === "string" ? Date.parse(input.lastFetchedAt) : input.lastFetchedAt
  if (last === null || last === undefined || !Number.isFinite(last)) return "never_fetched"
  // A clock that went backwards makes the age negative: treat the lists as stale, not fresh forever.
  const age = input.now - last
  if (age < 0 || age >= input.maxAgeMs) return "stale"
  if (input.unknownIds?.length) return "unknown_ids"
  return null
}

interface PageCard {
  status: string
  product?: { category_id?: string | null; brand?: { id: string } | null }
}

/** The category and brand ids of a page's cards that `known` does not hold (each once). */
export function unknownReferenceIds(
  items: readonly PageCard[],
  known: { categoryIdByCatalogId: ReadonlyMap<string, string>; brandIdByCatalogId: ReadonlyMap<string, string> }
): string[] {
  const unknown = new Set<string>()
  for (const item of items) {
    const card = item.status === "removed" ? undefined : item.product
    if (!card) continue
    if (card.category_id && !known.categoryIdByCatalogId.has(card.category_id)) unknown.add(`category:${card.category_id}`)
    if (card.brand?.id && !known.brandIdByCatalogId.has(card.brand.id)) unknown.add(`brand:${card.brand.id}`)
  }
  return [...unknown]
}
