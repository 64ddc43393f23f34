import { Text } from "@medusajs/ui"
import { formatDuration } from "../../../lib/format"
import { changesLine, countsText, elapsedMs, etaText, progressHeadline, type ProgressView } from "../../../lib/progress"

const SOURCE_WORDS: Record<string, string> = {
  last_full_pass: "size of the last full pass",
  product_map: "products the shop holds from the catalog",
  stored_costs: "products with a stored cost",
}

/**
 * A run's progress as the one progress view tells it (GET /progress, src/sync/run-progress.ts):
 * products checked (priced, for a reprice) of the expected total, a bar as wide as the percent,
 * products read, pages, rate, what the run changed, the ETA once (from this run's own pace), a
 * timer ticking while the run moves, and the phase in words. The same view feeds the top bar's
 * chip, so both show the same figures.
 */
export const RunProgress = ({ view, now, receivedAt }: { view: ProgressView; now: number; receivedAt: number }) => {
  const headline = progressHeadline(view)
  const counts = countsText(view)
  const eta = etaText(view, now, receivedAt)
  const changes = changesLine(view)
  return (
    <div
      className="flex flex-col gap-y-2 px-6 py-4"
      data-testid="catalog-sync-progress"
      data-run-id={view.run_id}
      data-status={view.status}
      data-look={view.look}
      data-state={view.display.state}
      data-percent={view.percent ?? ""}
      data-read={view.read}
      data-written={view.written}
      data-done={view.written}
      data-total={view.total ?? ""}
      data-eta-ms={view.eta_ms === null ? "" : Math.round(view.eta_ms)}
    >
      <div className="flex items-center justify-between gap-x-2">
        <Text size="small" weight="plus">
          {headline.state}
          {headline.phase && (
            <>
              {" · "}
              <span data-testid="catalog-sync-phase">{headline.phase}</span>
            </>
          )}
        </Text>
        <Text size="small" className="text-ui-fg-subtle tabular-nums" data-testid="catalog-sync-elapsed">
          {formatDuration(elapsedMs(view, now, receivedAt))}
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
            style={{
              backgroundColor: view.look === "done" ? "var(--tag-green-icon)" : "var(--tag-blue-icon)",
              width: `${view.percent}%`,
              transition: "width 400ms ease-out",
            }}
          />
        </div>
      ) : null}
      {counts && (
        <Text size="small" className="text-ui-fg-subtle tabular-nums" data-testid="catalog-sync-progress-counts">
          {counts}
        </Text>
      )}
      {/* What it changed so far; once it finished, the counts line says what it changed. */}
      {changes && (
        <Text size="xsmall" className="text-ui-fg-muted" data-testid="catalog-sync-progress-changes">
          {changes}
          {view.total !== null && view.total_source && SOURCE_WORDS[view.total_source] ? ` · total from the ${SOURCE_WORDS[view.total_source]}` : ""}
        </Text>
      )}
      {eta && (
        <Text size="xsmall" className="text-ui-fg-muted" data-testid="catalog-sync-eta">
          {eta}
        </Text>
      )}
    </div>
  )
}
