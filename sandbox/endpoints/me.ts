import { dataReply, type Reply } from "../reply"
import type { RequestContext } from "./context"

/** GET /v1/me: plan, limits and usage. Answers 200 for any valid key, even without API access. */
export function me({ state }: RequestContext): Reply {
  const now = state.now()
  return dataReply({
    data: {
      plan: state.plan,
      plan_expires_at: state.planExpiresAt,
      limits: {
        requests_per_minute: state.limiter.rpm,
        requests_per_day: state.quota.limit,
        page_size_max: 200,
        stock_batch_max: 200,
        max_concurrent: state.limiter.concurrency,
      },
      usage: { requests_today: state.quota.usedToday(now), quota_enforced: state.quota.enforced },
    },
  })
}
