import { Alert, Text } from "@medusajs/ui"
import { AccountSummary } from "../../../../components/account-summary"
import type { TestConnectionResult } from "../../../../lib/types"

/** What "Test connection" found: the account, or why it failed with the code and request id. */
export const ConnectionResult = ({ result }: { result: TestConnectionResult }) => {
  if (!result.ok) {
    return (
      <Alert variant="error" data-testid="connection-result">
        <Text size="small" weight="plus">
          Connection failed: {result.error.message}
        </Text>
        <Text size="xsmall">
          Code {result.error.code}
          {result.error.request_id ? ` · request ${result.error.request_id}` : ""}
        </Text>
      </Alert>
    )
  }
  return <AccountSummary account={result.account} />
}
