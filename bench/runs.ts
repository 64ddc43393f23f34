// Runs for the benchmarks: a first sync, and a run followed to its end through the safety brake.
import type { MedusaApp } from "../integration-tests/harness"
import { configure, waitForRun } from "../integration-tests/medusa/poll-and-query"
import type { BenchShop } from "./bench-shop"

/** Starts a run and waits for its end; a run the safety brake paused is confirmed and its continuation awaited. */
export async function runToEnd(app: MedusaApp, mode: "changes" | "full") {
  const res = await app.admin("/admin/catalog-sync/runs", { body: { mode } })
  if (res.status !== 202) throw new Error(`run refused: ${res.status} ${JSON.stringify(res.body)}`)
  return followRun(app, res.body.run.id)
}

export async function followRun(app: MedusaApp, runId: string) {
  let run = await waitForRun(app, runId, ["paused", "succeeded", "failed", "interrupted"], 3600_000)
  const paused: string[] = []
  while (run.status === "paused") {
    paused.push(run.id)
    const confirmed = await app.admin(`/admin/catalog-sync/runs/${run.id}/confirm`, { body: {} })
    if (confirmed.status !== 200) throw new Error(`confirm refused: ${confirmed.status} ${JSON.stringify(confirmed.body)}`)
    run = await waitForRun(app, confirmed.body.continued_by.id, ["paused", "succeeded", "failed", "interrupted"], 3600_000)
  }
  if (run.status !== "succeeded") throw new Error(`run ${run.mode} ${run.status}: ${run.error_message}`)
  return { run, paused }
}

export async function syncShop(shop: BenchShop, settings: Record<string, unknown> = {}) {
  const { app, sb } = shop
  const saved = await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30", ...settings })
  const { run } = await followRun(app, saved.run.id)
  return run
}
