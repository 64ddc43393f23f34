// Test helpers: polling the admin API until a condition holds, and reading rows directly with SQL.
import type { MedusaApp } from "../harness"

export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 120_000, everyMs = 300): Promise<T> {
  const started = Date.now()
  let last: unknown
  while (Date.now() - started < timeoutMs) {
    try {
      const value = await fn()
      if (value) return value as T
    } catch (e) {
      last = e
    }
    await new Promise((r) => setTimeout(r, everyMs))
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`)
}

export async function waitForRun(app: MedusaApp, runId: string, statuses = ["succeeded", "failed", "interrupted"], timeoutMs = 180_000) {
  let seen = "not read"
  try {
    return await waitFor(
      `run ${runId} to reach ${statuses.join("/")}`,
      async () => {
        const res = await app.admin(`/admin/catalog-sync/runs/${runId}`)
        const run = res.body?.run
        seen = run ? `${run.status} (phase ${run.phase ?? "-"}, pages ${run.pages ?? "-"}, error ${run.error_code ?? "-"})` : `HTTP ${res.status}`
        return statuses.includes(run?.status) ? run : null
      },
      timeoutMs
    )
  } catch (e) {
    // Say where the run stood: a run stuck paused and one stuck running are different defects.
    throw new Error(`${(e as Error).message}; last seen: ${seen}`)
  }
}

export { sql } from "../harness/database"

export async function configure(app: MedusaApp, body: Record<string, unknown>) {
  const res = await app.admin("/admin/catalog-sync/settings", { body })
  if (res.status !== 200) throw new Error(`settings refused: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}
