// GET /admin/catalog-sync/history?days=(list window, 1-365)&status=&trigger=&had_changes=&tz=&limit=&offset=
// The run history folded (quiet runs: one row per day) and filtered, plus products changed per
// day. Folded on the server: a day's quiet runs must all be seen to fold them, which a page of
// /runs cannot; 30 days of 10-minute polls are ~4,300 small rows (counts only are read).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { CATALOG_SYNC_MODULE } from "../../../../modules/catalog_sync/module-name"
import { invalidData, pagingFields, zodFieldErrors } from "../helpers"
import { changesPerDay, foldHistory, hadChanges, isTimeZone, type HistoryRun } from "./fold"

const list = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean)
    )
    .pipe(z.array(z.enum(values)))

export const historyQuerySchema = z
  .object({
    days: z.coerce.number().int().min(1).max(365).default(30),
    status: list(["queued", "running", "paused", "succeeded", "failed", "interrupted"]).optional(),
    trigger: list(["schedule", "manual", "settings", "retry"]).optional(),
    had_changes: z.enum(["true", "false"]).optional(),
    tz: z.string().max(64).refine(isTimeZone, "must be an IANA time zone, e.g. Europe/Kyiv").default("UTC"),
    ...pagingFields(),
  })
  .strict()

/** At most this many runs are read for one answer (a year of 10-minute polls is ~52,000: the window is cut, `truncated`). */
const MAX_RUNS = 10_000
/** The chart's days, whatever the list's window. */
const CHART_DAYS = 30

type Service = { listCatalogSyncRuns(filter: unknown, config: unknown): Promise<HistoryRun[]> }

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const parsed = historyQuerySchema.safeParse(req.query ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error as z.ZodError))
  const q = parsed.data
  const now = new Date()
  const listSince = now.getTime() - q.days * 86_400_000
  const since = new Date(Math.min(listSince, now.getTime() - CHART_DAYS * 86_400_000))
  const service = req.scope.resolve<Service>(CATALOG_SYNC_MODULE)
  const runs = await service.listCatalogSyncRuns(
    { created_at: { $gte: since } },
    {
      order: { created_at: "DESC" },
      take: MAX_RUNS,
      select: [
        "id",
        "status",
        "trigger",
        "mode",
        "started_at",
        "finished_at",
        "created_at",
        "created",
        "updated",
        "stock_only",
        "removed",
        "swept",
        "skipped",
        "error_code",
        "pages",
        "items_seen",
        // The run's state on every screen reads the brake's answer and the run that continues it.
        "brake_resolution",
        "progress",
      ],
    }
  )
  const filtered = runs.filter(
    (r) =>
      new Date(r.created_at).getTime() >= listSince &&
      (!q.status || q.status.includes(r.status as never)) &&
      (!q.trigger || q.trigger.includes(r.trigger as never)) &&
      (q.had_changes === undefined || hadChanges(r) === (q.had_changes === "true"))
  )
  const rows = foldHistory(filtered, q.tz)
  res.json({
    rows: rows.slice(q.offset, q.offset + q.limit),
    count: rows.length,
    runs_count: filtered.length,
    limit: q.limit,
    offset: q.offset,
    time_zone: q.tz,
    // The chart follows the status and trigger filters, not had_changes (quiet days show as 0).
    per_day: changesPerDay(
      runs.filter((r) => (!q.status || q.status.includes(r.status as never)) && (!q.trigger || q.trigger.includes(r.trigger as never))),
      {
        days: CHART_DAYS,
        now,
        timeZone: q.tz,
      }
    ),
    truncated: runs.length >= MAX_RUNS,
  })
}
