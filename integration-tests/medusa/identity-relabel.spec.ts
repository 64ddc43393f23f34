// A size value renamed in the admin (the variant of size "40" moved to a value "40 EU"): the
// catalog owns the size labels, so the next sync that touches the product's sizes puts the
// variant back on the catalog's value (same variant id) and removes the admin's value, instead
// of asking Medusa to remove a value a live variant still uses (which Medusa refuses, and the
// product would be rejected on every later change of its sizes). Checked by SQL on Medusa's tables.
import { judgeProductMap, judgeShop, readShopTruth, type TruthCard } from "../harness/shop-truth"
import { configureAndWait, readCatalog, runAndWait, sizedProductId, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { sql } from "./poll-and-query"

jest.setTimeout(900_000)

const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: "20", old_price_markup_percent: null } as const

describe("identity: a size value renamed in the admin", () => {
  let env: SyncEnv
  let shoe: string

  const expectEqual = async () => {
    const cards = (await readCatalog(env.sb.baseUrl, env.sb.apiKey, PRICING as never)) as unknown as TruthCard[]
    expect(judgeShop(cards, await readShopTruth(env.db.url))).toEqual([])
    expect(await judgeProductMap(env.db.url)).toEqual([])
  }
  const sync = async () => {
    const run = await runAndWait(env, "changes")
    expect([run.status, run.error_message, run.skipped, run.rejected_items ?? []]).toEqual(["succeeded", null, 0, []])
    return run
  }
  /** The product's live variants with their size value, and the values on its size option. */
  const shopOf = async (id: string) => {
    const [p] = await sql(env.db.url, "select id from product where external_id = $1 and deleted_at is null", [id])
    const variants = await sql(
      env.db.url,
      `select v.id, pov.value from product_variant v
         join product_variant_option vo on vo.variant_id = v.id
         join product_option_value pov on pov.id = vo.option_value_id
        where v.product_id = $1 and v.deleted_at is null order by pov.value`,
      [p.id]
    )
    const values = await sql(
      env.db.url,
      `select pov.value from product_product_option ppo
         join product_product_option_value ppov on ppov.product_product_option_id = ppo.id and ppov.deleted_at is null
         join product_option_value pov on pov.id = ppov.product_option_value_id and pov.deleted_at is null
        where ppo.product_id = $1 and ppo.deleted_at is null order by pov.value`,
      [p.id]
    )
    const [o] = await sql(
      env.db.url,
      `select o.id, o.title from product_product_option ppo join product_option o on o.id = ppo.product_option_id
        where ppo.product_id = $1 and ppo.deleted_at is null and o.deleted_at is null`,
      [p.id]
    )
    return { productId: p.id as string, optionId: o.id as string, optionTitle: o.title as string, variants, values: values.map((r) => r.value) }
  }

  beforeAll(async () => {
    env = await startSyncEnv("identity-relabel", { products: 60, seed: 5 })
    shoe = sizedProductId(env, ["40", "41", "42"])
    env.sb.state.mutator.setSizes(shoe, ["40", "41"])
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING })
    expect(run).toMatchObject({ status: "succeeded", skipped: 0 })
    await expectEqual()
  })
  afterAll(async () => {
    await env?.close()
  })

  it("the variant goes back to the catalog's value, the admin's value leaves, and later size changes go through", async () => {
    const before = await shopOf(shoe)
    const v40 = before.variants.find((v) => v.value === "40")!.id
    // The admin renames size "40" of this product to "40 EU": a new value, and the variant points at it.
    const added = await env.app.admin(`/admin/products/${before.productId}/options/batch`, {
      body: { update: [{ product_option_id: before.optionId, add: [{ value: "40 EU" }] }] },
    })
    expect(added.status).toBe(200)
    const moved = await env.app.admin(`/admin/products/${before.productId}/variants/${v40}`, { body: { options: { [before.optionTitle]: "40 EU" } } })
    expect(moved.status).toBe(200)
    expect((await shopOf(shoe)).variants.find((v) => v.id === v40)?.value).toBe("40 EU")

    // The catalog changes the product's sizes.
    env.sb.state.mutator.setSizes(shoe, ["40", "41", "42"])
    await sync()
    await expectEqual()
    const after = await shopOf(shoe)
    expect(after.variants.map((v) => [v.value, v.id === v40])).toEqual([
      ["40", true],
      ["41", false],
      ["42", false],
    ])
    expect(after.values).toEqual(["40", "41", "42"])

    // And again: the product is not stuck.
    env.sb.state.mutator.setSizes(shoe, ["40", "42"])
    await sync()
    await expectEqual()
    expect((await shopOf(shoe)).values).toEqual(["40", "42"])
  })
})
