// Removals timed: BENCH_REMOVED products taken off sale at the sandbox, one changes run removes them.
import { loadavg } from "node:os"
import { configure, sql } from "../integration-tests/medusa/poll-and-query"
import type { BenchShop } from "./bench-shop"
import { runToEnd } from "./runs"
import { markLog } from "./page-writes"
import { cpuSeconds } from "./sync"

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

/**
 * Removes `count` products at the sandbox and times the changes sync that removes them in the shop.
 * The brake's removal threshold is raised to 100 % first, so one run removes them all (with the
 * default 20 % it would write removals up to the threshold, pause, and finish after the confirm).
 */
export async function timeRemovals(shop: BenchShop, count: number) {
  const { app, sb, db } = shop
  await configure(app, { brake: { remove_percent: "100" } })
  const ids = (await sql(db.url, "select catalog_id from mcs_product_map order by catalog_id limit $1", [count])).map((r) => String(r.catalog_id))
  sb.control.mutate({ remove_ids: ids })
  const cpuBefore = cpuSeconds(app.pid)
  const log = markLog(app)
  const { run, paused } = await runToEnd(app, "changes")
  const cpu = cpuSeconds(app.pid) - cpuBefore
  const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
  const writes = log.since()
  console.log(
    `removals: ${run.removed} products removed in ${seconds.toFixed(1)} s = ${(run.removed / seconds).toFixed(1)} removals/s ` +
      `(page writes ${(writes.writeMs / 1000).toFixed(1)} s over ${writes.pages} pages${paused.length ? `; paused ${paused.length}× and confirmed, the last run timed` : ""}); ` +
      `app CPU ${cpu.toFixed(1)} s; load ${load()} (goal: 5,000 in ≤ 25 s, ≥ 200 removals/s)`
  )
  return { removed: run.removed, seconds, writeS: writes.writeMs / 1000 }
}
