// What GET /progress answers, gathered from the stored rows without calling the catalog or the
// queue (the top bar polls it on every page): the run's progress view (src/sync/run-progress.ts)
// and the requests the catalog counted today for the key.
import type { MedusaContainer } from "@medusajs/framework/types"
import { isConfigured } from "../../../../sync/settings"
import { isBlocked } from "../../../../queue/types"
import { progressView, type ProgressView } from "../../../../sync/run-progress"
import { quotaToday, type QuotaToday } from "../../../../sync/requests-today"
import { expectedCatalogTotal, type ExpectedTotal } from "../../../../sync-run/expected-total"
import { catalogSyncRuntime, catalogSyncService, serializeRun } from "../helpers"

export type ProgressAnswer = {
  progress: ProgressView | null
  requests_today: QuotaToday | null
  as_of: string
  // The rows themselves, as the route answered before the progress view (API consumers and specs read them; the screens read `progress`).
  running_run: ReturnType<typeof serializeRun>
  last_run: ReturnType<typeof serializeRun>
  expected_total: ExpectedTotal["total"]
  expected_total_source: ExpectedTotal["source"]
}

/**
 * The run shown: `runId` when given (null when it does not exist), else the running run, else
 * the latest run whatever its end (so a run that just ended reads 100 % and "done").
 */
export async function progressOf(scope: MedusaContainer, runId?: string): Promise<ProgressAnswer | null> {
  const service = catalogSyncService(scope)
  const newest = { order: { created_at: "DESC" }, take: 1 }
  let run
  if (runId) {
    ;[run] = await service.listCatalogSyncRuns({ id: runId }, { take: 1 })
    if (!run) return null
  } else {
    ;[run] = await service.listCatalogSyncRuns({ status: "running" }, newest)
    if (!run) [run] = await service.listCatalogSyncRuns({}, newest)
  }
  const settings = await service.getEffectiveSettings()
  const state = await service.getState()
  const configured = isConfigured(settings)
  const blocked = configured && isBlocked(state, settings) ? { code: state.blocked_code ?? null } : null
  const [[running], [last]] = await Promise.all([
    service.listCatalogSyncRuns({ status: ["running", "queued"] }, newest),
    service.listCatalogSyncRuns({ status: ["succeeded", "failed", "interrupted"] }, newest),
  ])
  const expected = running ? await expectedCatalogTotal(scope, running.started_at, running.id) : { total: null, source: null }
  const now = Date.now()
  return {
    progress: progressView({ run: run ?? null, blocked, now, configured, expected: run && running && run.id === running.id ? expected : null }),
    requests_today: await requestsTodayFor(scope, settings),
    as_of: new Date(now).toISOString(),
    running_run: serializeRun(running ?? null),
    last_run: serializeRun(last ?? null),
    expected_total: expected.total,
    expected_total_source: expected.source,
  }
}

/**
 * The catalog's own count for the key (src/sync/requests-today.ts): its daily limit from the plan
 * the last /v1/me of any holder of the key reported, unless the catalog's answers contradicted it
 * since (then not told); its remaining from the key's limiter; whether it refused a request today
 * for the quota. One source, the key's limiter, for the bar and the alerts alike.
 */
export async function requestsTodayFor(
  scope: MedusaContainer,
  settings: Awaited<ReturnType<ReturnType<typeof catalogSyncService>["getEffectiveSettings"]>>
): Promise<QuotaToday | null> {
  if (!isConfigured(settings) || !settings.apiKey) return null
  try {
    const limiter = catalogSyncRuntime(scope).clients.limiterFor(settings.apiKey)
    return quotaToday({
      plan: (await limiter.plan?.()) ?? null,
      remaining: (await limiter.quotaRemainingToday?.()) ?? null,
      refusedToday: (await limiter.quotaRefusedToday?.()) ?? false,
    })
  } catch {
    // No Redis, or a secret the client factory refuses: not known.
    return null
  }
}
