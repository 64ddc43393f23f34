import { Alert, Text } from "@medusajs/ui"
import { formatCount, formatDateTime } from "../lib/format"
import { planExpiry } from "../lib/status"
import type { AccountInfo } from "../lib/types"

/** The plan, its expiry and limits as /v1/me reports them (settings' "Test connection"). */
export const AccountSummary = ({ account }: { account: AccountInfo }) => {
  const expiry = planExpiry(account.plan_expires_at)
  const limits = account.limits
  return (
    <Alert variant={expiry === "expired" ? "warning" : "success"} data-testid="connection-result">
      <Text size="small" weight="plus">
        Connected · plan {account.plan ?? "none"} ·{" "}
        {account.plan_expires_at ? `${expiry === "expired" ? "expired" : "expires"} ${formatDateTime(account.plan_expires_at)}` : "no expiry"}
      </Text>
      <Text size="xsmall">
        Limits: {formatCount(limits.requests_per_minute)} requests a minute, {formatCount(limits.max_concurrent)} at once,{" "}
        {formatCount(limits.requests_per_day)} a day; {formatCount(limits.page_size_max)} products a page, {formatCount(limits.stock_batch_max)} per stock
        request. Used today: {formatCount(account.usage.requests_today)}.
      </Text>
    </Alert>
  )
}
