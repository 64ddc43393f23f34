// A large insert goes to PostgreSQL as several bounded statements, every row once, in order, with
// each value as knex's insert builder sent it (text, numbers, booleans, dates, JSON text into
// jsonb, arrays, null) and a column a row leaves out given its default. Against the real server.
import knexFactory, { type Knex } from "knex"
import { createDatabase, dropDatabase, PG, scratchDatabaseName } from "../../__tests__/scratch-database"
import { insertRows, multiRowInsert, ROWS_PER_STATEMENT } from "../sql"

const DB = scratchDatabaseName("insert_rows")
jest.setTimeout(60_000)
let db: Knex

beforeAll(async () => {
  await createDatabase(DB)
  db = knexFactory({ client: "pg", connection: { ...PG, database: DB } })
  await db.raw(`create table "price" (id text primary key, amount numeric not null, raw_amount jsonb, rules_count integer default 0,
    is_live boolean, tags text[], note text, "odd""name" text, created_at timestamptz not null default now(), deleted_at timestamptz)`)
})

afterAll(async () => {
  await db?.destroy()
  await dropDatabase(DB)
})

describe("insertRows", () => {
  it("writes 601 rows as statements of at most ROWS_PER_STATEMENT rows, each row once, in order, every value as given", async () => {
    const inserts: number[] = []
    const onQuery = (q: { sql: string }) => {
      if (q.sql.startsWith("insert")) inserts.push((q.sql.match(/\),\(/g)?.length ?? 0) + 1)
    }
    db.on("query", onQuery)
    const at = new Date("2026-01-02T03:04:05.678Z")
    const rows = Array.from({ length: 601 }, (_, i) => ({
      id: `price_${String(i).padStart(3, "0")}`,
      amount: i % 2 ? String(i) + ".50" : i,
      raw_amount: JSON.stringify({ value: String(i), precision: 20 }),
      // Left out on some rows: the column's default.
      ...(i % 3 ? { rules_count: i } : {}),
      is_live: i % 2 === 0,
      tags: i % 5 ? ["a", `b${i}`] : null,
      note: i === 7 ? 'it\'s "quoted" ? $1 \\ \u00e9' : undefined,
      'odd"name': "x",
      ...(i === 10 ? { created_at: at } : {}),
      deleted_at: null,
    }))
    await db.transaction((trx) => insertRows(trx, "price", rows))
    db.off("query", onQuery)
    expect(ROWS_PER_STATEMENT).toBeLessThanOrEqual(250)
    expect(inserts).toEqual([250, 250, 101])

    const stored = await db("price").select("*").orderBy("id")
    expect(stored.map((r) => r.id)).toEqual(rows.map((r) => r.id))
    const byId = new Map(stored.map((r) => [r.id, r]))
    expect(byId.get("price_001")).toMatchObject({
      amount: "1.50",
      raw_amount: { value: "1", precision: 20 },
      rules_count: 1,
      is_live: false,
      tags: ["a", "b1"],
      note: null,
      'odd"name': "x",
      deleted_at: null,
    })
    expect(byId.get("price_000")).toMatchObject({ amount: "0", rules_count: 0, is_live: true, tags: null })
    expect(byId.get("price_007")!.note).toBe('it\'s "quoted" ? $1 \\ \u00e9')
    expect(byId.get("price_010")!.created_at.toISOString()).toBe(at.toISOString())
    expect(byId.get("price_011")!.created_at).toBeInstanceOf(Date)
  })

  it("refuses an SQL expression as a value (a value is sent as a parameter, never as SQL)", () => {
    expect(() => multiRowInsert("price", [{ id: "p", created_at: db.fn.now() }])).toThrow("SQL expression for created_at")
    expect(() => multiRowInsert("price", [{ id: "p", created_at: db.raw("now()") }])).toThrow("SQL expression for created_at")
  })

  it("refuses rows without a value (no statement to write)", () => {
    expect(() => multiRowInsert("price", [])).toThrow("needs a row")
    expect(() => multiRowInsert("price", [{ id: undefined }])).toThrow("needs a row")
  })
})
