// GET /admin/catalog-sync/status: what the sync is doing and why. Never fails because the
// catalog API is unreachable (that shows as account_error).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { isConfigured } from "../../../../sync/settings"
import { isBlocked } from "../../../../queue/types"
import { RESUME_STALLED_CODE } from "../../../../queue/resume-bound"
import { cachedAccountAgreeingWithPlan, catalogSyncRuntime, catalogSyncService, publicAccount, serializeRun } from "../helpers"
import { expectedCatalogTotal } from "../../../../sync-run/expected-total"
import { requestsTodayFor } from "../progress/progress-of"
import { checkSyncOverdue } from "../../../../queue/sync-overdue-check"

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const service = catalogSyncService(req.scope)
  const settings = await service.getEffectiveSettings()
  const syncState = await service.getState()

  let runningRun = null
  let resumingRun = null
  let nextRunAt: Date | null = null
  let pausedRun = null
  try {
    const queue = await catalogSyncRuntime(req.scope).queue()
    pausedRun = await queue.pausedRun()
    const active = await queue.interruptDeadRunsAndListLive()
    runningRun = active.find((r) => r.status === "running") ?? active[0] ?? null
    // Interrupted work (a process died or the app stopped mid-run) that no run continues yet:
    // a worker resumes it as soon as one runs. Never "idle" meanwhile.
    if (!runningRun) resumingRun = await queue.pendingResume()
    nextRunAt = await queue.nextRunAt()
  } catch {
    // No Redis: no queue information.
  }
  const [lastRun] = await service.listCatalogSyncRuns({ status: ["succeeded", "failed", "interrupted"] }, { order: { created_at: "DESC" }, take: 1 })
  const [, productsSynced] = await service.listAndCountCatalogProductMaps({ status: "active" }, { take: 1, select: ["id"] })

  const configured = isConfigured(settings)
  const blocked = configured && isBlocked(syncState, settings)
  let state: string
  if (!configured) state = "not_configured"
  else if (!settings.enabled) state = "disabled"
  else if (blocked) state = syncState.blocked_code === "plan_required" ? "plan_required" : "key_invalid"
  else if (runningRun) state = "running"
  // The safety brake stopped a run: it waits for the admin's confirm or discard.
  else if (pausedRun) state = "paused"
  else if (resumingRun) state = "resuming"
  // Interrupted again and again without progress: not resumed automatically until a new run.
  else if (lastRun?.status === "interrupted" && lastRun.error_code === RESUME_STALLED_CODE) state = "stalled"
  else if (lastRun?.status === "failed") state = "failed"
  else state = "idle"
  // From PostgreSQL alone, so it is told while Redis (and with it the schedule) is gone.
  const overdue = await checkSyncOverdue({ service, settings, pollEveryMs: catalogSyncRuntime(req.scope).pollEveryMs(settings) })
  if (overdue.overdue && (state === "idle" || state === "failed")) state = "overdue"

  // A refusal (the key or the plan) known since the cached /v1/me answer makes it outdated: asked again.
  const refusal = blocked ? `${syncState.blocked_code}:${settings.revision}` : null
  const account = configured ? await cachedAccountAgreeingWithPlan(settings, req.scope.resolve("logger"), catalogSyncRuntime(req.scope).clients, refusal) : null
  // For the admin's percent and ETA of a running full pass (null: unknown, e.g. a first sync).
  const expected = runningRun ? await expectedCatalogTotal(req.scope, runningRun.started_at, runningRun.id) : { total: null, source: null }
  // The catalog's own count for the key (as GET /progress tells it): the one source of quota figures.
  const today = configured ? await requestsTodayFor(req.scope, settings) : null
  res.json({
    state,
    phase: syncState.phase,
    blocked: blocked ? { code: syncState.blocked_code, message: syncState.blocked_message } : null,
    running_run: serializeRun(runningRun),
    // The interrupted run whose work is pending (state "resuming"), else null.
    resuming_run: serializeRun(resumingRun),
    // State "paused": the run the safety brake stopped, with its preview (`paused.brake.preview`).
    paused: pausedRun ? { run_id: pausedRun.id, run: serializeRun(pausedRun), brake: pausedRun.brake } : null,
    last_run: serializeRun(lastRun),
    // A paused run holds every scheduled run until the admin answers it: no next run time meanwhile.
    next_run_at: configured && settings.enabled && !blocked && !pausedRun && nextRunAt ? nextRunAt.toISOString() : null,
    // No run started for over two poll intervals although one should have: since when.
    overdue: overdue.overdue ? { since: overdue.since.toISOString(), threshold_ms: overdue.thresholdMs } : null,
    products_synced: productsSynced,
    expected_total: expected.total,
    expected_total_source: expected.source,
    account: account?.account ? publicAccount(account.account) : null,
    account_error: account?.error ?? null,
    requests_today: today,
    quota: {
      rate_limit_remaining: account?.quota?.rateLimitRemaining ?? null,
      quota_remaining: today?.remaining ?? null,
    },
  })
}
