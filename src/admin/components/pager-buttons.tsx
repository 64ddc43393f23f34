import { Button } from "@medusajs/ui"

/** "Previous" and "Next" for a list shown a page at a time (pageIndex counts from 0). */
export const PagerButtons = ({
  pageIndex,
  pageCount,
  setPageIndex,
  testIdPrefix,
}: {
  pageIndex: number
  pageCount: number
  setPageIndex: (update: (index: number) => number) => void
  /** Names the buttons for tests: `${testIdPrefix}-previous` / `-next`. */
  testIdPrefix?: string
}) => (
  <div className="flex gap-x-2">
    <Button
      size="small"
      variant="secondary"
      disabled={pageIndex === 0}
      onClick={() => setPageIndex((p) => p - 1)}
      data-testid={testIdPrefix && `${testIdPrefix}-previous`}
    >
      Previous
    </Button>
    <Button
      size="small"
      variant="secondary"
      disabled={pageIndex + 1 >= pageCount}
      onClick={() => setPageIndex((p) => p + 1)}
      data-testid={testIdPrefix && `${testIdPrefix}-next`}
    >
      Next
    </Button>
  </div>
)
