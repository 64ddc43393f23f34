import { useQuery } from "@tanstack/react-query"
import { catalogSyncApi, queryKeys } from "./api"
import { isMoving, progressPollMs, type ProgressAnswer } from "./progress"
import { useNow } from "./use-now"

/**
 * The one progress view (GET /progress) for every screen: the chip, the product-list widget and
 * the sync page share one query, so they render the same answer; the run page asks for its run.
 * `now` ticks every second while the run moves; `receivedAt` is when the answer arrived (the ETA
 * and the timer count on from it). Polls every 2 s while a run goes or waits, else 15 s; 30 s after an error.
 */
export function useCatalogSyncProgress(runId?: string) {
  const query = useQuery({
    queryKey: runId ? [...queryKeys.progress, runId] : queryKeys.progress,
    queryFn: () => catalogSyncApi.getProgress(runId),
    retry: false,
    refetchInterval: (q) => (q.state.error ? 30_000 : progressPollMs(q.state.data?.progress)),
  })
  const answer: ProgressAnswer | undefined = query.data
  const now = useNow(isMoving(answer?.progress))
  // When this answer arrived, in this browser's clock (the server's as_of may be on another).
  const receivedAt = query.dataUpdatedAt || now
  return { query, view: answer?.progress ?? null, requestsToday: answer?.requests_today ?? null, now, receivedAt }
}
