// The Connection every function of the database-access layer takes, against the real server on
// 127.0.0.1 in a scratch database: a container stands for the app's connection (Medusa's
// PG_CONNECTION), a knex or a transaction for itself, so a statement through a caller's
// transaction commits or rolls back with it.
import knexFactory from "knex"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createDatabase, dropDatabase, PG, scratchDatabaseName } from "../../__tests__/scratch-database"
import { databaseAnswers, sqlOf, transactionOn } from "../connection"

const DB = scratchDatabaseName("connection")
jest.setTimeout(30_000)

describe("Connection (bulk-write/connection.ts)", () => {
  let knex: ReturnType<typeof knexFactory>
  const containerOf = (db: unknown) => ({
    resolve: (key: string) => {
      if (key !== ContainerRegistrationKeys.PG_CONNECTION) throw new Error(`unexpected resolve of ${key}`)
      return db
    },
  })
  const names = async () => ((await knex("thing").select("name").orderBy("name")) as { name: string }[]).map((r) => r.name)

  beforeAll(async () => {
    await createDatabase(DB)
    knex = knexFactory({ client: "pg", connection: { ...PG, database: DB }, pool: { min: 0, max: 4 } })
    await knex.raw("create table thing (name text primary key)")
  })
  afterAll(async () => {
    await knex?.destroy()
    await dropDatabase(DB)
  })

  it("takes a container's PostgreSQL connection, and a knex or a transaction as it is", async () => {
    expect(sqlOf(containerOf(knex) as never)).toBe(knex)
    expect(sqlOf(knex)).toBe(knex)
    await knex.transaction(async (trx) => {
      expect(sqlOf(trx)).toBe(trx)
    })
  })

  it("runs a statement given a transaction inside it: rolled back with it, committed with it", async () => {
    await knex
      .transaction(async (trx) => {
        await sqlOf(trx)("thing").insert({ name: "rolled back" })
        await trx.rollback()
      })
      .catch(() => undefined)
    await knex.transaction(async (trx) => {
      await sqlOf(trx)("thing").insert({ name: "committed" })
    })
    expect(await names()).toEqual(["committed"])
  })

  it("transactionOn commits the work on the container's connection, or nothing of it when it throws", async () => {
    await transactionOn(containerOf(knex) as never, async (trx) => {
      await trx("thing").insert({ name: "in one" })
    })
    await expect(
      transactionOn(containerOf(knex) as never, async (trx) => {
        await trx("thing").insert({ name: "half done" })
        throw new Error("boom")
      })
    ).rejects.toThrow("boom")
    expect(await names()).toEqual(["committed", "in one"])
  })

  it("databaseAnswers: true on a live connection, false when the connection fails or cannot be resolved", async () => {
    expect(await databaseAnswers(containerOf(knex) as never)).toBe(true)
    const dead = knexFactory({ client: "pg", connection: { ...PG, port: 1, database: DB }, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 2_000 })
    try {
      expect(await databaseAnswers(dead)).toBe(false)
    } finally {
      await dead.destroy()
    }
    expect(
      await databaseAnswers({
        resolve: () => {
          throw new Error("no connection registered")
        },
      } as never)
    ).toBe(false)
  })
})
