import { REFERENCE_MAX_AGE_MS, referenceFetchDue, unknownReferenceIds } from "../reference-refresh"

const NOW = Date.parse("2026-11-23T12:00:00Z")
const base = { now: NOW, maxAgeMs: REFERENCE_MAX_AGE_MS, fullPass: false, fetchedThisRun: false }
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString()

describe("referenceFetchDue", () => {
  it("an idle poll with fresh lists asks nothing", () => {
    expect(referenceFetchDue({ ...base, lastFetchedAt: minutesAgo(10) })).toBeNull()
    expect(referenceFetchDue({ ...base, lastFetchedAt: minutesAgo(59), unknownIds: [] })).toBeNull()
  })

  it("lists at or past the interval are revalidated", () => {
    expect(referenceFetchDue({ ...base, lastFetchedAt: minutesAgo(60) })).toBe("stale")
    expect(referenceFetchDue({ ...base, lastFetchedAt: NOW - REFERENCE_MAX_AGE_MS - 1 })).toBe("stale")
    expect(referenceFetchDue({ ...base, maxAgeMs: 1000, lastFetchedAt: NOW - 999 })).toBeNull()
    expect(referenceFetchDue({ ...base, maxAgeMs: 1000, lastFetchedAt: NOW - 1000 })).toBe("stale")
  })

  it("never fetched (or an unreadable time) means fetch", () => {
    expect(referenceFetchDue({ ...base, lastFetchedAt: null })).toBe("never_fetched")
    expect(referenceFetchDue({ ...base, lastFetchedAt: undefined })).toBe("never_fetched")
    expect(referenceFetchDue({ ...base, lastFetchedAt: "not a date" })).toBe("never_fetched")
  })

  it("a time in the future (clock moved back) counts as stale", () => {
    expect(referenceFetchDue({ ...base, lastFetchedAt: NOW + 60_000 })).toBe("stale")
  })

  it("a category or brand unknown to the stored lists fetches them at once", () => {
    expect(referenceFetchDue({ ...base, lastFetchedAt: minutesAgo(1), unknownIds: ["category:77"] })).toBe("unknown_ids")
  })

  it("a full pass always fetches", () => {
    expect(referenceFetchDue({ ...base, fullPass: true, lastFetchedAt: minutesAgo(1) })).toBe("full_pass")
  })

  it("at most once per run, whatever the page carries", () => {
    expect(referenceFetchDue({ ...base, fetchedThisRun: true, fullPass: true, lastFetchedAt: null, unknownIds: ["category:1"] })).toBeNull()
  })
})

describe("unknownReferenceIds", () => {
  const known = {
    categoryIdByCatalogId: new Map([["10", "pcat_10"]]),
    brandIdByCatalogId: new Map([["5", "brand_5"]]),
  }

  it("names each unknown category and brand once; removals, known ids and missing fields are ignored", () => {
    const items = [
      { status: "updated", product: { category_id: "10", brand: { id: "5" } } },
      { status: "updated", product: { category_id: "11", brand: { id: "6" } } },
      { status: "new", product: { category_id: "11", brand: null } },
      { status: "updated", product: { category_id: null } },
      { status: "removed" },
    ]
    expect(unknownReferenceIds(items, known).sort()).toEqual(["brand:6", "category:11"])
  })

  it("a page of known ids (or an empty page) has none", () => {
    expect(unknownReferenceIds([], known)).toEqual([])
    expect(unknownReferenceIds([{ status: "updated", product: { category_id: "10", brand: { id: "5" } } }], known)).toEqual([])
  })
})
