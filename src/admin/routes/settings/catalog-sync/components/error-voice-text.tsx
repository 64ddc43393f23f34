import { Text } from "@medusajs/ui"
import type { ErrorVoice } from "../../../../lib/errors"

/** One error in the one voice: the sentence, then the code and request id once, smaller. */
export const ErrorVoiceText = ({ voice }: { voice: Pick<ErrorVoice, "sentence" | "detail"> }) => (
  <div className="flex flex-col gap-y-1">
    <Text size="small" weight="plus" data-testid="error-sentence">
      {voice.sentence}
    </Text>
    {voice.detail && (
      <Text size="xsmall" className="text-ui-fg-subtle" data-testid="error-detail">
        {voice.detail}
      </Text>
    )}
  </div>
)
