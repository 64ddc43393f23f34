// The cost rows' two writes against the real server on 127.0.0.1, in a scratch database with the
// module's own migration: rows updated by id (one column array each) end up exactly as the upsert
// by (catalog_id, size_key) writes them, text that needs quoting in an array included, and a row
// deleted since it was read is handed back to be inserted.
import knexFactory from "knex"
import { createDatabase, dropDatabase, PG, scratchDatabaseName } from "../../../__tests__/scratch-database"
import { Migration20261123153322 } from "../../../modules/catalog_sync/migrations/Migration20261123153322"
import { updateCostRowsById, upsertCostRows, VARIANT_COST_TABLE, type VariantCostRow } from "../../../modules/catalog_sync/sql/variant-costs"

const DB = scratchDatabaseName("costs")
jest.setTimeout(30_000)

const row = (catalogId: string, size: string, over: Partial<VariantCostRow> = {}): VariantCostRow => ({
  catalog_id: catalogId,
  size_key: size,
  variant_id: `variant_${catalogId}_${size}`,
  cost: "100.50",
  price_calculation: "min",
  category_id: "7",
  category_path: JSON.stringify(["Взуття", "Кросівки"]),
  brand_id: "12",
  amount: "130.65",
  crossed_out_amount: null,
  priced_revision: 1,
  ...over,
})

/** Text an array literal must quote or escape: quotes, backslashes, commas, braces, blanks, NULL as a word. */
const AWKWARD: Partial<VariantCostRow> = {
  variant_id: 'var "quoted", {braced}',
  category_id: "NULL",
  category_path: JSON.stringify(['a "b"', "c\\d", "e,f", "{g}", " h "]),
  brand_id: "",
  amount: "0.10",
  crossed_out_amount: "99999999.99",
  priced_revision: 42,
}

describe("mcs_variant_cost rows updated by id", () => {
  let knex: ReturnType<typeof knexFactory>

  beforeAll(async () => {
    await createDatabase(DB)
    knex = knexFactory({ client: "pg", connection: { ...PG, database: DB }, pool: { min: 0, max: 2 } })
    // The module's migration, as Medusa runs it.
    const statements: string[] = []
    const migration = Object.create(Migration20261123153322.prototype) as Migration20261123153322
    ;(migration as unknown as { addSql: (s: string) => void }).addSql = (s) => statements.push(s)
    await migration.up()
    for (const s of statements) await knex.raw(s)
    // Its table under today's name (Migration20261128200000 renames the plugin's tables to mcs_*).
    await knex.raw(`alter table catalog_variant_cost rename to ${VARIANT_COST_TABLE}`)
  })
  afterAll(async () => {
    await knex?.destroy()
    await dropDatabase(DB)
  })

  const read = async (catalogId: string) =>
    knex(VARIANT_COST_TABLE)
      .select(
        "id",
        "catalog_id",
        "size_key",
        "variant_id",
        "cost",
        "price_calculation",
        "category_id",
        knex.raw("category_path::text as category_path"),
        "brand_id",
        "amount",
        "crossed_out_amount",
        "priced_revision",
        "deleted_at"
      )
      .where("catalog_id", catalogId)
      .orderBy("size_key")

  it("writes what the upsert writes, column by column, awkward text included", async () => {
    const sizes = ["41", "42", "43"]
    await upsertCostRows(
      knex,
      sizes.map((s) => row("by-id", s))
    )
    await upsertCostRows(
      knex,
      sizes.map((s) => row("upsert", s))
    )
    const stored = await read("by-id")
    const next = (catalogId: string, s: string) =>
      row(
        catalogId,
        s,
        s === "42"
          ? AWKWARD
          : { cost: "101.00", amount: "131.30", crossed_out_amount: "150.00", price_calculation: "max", priced_revision: 2, variant_id: null }
      )

    const missing = await updateCostRowsById(
      knex,
      stored.map((r) => ({ id: r.id, row: next("by-id", r.size_key) }))
    )
    await upsertCostRows(
      knex,
      sizes.map((s) => next("upsert", s))
    )

    expect(missing).toEqual([])
    const strip = (rows: Record<string, unknown>[]) =>
      rows.map(({ id: _id, catalog_id: _c, ...rest }) => ({ ...rest, category_path: JSON.parse(String(rest.category_path)) }))
    const byId = await read("by-id")
    expect(strip(byId)).toEqual(strip(await read("upsert")))
    // Updated in place: the same ids, and the awkward row as given.
    expect(byId.map((r) => r.id)).toEqual(stored.map((r) => r.id))
    expect(byId.find((r) => r.size_key === "42")).toMatchObject({ ...AWKWARD, category_path: expect.any(String) })
    expect(JSON.parse(byId.find((r) => r.size_key === "42")!.category_path)).toEqual(JSON.parse(AWKWARD.category_path!))
  })

  it("hands back a row soft-deleted since it was read, and updates no deleted row", async () => {
    await upsertCostRows(knex, [row("deleted", "40"), row("deleted", "41")])
    const stored = await read("deleted")
    await knex(VARIANT_COST_TABLE).where("id", stored[0].id).update({ deleted_at: knex.fn.now() })

    const missing = await updateCostRowsById(
      knex,
      stored.map((r) => ({ id: r.id, row: row("deleted", r.size_key, { amount: "1.00" }) }))
    )

    expect(missing).toEqual([row("deleted", "40", { amount: "1.00" })])
    const after = await read("deleted")
    expect(after.find((r) => r.id === stored[0].id)).toMatchObject({ amount: "130.65" })
    expect(after.find((r) => r.id === stored[1].id)).toMatchObject({ amount: "1.00", deleted_at: null })
  })
})
