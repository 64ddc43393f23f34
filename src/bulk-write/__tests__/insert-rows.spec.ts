// A large insert goes to PostgreSQL as several bounded statements, every row once, in order.
import type { Knex } from "knex"
import { insertRows, ROWS_PER_STATEMENT } from "../sql"

describe("insertRows", () => {
  it("writes 601 rows as statements of at most ROWS_PER_STATEMENT rows, each row once and in order", async () => {
    const statements: { table: string; ids: string[] }[] = []
    const trx = ((table: string) => ({
      insert: async (rows: { id: string }[]) => {
        statements.push({ table, ids: rows.map((r) => r.id) })
      },
    })) as unknown as Knex.Transaction
    const rows = Array.from({ length: 601 }, (_, i) => ({ id: `price_${i}`, amount: String(i) }))
    await insertRows(trx, "price", rows)
    expect(ROWS_PER_STATEMENT).toBeLessThanOrEqual(250)
    expect(statements.length).toBe(Math.ceil(601 / ROWS_PER_STATEMENT))
    expect(Math.max(...statements.map((s) => s.ids.length))).toBeLessThanOrEqual(ROWS_PER_STATEMENT)
    expect(statements.every((s) => s.table === "price")).toBe(true)
    expect(statements.flatMap((s) => s.ids)).toEqual(rows.map((r) => r.id))
  })
})
