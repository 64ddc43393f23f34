// A long list on the sync page shows its first few rows, so the run history below stays in
// reach; the toggle names the server's count, not the rows on screen.
import { Button } from "@medusajs/ui"
import { useState } from "react"
import { formatCount } from "../lib/format"
import { COLLAPSED_ROWS } from "../lib/show-all"

/** Whether the list is expanded, and the rows to render of `rows`. */
export function useShowAll<T>(rows: T[]): { expanded: boolean; toggle: () => void; shown: T[] } {
  const [expanded, setExpanded] = useState(false)
  return { expanded, toggle: () => setExpanded((e) => !e), shown: expanded ? rows : rows.slice(0, COLLAPSED_ROWS) }
}

/** "Show all 30" / "Show fewer"; nothing when the list fits collapsed. */
export const ShowAllToggle = ({
  total,
  expanded,
  toggle,
  testId,
  className,
}: {
  total: number
  expanded: boolean
  toggle: () => void
  testId: string
  className?: string
}) =>
  total > COLLAPSED_ROWS ? (
    <div className={className}>
      <Button type="button" size="small" variant="transparent" className="-ml-2" onClick={toggle} data-testid={testId} data-expanded={expanded}>
        {expanded ? "Show fewer" : `Show all ${formatCount(total)}`}
      </Button>
    </div>
  ) : null
