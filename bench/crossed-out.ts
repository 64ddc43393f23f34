/**
 * `npm run bench -- crossed-out`: a shop of BENCH_CROSSED_OUT_PRODUCTS products (default 10,000) synced with
 * crossed-out prices on (markup 30 %, crossed-out as 20 % off), then the crossed-out price switched
 * off and on again, each switch timed to the end of the run it queues (goal: ≤ 30 s each):
 *  - through the pricing rules (the admin's pricing rules editor): a reprice run from the stored
 *    costs, no API request;
 *  - through the settings' `discount_percent` field (the API parameter of older versions, now
 *    folded into the rules' crossed-out price): a reprice run too, no API request.
 * Each switch prints the run's time, its write time (the app's per-page "wrote in N ms"), the
 * prices in the shop's sale price list after it (0 when off), the API requests, app CPU and load.
 * BENCH_CROSSED_OUT_VIA=rules (or api: the settings field) measures one way only.
 */
import { loadavg } from "node:os"
import { configure, sql } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop, type BenchShop } from "./bench-shop"
import { followRun, syncShop } from "./runs"
import { markLog } from "./page-writes"
import { cpuSeconds, sampleRss } from "./sync"

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

/** Selling prices below a crossed-out one: the prices of the sale price list. */
async function salePrices(databaseUrl: string): Promise<number> {
  const [row] = await sql(
    databaseUrl,
    `select count(*)::int as n from price p join price_list pl on pl.id = p.price_list_id
      where pl.type = 'sale' and p.deleted_at is null and pl.deleted_at is null`
  )
  return row.n
}

async function switchCrossedOut(shop: BenchShop, label: string, settings: Record<string, unknown>) {
  const { app, sb, db } = shop
  const requestsBefore = (sb.control.stats() as { requests: number }).requests
  const log = markLog(app)
  const rss = sampleRss(app.pid)
  const cpuBefore = cpuSeconds(app.pid)
  const saved = await configure(app, settings)
  if (!saved.run) throw new Error(`${label}: the settings queued no run: ${JSON.stringify(saved).slice(0, 400)}`)
  const { run, paused } = await followRun(app, saved.run.id)
  const cpu = cpuSeconds(app.pid) - cpuBefore
  const peak = rss.stop()
  const writes = log.since()
  const requests = (sb.control.stats() as { requests: number }).requests - requestsBefore
  const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
  const changed = run.progress?.prices_changed
  console.log(
    `${label}: ${run.mode} run over ${run.items_seen} products in ${seconds.toFixed(1)} s (goal ≤ 30 s)` +
      `${paused.length ? `, paused by the brake ${paused.length}× and confirmed` : ""}; ` +
      `${changed !== undefined ? `${changed} prices changed, ` : ""}updated ${run.updated}; ` +
      // A reprice run reads no pages (no wait for the catalog): its time is its write time.
      `${writes.pages ? `write time ${(writes.writeMs / 1000).toFixed(1)} s over ${writes.pages} pages` : "no page waits"}; sale price list now ${await salePrices(db.url)} prices; ` +
      `${requests} API requests; app CPU ${cpu.toFixed(1)} s; app peak RSS ${peak.toFixed(0)} MB; load ${load()}`
  )
  return { seconds, writeS: writes.pages ? writes.writeMs / 1000 : seconds }
}

export async function benchCrossedOut(): Promise<Record<string, number>> {
  const size = Number(process.env.BENCH_CROSSED_OUT_PRODUCTS ?? 10_000)
  const via = process.env.BENCH_CROSSED_OUT_VIA ?? "rules,api"
  const shop = await startBenchShop("bench-crossed-out", 11, size)
  const results: Record<string, number> = {}
  try {
    const full = await syncShop(shop, { discount_percent: "20" })
    console.log(`shop synced with crossed-out prices: ${full.created} products, sale price list ${await salePrices(shop.db.url)} prices; load ${load()}`)
    const record = (key: string, r: { seconds: number; writeS: number }) => ((results[`${key}_s`] = r.seconds), (results[`${key}_write_s`] = r.writeS))
    if (via.includes("rules")) {
      // The same prices as the API parameters (markup 30 %, 20 % off), as rules; then none and back.
      const rules = (crossedOut: object) => ({
        pricing_rules: { base_markup_percent: "30", overrides: [], rounding: { mode: "none", ending: null, direction: "nearest" }, crossed_out: crossedOut },
      })
      record("rules_off", await switchCrossedOut(shop, "crossed-out off (pricing rules)", rules({ type: "none" })))
      record("rules_on", await switchCrossedOut(shop, "crossed-out on (pricing rules)", rules({ type: "discount", discount_percent: "20" })))
    }
    if (via.includes("api")) {
      // The discount dropped and set again through the settings field, folded into the saved rules.
      record("api_off", await switchCrossedOut(shop, "crossed-out off (settings discount_percent)", { discount_percent: null }))
      record("api_on", await switchCrossedOut(shop, "crossed-out on (settings discount_percent)", { discount_percent: "20" }))
    }
    return results
  } finally {
    await shop.stop()
  }
}

if (require.main === module) {
  benchCrossedOut().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
