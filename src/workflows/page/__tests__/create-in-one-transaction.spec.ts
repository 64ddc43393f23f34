// When the bulk create may fall back to the workflow way: only when its transaction failed
// before its inserts were done (rolled back, nothing written) on something not the system's.
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { card } from "../../../sync/__tests__/card-fixtures"
import { mapCardToProduct, stockOf } from "../../../sync/map-card"
import type { ProductToCreate } from "../../page-input"
import { createInOneTransaction } from "../new-products-in-bulk"

const placement = { salesChannelId: "sc_1", stockLocationId: "sloc_1", shippingProfileId: null }

function toCreate(id: string): ProductToCreate {
  const c = card({ id, sku: `SKU-${id}` })
  return { catalogId: id, input: mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: "sc_1" }), stock: stockOf(c) }
}

/** A container whose connection runs the transaction in memory: `failInsert` fails an insert into that table, `failEmit` the events after the commit. */
function containerWith(opts: { failInsert?: { table: string; error: unknown }; failEmit?: boolean }) {
  const inserted: string[] = []
  const emitted: string[] = []
  const insert = async (table: string) => {
    if (opts.failInsert?.table === table) throw opts.failInsert.error
    inserted.push(table)
  }
  const trx = Object.assign((table: string) => ({ insert: () => insert(table) }), {
    // The page's transaction settings (synchronous_commit): no rows. A bulk insert (insertRows) is
    // raw text with its values handed over by options({ values }).
    raw: (sql: string) =>
      Object.assign(Promise.resolve({ rows: [] }), {
        options: () => insert(/^insert into "([^"]+)"/.exec(sql)?.[1] ?? `unexpected statement: ${sql}`),
      }),
  })
  const pg = { transaction: async (work: (t: unknown) => Promise<unknown>) => work(trx) }
  const eventBus = {
    emit: async (messages: { name: string }[]) => {
      if (opts.failEmit) throw new Error("event bus unavailable")
      emitted.push(...messages.map((m) => m.name))
    },
  }
  const container = {
    resolve: (key: string) => {
      if (key === ContainerRegistrationKeys.PG_CONNECTION) return pg
      if (key === Modules.EVENT_BUS) return eventBus
      throw new Error(`unexpected ${key}`)
    },
  }
  return { container: container as never, inserted, emitted }
}

const uniqueViolation = Object.assign(new Error('duplicate key value violates unique constraint "IDX_product_variant_sku_unique"'), { code: "23505" })

describe("createInOneTransaction", () => {
  const products = [toCreate("1"), toCreate("2")]

  it("returns each product's ids once committed, and emits the events", async () => {
    const { container, inserted, emitted } = containerWith({})
    const out = await createInOneTransaction(container, products, placement)
    expect("created" in out && out.created.map((c) => c.catalogId)).toEqual(["1", "2"])
    expect(inserted).toContain("product_variant")
    expect(emitted.filter((e) => e === "product.created")).toHaveLength(2)
  })

  it("reports a rollback on the product's data (nothing written: the workflow way may try)", async () => {
    const { container, emitted } = containerWith({ failInsert: { table: "product_variant", error: uniqueViolation } })
    const out = await createInOneTransaction(container, products, placement)
    expect(out).toEqual({ rolledBack: uniqueViolation })
    expect(emitted).toEqual([])
  })

  it("fails on the system's failure, without a fallback", async () => {
    const lost = Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" })
    const { container } = containerWith({ failInsert: { table: "price", error: lost } })
    await expect(createInOneTransaction(container, products, placement)).rejects.toBe(lost)
  })

  it("fails, without a fallback, when its transaction ended under it (knex after a terminated connection) or the run lock is gone", async () => {
    const ended = new Error("Transaction query already complete, run with DEBUG=knex:tx for more info")
    const fenced = Object.assign(new Error("catalog sync run r1 no longer holds the run lock (checked inside a page's write); it stops without writing"), {
      code: "lost_run_lock",
    })
    const terminated = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })
    for (const error of [ended, fenced, terminated]) {
      const { container } = containerWith({ failInsert: { table: "product_variant", error } })
      await expect(createInOneTransaction(container, products, placement)).rejects.toBe(error)
    }
  })

  it("fails, without a fallback, when the inserts were done (the rows may be committed: the replay adopts them)", async () => {
    const { container, inserted } = containerWith({ failEmit: true })
    await expect(createInOneTransaction(container, products, placement)).rejects.toThrow("event bus unavailable")
    expect(inserted).toContain("product")
  })
})
