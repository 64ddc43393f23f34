import { Alert } from "@medusajs/ui"
import { AccountSummary } from "../../../../components/account-summary"
import type { ErrorVoice } from "../../../../lib/errors"
import type { AccountInfo } from "../../../../lib/types"
import { ErrorVoiceText } from "./error-voice-text"

/** What "Test connection" found: the account, or why it failed (errorVoice: the sentence, the code once). */
export type ConnectionOutcome = { account: AccountInfo; voice?: undefined } | { voice: ErrorVoice; account?: undefined }

export const ConnectionResult = ({ outcome }: { outcome: ConnectionOutcome }) => {
  if (outcome.voice) {
    return (
      <Alert variant="error" data-testid="connection-result" data-code={outcome.voice.code ?? ""}>
        <ErrorVoiceText voice={outcome.voice} />
      </Alert>
    )
  }
  return <AccountSummary account={outcome.account} />
}
