// Which kept removals a run's page names: a product row names its run; a size row (recorded
// without a run) belongs to the run that was running when it was kept.
import { keptByRun, keptPage, keptQuerySchema, type PendingRow } from "../kept-for-orders/route"

const run = { id: "run_2", started_at: "2026-11-28T08:00:00.000Z", finished_at: "2026-11-28T08:05:00.000Z" }

describe("kept for open orders, per run", () => {
  it("a product kept names its run", () => {
    expect(keptByRun({ run_id: "run_2", created_at: "2026-11-28T07:00:00.000Z" }, run)).toBe(true)
    expect(keptByRun({ run_id: "run_1", created_at: "2026-11-28T08:01:00.000Z" }, run)).toBe(false)
  })
  it("a size kept (no run recorded) belongs to the run that ran then", () => {
    expect(keptByRun({ run_id: null, created_at: "2026-11-28T08:01:00.000Z" }, run)).toBe(true)
    expect(keptByRun({ run_id: null, created_at: "2026-11-28T08:06:00.000Z" }, run)).toBe(false)
    expect(keptByRun({ run_id: null, created_at: "2026-11-28T07:59:59.000Z" }, run)).toBe(false)
    // A run still going takes every size kept since it started.
    expect(keptByRun({ run_id: null, created_at: "2026-11-28T09:00:00.000Z" }, { ...run, finished_at: null })).toBe(true)
  })
  it("refuses unknown query fields and an empty run id", () => {
    expect(keptQuerySchema.safeParse({ run_id: "" }).success).toBe(false)
    expect(keptQuerySchema.safeParse({ bogus: "1" }).success).toBe(false)
    expect(keptQuerySchema.safeParse({}).success).toBe(true)
  })
  it("pages the rows: 50 by default, at most 200, from an offset", () => {
    expect(keptQuerySchema.parse({})).toEqual({ limit: 50, offset: 0 })
    expect(keptQuerySchema.parse({ limit: "200", offset: "400" })).toEqual({ limit: 200, offset: 400 })
    expect(keptQuerySchema.safeParse({ limit: "201" }).success).toBe(false)
    expect(keptQuerySchema.safeParse({ limit: "0" }).success).toBe(false)
    expect(keptQuerySchema.safeParse({ offset: "-1" }).success).toBe(false)
  })

  it("counts every one kept however many, and names one page of them", () => {
    const sizes: PendingRow[] = Array.from({ length: 230 }, (_, i) => ({
      kind: "size",
      subject_id: `variant_${i}`,
      product_id: `prod_${i % 7}`,
      catalog_id: null,
      run_id: null,
      created_at: new Date(Date.parse("2026-11-28T08:04:00.000Z") - i * 1000).toISOString(),
    }))
    const none = { products: new Set<string>(), variants: new Set<string>() }
    const first = keptPage(sizes, none, null, { limit: 50, offset: 0 })
    expect(first.count).toBe(230)
    expect(first.rows.map((r) => r.subject_id)).toEqual(sizes.slice(0, 50).map((r) => r.subject_id))
    const last = keptPage(sizes, none, null, { limit: 50, offset: 200 })
    expect(last).toEqual({ rows: sizes.slice(200), count: 230, counts: { products: 0, sizes: 230 } })
    // Counted by kind, so the list can say "1 product and 1 size", never "2 sizes and products".
    const product = { ...sizes[0], kind: "product" as const, subject_id: "prod_x" }
    expect(keptPage([product, sizes[1]], none, null, { limit: 50, offset: 0 }).counts).toEqual({ products: 1, sizes: 1 })
    // Back on sale (the size claimed by a live map row): neither listed nor counted.
    expect(keptPage(sizes, { products: new Set(), variants: new Set(["variant_0", "variant_1"]) }, null, { limit: 5, offset: 0 }).count).toBe(228)
    // A run's: only those kept while it ran (sizes by time: these were kept from 08:00:11 to 08:04:00).
    expect(keptPage(sizes, none, run, { limit: 200, offset: 0 }).count).toBe(230)
    expect(keptPage(sizes, none, { ...run, finished_at: "2026-11-28T08:03:00.000Z" }, { limit: 200, offset: 0 }).count).toBe(170)
  })
})
