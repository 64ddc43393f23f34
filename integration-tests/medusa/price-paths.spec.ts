// Price-only changes and the crossed-out switch through the bulk writer (issue 14), judged by
// SQL on Medusa's tables (price, the sale list's prices) against the cards the sandbox serves:
// the catalog changes only the prices of some products (one of them with its prices locked in
// the shop), then the crossed-out price is switched on (discount_percent: the shop's rule, a
// reprice from the stored costs with no catalog request) and off again. The locked product's prices stay as they were throughout. The bulk path shows in the
// base prices: updated in place in one transaction (the rows share one now()), where the update
// workflow recreates them, chunk by chunk. The sale list's rows are those
// batchPriceListPricesWorkflow writes (bulk-write-rows.spec.ts), so here only their values count.
// Size: PRICE_PATHS_PRODUCTS (default 80).
import { judgeProductMap, judgeShop, readShopTruth, type TruthCard } from "../harness/shop-truth"
import { sql } from "./poll-and-query"
import { configureAndWait, PRICING, readCatalog, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(1_200_000)

const PRODUCTS = Number(process.env.PRICE_PATHS_PRODUCTS ?? 80)
const CHANGED = Math.min(25, Math.floor(PRODUCTS / 3))
const ON_SALE = { ...PRICING, discount_percent: "20" } as const

type PriceRow = { id: string; amount: string; price_list_id: string | null; updated_at: string; deleted_at: string | null }

describe("price-only changes and the crossed-out switch, in bulk", () => {
  let env: SyncEnv
  let lockedCatalogId: string
  let lockedPricesBefore: PriceRow[]

  /** Requests the sandbox counted (its own counter, not the plugin's). */
  const requests = () => (env.sb.control.stats() as { requests: number }).requests
  const cardsFor = async (pricing: typeof PRICING | typeof ON_SALE) =>
    (await readCatalog(env.sb.baseUrl, env.sb.apiKey, pricing as never)) as unknown as TruthCard[]
  /** Every price row (base and list, deleted ones included) of a product's variants. */
  const pricesOf = async (catalogId: string): Promise<PriceRow[]> =>
    sql(
      env.db.url,
      `select p.id, p.amount::text as amount, p.price_list_id, p.updated_at::text as updated_at, p.deleted_at::text as deleted_at
         from product pr join product_variant v on v.product_id = pr.id and v.deleted_at is null
         join product_variant_price_set l on l.variant_id = v.id and l.deleted_at is null
         join price p on p.price_set_id = l.price_set_id
        where pr.external_id = $1 and pr.deleted_at is null order by p.id`,
      [catalogId]
    )
  /** The shop equals the cards, but for the locked product (checked on its own). */
  const judge = async (cards: TruthCard[]) => {
    const problems = judgeShop(cards, await readShopTruth(env.db.url))
    expect(problems.filter((p) => !p.startsWith(`${lockedCatalogId}/`) && !p.startsWith(`${lockedCatalogId}:`))).toEqual([])
    expect(await judgeProductMap(env.db.url)).toEqual([])
    expect(await pricesOf(lockedCatalogId)).toEqual(lockedPricesBefore)
  }

  beforeAll(async () => {
    env = await startSyncEnv("price-paths", { products: PRODUCTS, seed: 57 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS, skipped: 0 })
    expect(judgeShop(await cardsFor(PRICING), await readShopTruth(env.db.url))).toEqual([])
  })
  afterAll(async () => {
    await env?.close()
  })

  it(`${CHANGED} price-only changes are written as one bulk write; the shop's prices are the catalog's, a locked price untouched`, async () => {
    const priced = env.sb.state.catalog
      .liveProducts()
      .filter((p) => p.suppliers.every((s) => s.baseCost !== null))
      .map((p) => p.idText)
    const targets = priced.slice(0, CHANGED)
    lockedCatalogId = targets[0]
    const [locked] = await sql(env.db.url, "select id from product where external_id = $1 and deleted_at is null", [lockedCatalogId])
    const res = await env.app.admin(`/admin/catalog-sync/products/${locked.id}/locks`, { body: { fields: ["prices"], locked: true } })
    expect(res.status).toBe(200)
    lockedPricesBefore = await pricesOf(lockedCatalogId)
    expect(lockedPricesBefore.length).toBeGreaterThan(0)

    const pricesText = (c: TruthCard) => JSON.stringify([c.price, c.sizes.map((s) => s.price)])
    const before = new Map((await cardsFor(PRICING)).map((c) => [c.id, pricesText(c)]))
    const movedNow = async () => (await cardsFor(PRICING)).filter((c) => before.get(c.id) !== pricesText(c)).map((c) => c.id)
    // A price mutation may draw a cost that leaves the selling price where it was: the locked product's is repeated until it moves.
    for (let i = 0; i < 20 && !(await movedNow()).includes(lockedCatalogId); i++) env.sb.state.mutator.mutate(1, ["price"], [lockedCatalogId])
    for (const id of targets.slice(1)) env.sb.state.mutator.mutate(1, ["price"], [id])
    const cards = await cardsFor(PRICING)
    const moved = cards.filter((c) => before.get(c.id) !== pricesText(c)).map((c) => c.id)
    expect(moved.length).toBeGreaterThanOrEqual(CHANGED / 2)
    expect(moved).toContain(lockedCatalogId)

    const [{ now: startedAt }] = await sql(env.db.url, "select now()::text as now")
    const run = await runAndWait(env, "changes")
    expect(run).toMatchObject({ status: "succeeded", updated: moved.length, created: 0, removed: 0, skipped: 0 })
    await judge(cards)
    // Written in place (no new base price), in one transaction: every changed base price shares its now().
    const written = await sql(
      env.db.url,
      `select count(*)::int as n, count(distinct updated_at)::int as stamps, count(*) filter (where created_at >= $1::timestamptz)::int as created
         from price where price_list_id is null and deleted_at is null and updated_at >= $1::timestamptz`,
      [startedAt]
    )
    expect(written[0].n).toBeGreaterThanOrEqual(moved.length - 1)
    expect([written[0].stamps, written[0].created]).toEqual([1, 0])
    // No product row was rewritten for a price.
    const products = await sql(env.db.url, "select count(*)::int as n from product where updated_at >= $1::timestamptz", [startedAt])
    expect(products[0].n).toBe(0)
  })

  it("the crossed-out price switched on (a reprice, no request): base = old_price, the sale list = price, one write per batch", async () => {
    const [{ now: startedAt }] = await sql(env.db.url, "select now()::text as now")
    const requestsBefore = requests()
    const { saved, run } = await configureAndWait(env, { discount_percent: "20" })
    expect(saved).toMatchObject({ needs_full_pass: false, rules_changed: true })
    expect(run).toMatchObject({ status: "succeeded", mode: "reprice", requests_used: 0, created: 0, removed: 0, skipped: 0 })
    expect(requests()).toBe(requestsBefore)
    const cards = await cardsFor(ON_SALE)
    await judge(cards)
    const sale = await sql(
      env.db.url,
      `select count(*)::int as n, count(distinct p.created_at)::int as stamps from price p join price_list pl on pl.id = p.price_list_id
        where pl.metadata->>'source' = 'catalog-sync' and p.deleted_at is null and p.created_at >= $1::timestamptz`,
      [startedAt]
    )
    // Every priced variant but the locked product's is on sale now.
    const truth = await readShopTruth(env.db.url)
    const onSale = [...truth.products.values()].flatMap((p) => p.variants).filter((v) => v.sale.length).length
    expect(onSale).toBeGreaterThan(PRODUCTS / 2)
    expect(sale[0].n).toBe(onSale)
    expect(sale[0].stamps).toBeLessThanOrEqual(run!.pages)
  })

  it("the crossed-out price switched off again (a reprice, no request): the sale list is empty, base = price, one write per batch", async () => {
    const [{ now: startedAt }] = await sql(env.db.url, "select now()::text as now")
    const requestsBefore = requests()
    const { run } = await configureAndWait(env, { discount_percent: null })
    expect(run).toMatchObject({ status: "succeeded", mode: "reprice", requests_used: 0, created: 0, removed: 0, skipped: 0 })
    expect(requests()).toBe(requestsBefore)
    await judge(await cardsFor(PRICING))
    const live = await sql(
      env.db.url,
      "select count(*)::int as n from price p join price_list pl on pl.id = p.price_list_id where pl.metadata->>'source' = 'catalog-sync' and p.deleted_at is null"
    )
    expect(live[0].n).toBe(0)
    const gone = await sql(
      env.db.url,
      `select count(*)::int as n, count(distinct p.deleted_at)::int as stamps from price p join price_list pl on pl.id = p.price_list_id
        where pl.metadata->>'source' = 'catalog-sync' and p.deleted_at >= $1::timestamptz`,
      [startedAt]
    )
    expect(gone[0].n).toBeGreaterThan(PRODUCTS / 2)
    expect(gone[0].stamps).toBeLessThanOrEqual(run!.pages)
  })
})
