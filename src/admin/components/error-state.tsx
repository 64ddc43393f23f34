import { Button, Text } from "@medusajs/ui"
import { describeError } from "../lib/errors"

/** What a section shows when its data could not be loaded; never throws. */
export const ErrorState = ({ error, onRetry, what }: { error: unknown; onRetry?: () => void; what: string }) => (
  <div className="flex flex-col items-start gap-y-2 px-6 py-4" data-testid="catalog-sync-error" role="alert">
    <Text size="small" weight="plus">
      {what} could not be loaded.
    </Text>
    <Text size="small" className="text-ui-fg-subtle">
      {describeError(error)}
    </Text>
    {onRetry && (
      <Button size="small" variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    )}
  </div>
)
