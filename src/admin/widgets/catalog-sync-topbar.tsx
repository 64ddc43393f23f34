import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { chipBadge, chipShown, chipText, countsText, isMoving } from "../lib/progress"
import { useCatalogSyncProgress } from "../lib/use-progress"

/**
 * A chip in the dashboard's top bar ("Catalog sync 42 %"), linking to the plugin's page:
 * visible without scrolling on every page, where Medusa 2.21 puts the product-list widget after
 * the list. It reads the one progress view the sync page reads (use-progress.ts): the same
 * percent, the state's one name and what an ended run did for a while after it ends ("100 % · succeeded" for a pass of known length, "succeeded · 12 updated" for a changes run), and no pulsing dot unless the run moves
 * (a refused key, a pause or a queued run are shown still). Renders nothing when no run is
 * worth showing or when the route fails, so it can never break the top bar.
 */
const CatalogSyncTopbarWidget = () => {
  const { view } = useCatalogSyncProgress()
  if (!chipShown(view)) return null
  const moving = isMoving(view)
  // The state's one colour, the badges' own (chipBadge: a refused key or plan is the sync's state whatever the run says).
  const tone = chipBadge(view).color
  const color = `var(--tag-${tone === "grey" ? "neutral" : tone}-icon)`
  return (
    <Link
      to="/catalog-sync"
      className="bg-ui-bg-subtle hover:bg-ui-bg-subtle-hover flex items-center gap-x-2 rounded-full border px-3 py-1"
      data-testid="catalog-sync-topbar"
      data-look={view.look}
      data-state={view.display.state}
      data-run-id={view.run_id}
      data-percent={view.percent ?? ""}
      data-read={view.read}
      data-written={view.written}
      title={countsText(view) ?? undefined}
    >
      <span
        className={`h-2 w-2 rounded-full${moving ? " animate-pulse" : ""}`}
        style={{ backgroundColor: color }}
        data-testid="catalog-sync-topbar-dot"
        data-moving={moving ? "true" : "false"}
      />
      <Text size="xsmall" weight="plus" className="tabular-nums">
        {chipText(view)}
      </Text>
    </Link>
  )
}

export const config = defineWidgetConfig({
  zone: "topbar",
})

export default CatalogSyncTopbarWidget
