import { Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** One label/value row in the dashboard's two-column section style. */
export const KeyValue = ({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) => (
  <div className="text-ui-fg-subtle grid grid-cols-2 items-center px-6 py-3" data-testid={testId}>
    <Text size="small" weight="plus" leading="compact">
      {label}
    </Text>
    <div className="text-ui-fg-base txt-small">{children}</div>
  </div>
)
