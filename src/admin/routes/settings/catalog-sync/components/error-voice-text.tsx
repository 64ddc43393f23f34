import { Text } from "@medusajs/ui"
import type { ErrorVoice } from "../../../../lib/errors"
import { ErrorDetails } from "../../../../components/error-details"

/** One error in the one voice: the sentence, then the code and request id once, folded under "Details". */
export const ErrorVoiceText = ({ voice }: { voice: Pick<ErrorVoice, "sentence" | "detail"> }) => (
  <div className="flex flex-col gap-y-1">
    <Text size="small" weight="plus" data-testid="error-sentence">
      {voice.sentence}
    </Text>
    <ErrorDetails detail={voice.detail} />
  </div>
)
