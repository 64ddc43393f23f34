import { Text } from "@medusajs/ui"
import type { BadgeColor } from "../lib/status"

// Theme variables of @medusajs/ui rather than utility classes: the dashboard's
// Tailwind build does not scan plugin sources, so unusual classes may not exist.
const FILL: Record<BadgeColor, string> = {
  green: "var(--tag-green-icon)",
  orange: "var(--tag-orange-icon)",
  red: "var(--tag-red-icon)",
  blue: "var(--tag-blue-icon)",
  grey: "var(--tag-neutral-icon)",
  purple: "var(--tag-purple-icon)",
}

/** A thin horizontal bar; `percent` null draws an indeterminate (pulsing) bar. */
export const UsageBar = ({ percent, color = "blue", label, testId }: { percent: number | null; color?: BadgeColor; label?: string; testId?: string }) => (
  <div className="flex flex-col gap-y-1" data-testid={testId}>
    <div
      className="h-2 w-full overflow-hidden rounded-full"
      style={{ backgroundColor: "var(--bg-switch-off)" }}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-label={label}
    >
      <div
        className={`h-full rounded-full ${percent === null ? "animate-pulse" : ""}`}
        style={{
          backgroundColor: FILL[color],
          // No total is known while a run goes: a pulsing part-bar says "busy", not "done".
          width: `${percent === null ? 35 : Math.max(percent, percent > 0 ? 2 : 0)}%`,
        }}
      />
    </div>
    {label && (
      <Text size="xsmall" className="text-ui-fg-subtle">
        {label}
      </Text>
    )}
  </div>
)
