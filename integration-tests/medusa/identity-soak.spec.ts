// The churn soak (issue #9): the sandbox changes its catalog through every kind of change it
// knows (prices, stock, sizes, photos, descriptions, removals, new products, plus sizes that
// leave and come back, products back on sale, price swings and photo reorders), a changes sync
// follows each round, and after every round an independent SQL judge finds the shop equal to the
// catalog the sandbox serves: products, variants per size, option values, selling and crossed-out
// prices, stock, image order, thumbnail; and the product map points at live rows only.
// Both write paths (bulk, and Medusa's workflows: CATALOG_SYNC_WRITE_PATH); MCS_SOAK_WRITE_PATHS
// picks them ("bulk,workflows" by default).
// Size: MCS_SOAK_ROUNDS (default 10: with the default seed every kind of change, and a size and a
// product back on sale, come within the first few rounds; MCS_SOAK_ROUNDS=30 is the longer soak),
// MCS_SOAK_PRODUCTS (300 on the bulk path, 80 on the slower workflows path unless set),
// MCS_SOAK_MUTATIONS (20 a round), MCS_SOAK_SEED (17).
import { judgeProductMap, judgeShop, readShopTruth, type TruthCard } from "../harness/shop-truth"
import { configureAndWait, readCatalog, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

type WritePath = "bulk" | "workflows"

const ROUNDS = Number(process.env.MCS_SOAK_ROUNDS ?? 10)
const PRODUCTS_ON: Record<WritePath, number> = {
  bulk: Number(process.env.MCS_SOAK_PRODUCTS ?? 300),
  workflows: Number(process.env.MCS_SOAK_PRODUCTS ?? 80),
}
const WRITE_PATHS = (process.env.MCS_SOAK_WRITE_PATHS ?? "bulk,workflows").split(",") as WritePath[]
const MUTATIONS = Number(process.env.MCS_SOAK_MUTATIONS ?? 20)
const SEED = Number(process.env.MCS_SOAK_SEED ?? 17)
const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: "20", old_price_markup_percent: null } as const

jest.setTimeout(Math.max(1_800_000, ROUNDS * 120_000))

describe.each(WRITE_PATHS)("churn soak, write path %s", (writePath) => {
  const PRODUCTS = PRODUCTS_ON[writePath]
  let env: SyncEnv

  beforeAll(async () => {
    env = await startSyncEnv(`identity-soak-${writePath}`, { products: PRODUCTS, seed: SEED }, { CATALOG_SYNC_WRITE_PATH: writePath })
  })
  afterAll(async () => {
    await env?.close()
  })

  const judge = async (label: string) => {
    const cards = (await readCatalog(env.sb.baseUrl, env.sb.apiKey, PRICING as never)) as unknown as TruthCard[]
    const problems = [...judgeShop(cards, await readShopTruth(env.db.url)), ...(await judgeProductMap(env.db.url))]
    if (problems.length) throw new Error(`${label}: shop differs from the catalog (${problems.length}):\n${problems.slice(0, 40).join("\n")}`)
    return cards
  }

  it(`the shop equals the catalog after every round (${ROUNDS} rounds of ${MUTATIONS} mutations over ${PRODUCTS} products)`, async () => {
    const started = Date.now()
    const { run: first } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING })
    expect(first).toMatchObject({ status: "succeeded", created: PRODUCTS, skipped: 0 })
    let previous = await judge("after the full sync")
    const fullSyncMs = Date.now() - started

    const kinds: Record<string, number> = {}
    const totals = { created: 0, updated: 0, stock_only: 0, removed: 0 }
    // What the shop went through, seen from the cards served round after round.
    const seen = { sizesLeft: 0, sizesReturned: 0, productsLeft: 0, productsReturned: 0 }
    const goneSizes = new Map<string, Set<string>>()
    const goneProducts = new Set<string>()
    const syncMs: number[] = []
    let logAt = env.sb.state.catalog.log.length
    for (let round = 1; round <= ROUNDS; round++) {
      // Through the control port over HTTP, as any client of the sandbox would.
      const res = await fetch(`${env.sb.controlUrl}/mutate`, { method: "POST", body: JSON.stringify({ count: MUTATIONS, kinds: "all" }) })
      expect(res.status).toBe(200)
      const log = env.sb.state.catalog.log
      for (const entry of log.slice(logAt)) {
        for (const k of entry.kinds.length ? entry.kinds : ["new product"]) kinds[k] = (kinds[k] ?? 0) + 1
      }
      logAt = log.length
      const t = Date.now()
      const run = await runAndWait(env, "changes")
      syncMs.push(Date.now() - t)
      if (run.status !== "succeeded" || run.skipped !== 0) {
        throw new Error(
          `round ${round}: run ${run.status} ${run.error_code ?? ""} ${run.error_message ?? ""} skipped ${run.skipped} ${JSON.stringify(run.rejected_items ?? [])}`
        )
      }
      totals.created += run.created
      totals.updated += run.updated
      totals.stock_only += run.stock_only
      totals.removed += run.removed
      const cards = await judge(`round ${round}`)
      const now = new Map(cards.map((c) => [c.id, c]))
      for (const before of previous) {
        const after = now.get(before.id)
        if (!after) {
          seen.productsLeft++
          goneProducts.add(before.id)
          continue
        }
        const sizes = new Set(after.sizes.map((s) => s.size))
        const gone = goneSizes.get(before.id) ?? new Set<string>()
        for (const s of before.sizes) if (!sizes.has(s.size)) (seen.sizesLeft++, gone.add(s.size))
        goneSizes.set(before.id, gone)
      }
      for (const card of cards) {
        if (goneProducts.delete(card.id)) seen.productsReturned++
        const gone = goneSizes.get(card.id)
        for (const s of card.sizes) if (gone?.delete(s.size)) seen.sizesReturned++
      }
      previous = cards
    }
    // Nothing is left for a full pass to fix: every product is unchanged, nothing swept.
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", created: 0, updated: 0, stock_only: 0, removed: 0, swept: 0, skipped: 0 })
    const live = await judge("after a full resync")

    const sorted = [...syncMs].sort((a, b) => a - b)
    console.log(
      `churn soak (${writePath}): ${ROUNDS} rounds x ${MUTATIONS} mutations, ${PRODUCTS} products (${live.length} on sale at the end); ` +
        `full sync ${(fullSyncMs / 1000).toFixed(1)} s; changes sync median ${sorted[sorted.length >> 1]} ms, max ${sorted[sorted.length - 1]} ms; ` +
        `total ${((Date.now() - started) / 1000).toFixed(0)} s; runs wrote ${JSON.stringify(totals)}; seen ${JSON.stringify(seen)}; change kinds ${JSON.stringify(kinds)}`
    )
    // The soak went through every kind of change, returns included.
    for (const k of ["price", "stock", "sizes", "photos", "description", "status", "new product"]) expect(kinds[k] ?? 0).toBeGreaterThan(0)
    expect(seen).toEqual({
      sizesLeft: expect.any(Number),
      sizesReturned: expect.any(Number),
      productsLeft: expect.any(Number),
      productsReturned: expect.any(Number),
    })
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(0)
    expect(totals.removed).toBeGreaterThan(0)
  })
})
