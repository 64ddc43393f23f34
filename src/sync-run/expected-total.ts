// The catalog's expected size for a running full pass, so the admin can show a percent and an
// ETA. The catalog API tells no size (not /v1/me, not the changes feed), so it comes from what
// the shop already knows: the last complete full pass's product count, else the number of
// products the shop holds from the catalog. A first sync has neither: the total is unknown.
import type { MedusaContainer } from "@medusajs/framework/types"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"

export type ExpectedTotal = { total: number | null; source: "last_full_pass" | "product_map" | null }

type RunLike = {
  id?: string
  status?: string
  items_seen?: number | null
  progress?: unknown
  created?: number | null
  removed?: number | null
  swept?: number | null
  /** The admin's answer to a brake pause: a discard leaves products the catalog removed in the shop. */
  brake_resolution?: unknown
}

const n = (value: number | null | undefined) => (typeof value === "number" && Number.isFinite(value) ? value : 0)

/** Products the catalog removed that a discarded brake pause left in the shop. */
function discardedRemovals(run: RunLike): number {
  const answer = (run.brake_resolution ?? null) as { action?: unknown; removals?: unknown } | null
  return answer?.action === "discarded" && typeof answer.removals === "number" ? answer.removals : 0
}

/**
 * Pure choice: a full pass's count beats the product map (which lags removals), moved on by what
 * the runs since it created and removed (removals the admin discarded included: the catalog no
 * longer has them), so a catalog that shrank is not measured by its old size.
 */
export function chooseExpectedTotal(lastFullPass: RunLike | null, productMapCount: number, runsSince: readonly RunLike[] = []): ExpectedTotal {
  const seen = lastFullPass?.items_seen
  if (typeof seen === "number" && seen > 0) {
    const moved = runsSince.reduce((sum, run) => sum + n(run.created) - n(run.removed) - n(run.swept) - discardedRemovals(run), 0)
    const total = seen + moved
    if (total > 0) return { total, source: "last_full_pass" }
  }
  if (productMapCount > 0) return { total: productMapCount, source: "product_map" }
  return { total: null, source: null }
}

/**
 * A run read the whole catalog when it worked in a pass (progress.pass_id) from its start:
 * a resumed run read only the rest of its pass, so its count is not the catalog's size.
 */
export function isWholePass(run: RunLike): boolean {
  const p = (run.progress ?? null) as { pass_id?: unknown; resumed?: unknown; restarts?: unknown } | null
  return !!p && typeof p.pass_id === "string" && !p.resumed
}

type Service = {
  listCatalogSyncRuns(filter: unknown, config: unknown): Promise<RunLike[]>
  listAndCountCatalogProductMaps(filter: unknown, config: unknown): Promise<[unknown[], number]>
}

/**
 * `runStartedAt`: the running run's start. Only products the shop held before it count, so a
 * first sync (whose map grows page by page) has no total rather than a total that chases it.
 */
export async function expectedCatalogTotal(scope: MedusaContainer, runStartedAt: Date | string | null | undefined, runId?: string): Promise<ExpectedTotal> {
  const service = scope.resolve<Service>(CATALOG_SYNC_MODULE)
  // The last 50 succeeded runs hold a full pass unless ~8 hours of 10-minute polls came after it.
  const before = runStartedAt ? new Date(runStartedAt) : new Date()
  // Every run, whatever its end: a paused, failed or interrupted run's written pages count too.
  const recent = await service.listCatalogSyncRuns(
    {},
    { order: { created_at: "DESC" }, take: 50, select: ["id", "status", "items_seen", "progress", "created", "removed", "swept", "brake_resolution"] }
  )
  // Never the running run itself: it may succeed between the caller's read of it as running and
  // this query, and would then be its own "last full pass" (a first sync read 1,500 of 1,500, 99 %).
  const others = recent.filter((run) => run.id !== runId)
  const at = others.findIndex((run) => run.status === "succeeded" && isWholePass(run))
  const [, mapCount] = await service.listAndCountCatalogProductMaps({ status: ["active", "draft"], created_at: { $lt: before } }, { take: 1, select: ["id"] })
  return chooseExpectedTotal(at >= 0 ? others[at] : null, mapCount, at >= 0 ? others.slice(0, at) : [])
}

/**
 * The last full pass that reached its end (a run that finished a pass, resumed or not): its id,
 * as the product map's last_seen_pass holds it, and when it ended. Null before any.
 */
export async function lastCompletedPass(scope: MedusaContainer): Promise<{ passId: string; finishedAt: string | null } | null> {
  const service = scope.resolve<Service>(CATALOG_SYNC_MODULE)
  const recent = (await service.listCatalogSyncRuns(
    { status: "succeeded" },
    { order: { created_at: "DESC" }, take: 50, select: ["id", "progress", "finished_at"] }
  )) as (RunLike & { finished_at?: Date | string | null })[]
  for (const run of recent) {
    const passId = ((run.progress ?? null) as { pass_id?: unknown } | null)?.pass_id
    if (typeof passId === "string") return { passId, finishedAt: run.finished_at ? new Date(run.finished_at).toISOString() : null }
  }
  return null
}
