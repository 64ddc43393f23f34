// Reads what syncOverdue judges from PostgreSQL only (it must work while Redis is gone): the
// latest run, the brake's pause, a refused key.
import type { EffectiveSettings } from "../sync/settings"
import { isConfigured } from "../sync/settings"
import { syncOverdue, type Overdue } from "../sync/sync-overdue"
import { isBlocked, type CatalogSyncModuleService } from "./types"

export type OverdueCheck = Overdue & { lastRunId: string | null }

export async function checkSyncOverdue(input: {
  service: Pick<CatalogSyncModuleService, "listCatalogSyncRuns" | "getState">
  settings: EffectiveSettings
  pollEveryMs: number
  now?: number
}): Promise<OverdueCheck> {
  const { service, settings } = input
  const [latest] = await service.listCatalogSyncRuns({}, { order: { created_at: "DESC" }, take: 1, select: ["id", "status", "created_at", "brake_resolution"] })
  const state = await service.getState()
  const busy = !!latest && (latest.status === "queued" || latest.status === "running" || (latest.status === "paused" && !latest.brake_resolution))
  const verdict = syncOverdue({
    expectedToRun: isConfigured(settings) && settings.enabled && !isBlocked(state, settings),
    busy,
    lastRunAt: latest?.created_at ? new Date(latest.created_at) : null,
    pollEveryMs: input.pollEveryMs,
    now: input.now ?? Date.now(),
  })
  return { ...verdict, lastRunId: latest?.id ?? null }
}
