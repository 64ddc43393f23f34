// Identity over time (issue #9): a variant is (catalog id, size) for the product's whole life.
// A size that leaves and comes back gets its variant back with the right price and stock; the
// product's Size values follow the sizes; a product taken off sale and back is there once; the
// product map never points at a deleted row. Checked by plain SQL on Medusa's tables after every run.
import { judgeProductMap, judgeShop, readShopTruth, type TruthCard } from "../harness/shop-truth"
import { configureAndWait, readCatalog, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { sql } from "./poll-and-query"

jest.setTimeout(900_000)

const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: "20", old_price_markup_percent: null } as const

describe("identity over time: sizes and products that leave and come back", () => {
  let env: SyncEnv
  let shoe: string

  const sizesOf = async (id: string) =>
    await sql(
      env.db.url,
      `select v.id, v.deleted_at from product_variant v join product p on p.id = v.product_id where p.external_id = $1 and p.deleted_at is null`,
      [id]
    )
  const expectEqual = async () => {
    const cards = (await readCatalog(env.sb.baseUrl, env.sb.apiKey, PRICING as never)) as unknown as TruthCard[]
    expect(judgeShop(cards, await readShopTruth(env.db.url))).toEqual([])
    expect(await judgeProductMap(env.db.url)).toEqual([])
  }
  const sync = async (mode: "changes" | "full" = "changes") => {
    const run = await runAndWait(env, mode)
    expect([run.status, run.error_message, run.skipped, run.rejected_items ?? []]).toEqual(["succeeded", null, 0, []])
    return run
  }

  beforeAll(async () => {
    env = await startSyncEnv("identity-sizes", { products: 60, seed: 5 })
    shoe = env.sb.state.catalog
      .liveProducts()
      .find((p) => p.sizes.includes("40") && p.sizes.includes("41") && p.sizes.includes("42") && p.suppliers.every((s) => s.baseCost !== null))!.idText
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30", discount_percent: "20" })
    expect(run).toMatchObject({ status: "succeeded", skipped: 0 })
  })
  afterAll(async () => {
    await env?.close()
  })

  it("sizes [40, 41] → [42] → [40, 41]: variants, option values, prices and stock follow every time", async () => {
    env.sb.state.mutator.setSizes(shoe, ["40", "41"])
    await sync()
    await expectEqual()
    env.sb.state.mutator.setSizes(shoe, ["42"])
    await sync()
    await expectEqual()
    env.sb.state.mutator.setSizes(shoe, ["40", "41"])
    await sync()
    await expectEqual()
    expect((await sizesOf(shoe)).filter((v) => v.deleted_at === null)).toHaveLength(2)
    // Later changes of the product still go through, and a full resync finds nothing to fix.
    env.sb.state.mutator.setSizes(shoe, ["40", "41", "42"])
    await sync()
    await expectEqual()
    const full = await sync("full")
    expect(full.updated).toBe(0)
    await expectEqual()
  })

  it("a product taken off sale and back on sale is there exactly once, equal to the catalog", async () => {
    const id = env.sb.state.catalog.liveProducts()[3].idText
    env.sb.control.mutate({ remove_ids: [id] })
    await sync()
    await expectEqual()
    let restored = false
    while (!restored) {
      const r = env.sb.control.mutate({ count: 1, kinds: ["restore"] }) as { changed: bigint[] }
      restored = r.changed.map(String).includes(id)
    }
    await sync()
    await expectEqual()
    const live = await sql(env.db.url, "select count(*)::int as n from product where external_id = $1 and deleted_at is null", [id])
    expect(live[0].n).toBe(1)
    // And once more: leave, come back, with a size change on the way.
    env.sb.control.mutate({ remove_ids: [id] })
    await sync()
    env.sb.control.mutate({ count: 1, kinds: ["restore"], ids: [id] })
    env.sb.control.mutate({ count: 2, kinds: ["sizes", "price_swing"], ids: [id] })
    await sync()
    await expectEqual()
  })
})
