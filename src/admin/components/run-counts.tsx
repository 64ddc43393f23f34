import { Text } from "@medusajs/ui"
import { formatCount } from "../lib/format"
import { RUN_COUNT_FIELDS } from "../lib/history"
import type { Run } from "../lib/types"

/** The counts of a run as a compact grid of figures, named as the history's columns name them. */
export const RunCounts = ({ run, testId }: { run: Run; testId?: string }) => (
  <div className="grid grid-cols-3 gap-3" data-testid={testId}>
    {RUN_COUNT_FIELDS.map(({ key, label, value }) => (
      <div key={key} className="flex flex-col">
        <Text size="xsmall" className="text-ui-fg-muted">
          {label}
        </Text>
        <Text size="small" weight="plus" data-testid={`count-${key}`}>
          {formatCount(value(run))}
        </Text>
      </div>
    ))}
  </div>
)
