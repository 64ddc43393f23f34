import { Text } from "@medusajs/ui"
import { formatCount } from "../lib/format"
import type { Run } from "../lib/types"

// "Removed" counts the sweep's removals too, as the history's column and the progress line do.
const COUNTS: { key: keyof Run; label: string; plus?: keyof Run }[] = [
  { key: "created", label: "Created" },
  { key: "updated", label: "Updated" },
  { key: "stock_only", label: "Stock only" },
  { key: "unchanged", label: "Unchanged" },
  { key: "removed", label: "Removed", plus: "swept" },
  { key: "skipped", label: "Rejected" },
]

/** The counts of a run as a compact grid of figures. */
export const RunCounts = ({ run, testId }: { run: Run; testId?: string }) => (
  <div className="grid grid-cols-3 gap-3" data-testid={testId}>
    {COUNTS.map(({ key, label, plus }) => (
      <div key={key} className="flex flex-col">
        <Text size="xsmall" className="text-ui-fg-muted">
          {label}
        </Text>
        <Text size="small" weight="plus" data-testid={`count-${key}`}>
          {formatCount(((run[key] as number) ?? 0) + (plus ? ((run[plus] as number) ?? 0) : 0))}
        </Text>
      </div>
    ))}
  </div>
)
