import { Skeleton } from "@medusajs/ui"

export const LoadingState = ({ rows = 3 }: { rows?: number }) => (
  <div className="flex flex-col gap-y-3 px-6 py-4" aria-busy="true" data-testid="catalog-sync-loading">
    {Array.from({ length: rows }, (_, index) => (
      <Skeleton key={index} className="h-5 w-full" />
    ))}
  </div>
)
