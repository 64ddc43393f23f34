import { ANALYZE_FIRST_AT, analyzeDue, GrowthAnalyzer, tablesToAnalyze } from "../analyze-as-it-grows"

/** The created counts at which a run of `pages` pages of `perPage` new products starts an ANALYZE (each finishing at once). */
function analyzedAt(pages: number, perPage: number): number[] {
  const at: number[] = []
  let last = 0
  for (let created = perPage; created <= pages * perPage; created += perPage) {
    if (analyzeDue(created, last)) at.push((last = created))
  }
  return at
}

describe("analyzing the tables a first sync fills, as they grow", () => {
  it("analyzes each time the products the run created double, from 1,000 on", () => {
    expect(ANALYZE_FIRST_AT).toBe(1_000)
    expect(analyzedAt(250, 200)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000])
    // A changes run (a few new products a page) never reaches the first.
    expect(analyzedAt(50, 3)).toEqual([])
    // Uneven pages: the first page at or past each doubling.
    expect(analyzedAt(40, 130)).toEqual([1_040, 2_080, 4_160])
  })

  it("names Medusa's product tables, the links given and the plugin's tables, each once", () => {
    const tables = tablesToAnalyze(["product_sales_channel", "product_product_catalog_sync_catalog_brand"])
    for (const t of [
      "product",
      "product_variant",
      "price",
      "inventory_level",
      "product_sales_channel",
      "product_product_catalog_sync_catalog_brand",
      "translation",
      "mcs_product_map",
      "mcs_variant_cost",
    ]) {
      expect(tables).toContain(t)
    }
    expect(new Set(tables).size).toBe(tables.length)
  })

  function fakeDb(analyze: () => Promise<unknown>) {
    const statements: string[] = []
    const db = {
      raw: async (sql: string) => {
        statements.push(sql)
        if (sql.startsWith("select")) return { rows: [{ name: "product" }, { name: '"odd""name"' }] }
        await analyze()
        return { rows: [] }
      },
    }
    return { db: db as never, statements }
  }
  const logger = () => ({ info: jest.fn(), warn: jest.fn() })

  it("warns once and stops when the user may analyze none of the tables", async () => {
    const statements: string[] = []
    const db = { raw: async (sql: string) => (statements.push(sql), { rows: [] }) }
    const log = logger()
    const analyzer = new GrowthAnalyzer(db as never, log)
    analyzer.after(1_000)
    await analyzer.settle()
    expect(statements).toHaveLength(1)
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining("may analyze none of them"))
    analyzer.after(2_000)
    await analyzer.settle()
    expect(statements).toHaveLength(1)
  })

  it("runs one ANALYZE at a time, in the background, of the tables the database has and the user may analyze, and waits for it on settle", async () => {
    let finish!: () => void
    const { db, statements } = fakeDb(() => new Promise<void>((resolve) => (finish = resolve)))
    const log = logger()
    const analyzer = new GrowthAnalyzer(db, log)
    analyzer.after(999)
    expect(statements).toEqual([])
    analyzer.after(1_000)
    await new Promise((r) => setImmediate(r))
    expect(statements).toHaveLength(2)
    expect(statements[1]).toBe('analyze (skip_locked) product, "odd""name"')
    // Due again, but one is running: nothing more is sent.
    analyzer.after(5_000)
    await new Promise((r) => setImmediate(r))
    expect(statements).toHaveLength(2)
    let settled = false
    const settling = analyzer.settle().then(() => (settled = true))
    await new Promise((r) => setImmediate(r))
    expect(settled).toBe(false)
    finish()
    await settling
    expect(log.info).toHaveBeenCalledWith(expect.stringMatching(/^catalog sync: analyzed 2 tables after 1000 products created, in \d+ ms$/))
    // The next is due at twice the last (1,000), not at twice 5,000.
    analyzer.after(2_000)
    await new Promise((r) => setImmediate(r))
    expect(statements).toHaveLength(4)
    finish()
    await analyzer.settle()
  })

  it("gives up after a failure with one warning and never fails the run", async () => {
    const { db, statements } = fakeDb(() => Promise.reject(new Error("Connection terminated unexpectedly")))
    const log = logger()
    const analyzer = new GrowthAnalyzer(db, log)
    analyzer.after(1_000)
    await analyzer.settle()
    await new Promise((r) => setImmediate(r))
    await analyzer.settle()
    expect(log.warn).toHaveBeenCalledTimes(1)
    expect(log.warn.mock.calls[0][0]).toContain("Connection terminated unexpectedly")
    analyzer.after(64_000)
    await analyzer.settle()
    expect(statements).toHaveLength(2)
    expect(log.warn).toHaveBeenCalledTimes(1)
  })
})

describe("analyzing once more when the run's pages are done", () => {
  function countingDb() {
    const analyzes: string[] = []
    const db = {
      raw: async (sql: string) => {
        if (sql.startsWith("select")) return { rows: [{ name: "product" }] }
        analyzes.push(sql)
        return { rows: [] }
      },
    }
    return { db: db as never, analyzes }
  }
  const log = () => ({ info: jest.fn(), warn: jest.fn() })

  it("analyzes the products created since the last ANALYZE (a first sync of 20,000 last analyzed at 16,000), and waits for it", async () => {
    const { db, analyzes } = countingDb()
    const analyzer = new GrowthAnalyzer(db, log())
    for (let created = 200; created <= 20_000; created += 200) {
      analyzer.after(created)
      await analyzer.settle()
    }
    expect(analyzes).toHaveLength(5) // 1,000 2,000 4,000 8,000 16,000
    await analyzer.finish(20_000)
    expect(analyzes).toHaveLength(6)
  })

  it("does nothing more when nothing was created since the last ANALYZE, or too little for a first one", async () => {
    const { db, analyzes } = countingDb()
    const analyzer = new GrowthAnalyzer(db, log())
    analyzer.after(1_000)
    await analyzer.finish(1_000)
    expect(analyzes).toHaveLength(1)
    const small = countingDb()
    await new GrowthAnalyzer(small.db, log()).finish(ANALYZE_FIRST_AT - 1)
    expect(small.analyzes).toHaveLength(0)
  })
})
