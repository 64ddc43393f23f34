import { Text } from "@medusajs/ui"
import { formatCount, formatDuration } from "../../../lib/format"
import { modeLabel, runStatusBadge } from "../../../lib/status"
import { progressOfRun, type TotalSource } from "../../../lib/progress"
import type { Run } from "../../../lib/types"
import { useNow } from "../../../lib/use-now"

const SOURCE_WORDS: Record<TotalSource, string> = {
  last_full_pass: "size of the last full pass",
  product_map: "products the shop holds from the catalog",
  account: "the catalog account's figure",
}

/**
 * A run's real progress: done of the expected total, a bar as wide as the percent (no pulse),
 * pages, rate, ETA, a timer re-rendered every second, and the phase in words. With no total
 * (a first sync, a changes run) the bar is replaced by what was read and found so far.
 */
export const RunProgress = ({
  run,
  phase,
  expectedTotal,
  totalSource,
}: {
  run: Run
  phase?: string | null
  expectedTotal?: number | null
  totalSource?: TotalSource | null
}) => {
  const live = run.status === "running" || run.status === "queued"
  const now = useNow(live)
  const view = progressOfRun(run, { now, phase, expectedTotal: expectedTotal ?? null, totalSource: totalSource ?? null })
  const title = run.status === "queued" ? "Waiting to start" : live ? `${modeLabel(run.mode)} running` : `${modeLabel(run.mode)} · ${runStatusBadge(run.status).label}`
  return (
    <div
      className="flex flex-col gap-y-2 px-6 py-4"
      data-testid="catalog-sync-progress"
      data-status={run.status}
      data-percent={view.percent ?? ""}
      data-done={view.done}
      data-total={view.total ?? ""}
      data-eta-ms={view.etaMs === null ? "" : Math.round(view.etaMs)}
    >
      <div className="flex items-center justify-between gap-x-2">
        <Text size="small" weight="plus">
          {title} · <span data-testid="catalog-sync-phase">{view.phaseText}</span>
        </Text>
        <Text size="small" className="text-ui-fg-subtle tabular-nums" data-testid="catalog-sync-elapsed">
          {formatDuration(view.elapsedMs)}
        </Text>
      </div>
      {view.percent !== null ? (
        <div
          className="h-2 w-full overflow-hidden rounded-full"
          style={{ backgroundColor: "var(--bg-switch-off)" }}
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={view.percent}
          aria-label={`${view.percent} % done`}
        >
          <div
            className="h-full rounded-full"
            data-testid="catalog-sync-progress-bar"
            style={{ backgroundColor: "var(--tag-blue-icon)", width: `${view.percent}%`, transition: "width 400ms ease-out" }}
          />
        </div>
      ) : null}
      <Text size="small" className="text-ui-fg-subtle tabular-nums" data-testid="catalog-sync-progress-counts">
        {view.summary}
      </Text>
      {live && (
        <Text size="xsmall" className="text-ui-fg-muted" data-testid="catalog-sync-eta">
          {view.etaMs !== null
            ? `Estimated time left: ${formatDuration(view.etaMs)}`
            : view.total === null
              ? run.mode === "changes" && view.phaseText !== "Reading the whole catalog"
                ? "A changes run reads only what changed: its length is not known in advance."
                : "First full pass: the catalog's size is not known yet, so there is no estimate."
              : "Estimating…"}
          {view.total !== null && totalSource ? ` · total from the ${SOURCE_WORDS[totalSource]}` : ""}
          {` · ${formatCount(run.created)} created · ${formatCount(run.updated + run.stock_only)} updated · ${formatCount(run.removed)} removed`}
          {run.skipped ? ` · ${formatCount(run.skipped)} rejected` : ""}
          {run.progress?.restarts ? ` · restarted ${formatCount(run.progress.restarts as number)}×` : ""}
        </Text>
      )}
    </div>
  )
}
