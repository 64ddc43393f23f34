// Issue 43 (review of the admin): while the safety brake waited for the admin's answer, the sync
// page said "70 waiting to be removed", as if the removal were decided. removalsWaiting counts
// every removal still pending in the shop and, apart, those a pause holds for the answer and those
// a run holds until its end. Against the real server on 127.0.0.1, in a scratch database holding
// the columns the count reads.
import knexFactory from "knex"
import { createDatabase, dropDatabase, PG, scratchDatabaseName } from "../../../../__tests__/scratch-database"
import { HELD_REMOVAL_TABLE, removalsWaiting } from "../held-removals"
import { PRODUCT_MAP_TABLE } from "../product-map"
import { productsKeptForOrders } from "../pending-removals"
import { PENDING_REMOVAL_TABLE } from "../../../../bulk-write/open-orders"

const DB = scratchDatabaseName("waiting")
jest.setTimeout(30_000)

describe("removals waiting in the shop", () => {
  let knex: ReturnType<typeof knexFactory>

  beforeAll(async () => {
    await createDatabase(DB)
    knex = knexFactory({ client: "pg", connection: { ...PG, database: DB }, pool: { min: 0, max: 2 } })
    await knex.raw(
      `create table ${PRODUCT_MAP_TABLE} (id text primary key, catalog_id text not null, product_id text, status text not null, deleted_at timestamptz)`
    )
    await knex.raw(
      `create table ${HELD_REMOVAL_TABLE} (id text primary key, catalog_id text not null, product_id text, status text not null, paused_run_id text, deleted_at timestamptz)`
    )
    await knex.raw(
      `create table ${PENDING_REMOVAL_TABLE} (id text primary key, kind text not null, subject_id text not null, product_id text not null, catalog_id text, deleted_at timestamptz)`
    )
    const map = Array.from({ length: 12 }, (_, i) => ({ id: `m${i}`, catalog_id: `${i}`, product_id: `prod_${i}`, status: "active" }))
    await knex(PRODUCT_MAP_TABLE).insert(map)
    await knex(HELD_REMOVAL_TABLE).insert([
      // A pause holds 0-4 for the admin's answer.
      ...[0, 1, 2, 3, 4].map((i) => ({ id: `h${i}`, catalog_id: `${i}`, status: "held", paused_run_id: "csrun_paused" })),
      // A run holds 5 and 6 until it has read its last page.
      ...[5, 6].map((i) => ({ id: `h${i}`, catalog_id: `${i}`, status: "held", paused_run_id: null })),
      // Confirmed (7) and removed by the admin from the kept list (8): decided, the next run applies them.
      { id: "h7", catalog_id: "7", status: "approved", paused_run_id: "csrun_old" },
      { id: "h8", catalog_id: "8", status: "approved", paused_run_id: null },
      // Neither pending: discarded, applied.
      { id: "h9", catalog_id: "9", status: "discarded", paused_run_id: "csrun_old" },
      { id: "h10", catalog_id: "10", status: "applied", paused_run_id: null },
    ])
  })
  afterAll(async () => {
    await knex?.destroy()
    await dropDatabase(DB)
  })

  it("tells those a pause holds for the answer and those a run holds apart from those decided", async () => {
    expect(await removalsWaiting(knex, [])).toEqual({ total: 9, awaiting_answer: 5, held_until_run_end: 2 })
    // Kept by a discard elsewhere: not counted here.
    expect(await removalsWaiting(knex, ["0", "5", "7"])).toEqual({ total: 6, awaiting_answer: 4, held_until_run_end: 1 })
    // One product.
    expect(await removalsWaiting(knex, [], "prod_3")).toEqual({ total: 1, awaiting_answer: 1, held_until_run_end: 0 })
    expect(await removalsWaiting(knex, [], "prod_8")).toEqual({ total: 1, awaiting_answer: 0, held_until_run_end: 0 })
  })
})

describe("products kept for open orders (the brake's base leaves them out and says so)", () => {
  let knex: ReturnType<typeof knexFactory>
  const DB2 = scratchDatabaseName("kept_orders")
  beforeAll(async () => {
    await createDatabase(DB2)
    knex = knexFactory({ client: "pg", connection: { ...PG, database: DB2 }, pool: { min: 0, max: 2 } })
    await knex.raw(
      `create table ${PRODUCT_MAP_TABLE} (id text primary key, catalog_id text not null, product_id text, status text not null, deleted_at timestamptz)`
    )
    await knex.raw(
      `create table ${PENDING_REMOVAL_TABLE} (id text primary key, kind text not null, subject_id text not null, product_id text not null, catalog_id text, deleted_at timestamptz)`
    )
    await knex(PRODUCT_MAP_TABLE).insert([
      { id: "m1", catalog_id: "1", product_id: "prod_1", status: "draft" },
      { id: "m2", catalog_id: "2", product_id: "prod_2", status: "active" },
      { id: "m3", catalog_id: "3", product_id: "prod_3", status: "draft" },
    ])
    await knex(PENDING_REMOVAL_TABLE).insert([
      // Kept for an order: its map row is not active.
      { id: "p1", kind: "product", subject_id: "prod_1", product_id: "prod_1", catalog_id: "1" },
      // The catalog sent it again: back on sale, not kept.
      { id: "p2", kind: "product", subject_id: "prod_2", product_id: "prod_2", catalog_id: "2" },
      // A size, not a product; a finished row.
      { id: "p3", kind: "size", subject_id: "variant_3", product_id: "prod_3", catalog_id: "3" },
      { id: "p4", kind: "product", subject_id: "prod_3", product_id: "prod_3", catalog_id: "3", deleted_at: new Date() },
    ])
  })
  afterAll(async () => {
    await knex?.destroy()
    await dropDatabase(DB2)
  })

  it("counts whole products an open order keeps, not those back on sale, not sizes, not finished rows", async () => {
    expect(await productsKeptForOrders(knex)).toBe(1)
  })
})
