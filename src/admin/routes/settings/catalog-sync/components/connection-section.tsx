import { Button } from "@medusajs/ui"
import { useMutation } from "@tanstack/react-query"
import { useState } from "react"
import { catalogSyncApi } from "../../../../lib/api"
import { errorVoice } from "../../../../lib/errors"
import { connectionErrors } from "../../../../lib/settings-form"
import { ApiKeyField, type ApiKeyFieldProps } from "./api-key-field"
import { ConnectionResult, type ConnectionOutcome } from "./connection-result"
import { TextField } from "./form-field"
import { FormSection } from "./form-section"

/**
 * Base URL and key, and "Test connection" with what the typed values reach. A mistake is worded
 * as Save words it: the same checks before sending, and errorVoice for the server's answer.
 */
export const ConnectionSection = (props: ApiKeyFieldProps) => {
  const { form } = props
  const [outcome, setOutcome] = useState<ConnectionOutcome | null>(null)
  const test = useMutation({
    mutationFn: (body: { base_url?: string; api_key?: string }) => catalogSyncApi.testConnection(body),
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => setOutcome(answer.ok ? { account: answer.account } : { voice: errorVoice(answer.error) }),
    onError: (error) => {
      const voice = errorVoice(error)
      if (voice.field) form.showErrors({ [voice.field]: voice.sentence })
      setOutcome({ voice })
    },
  })

  const run = () => {
    const typed = { base_url: form.values.base_url, api_key: props.replacingKey ? form.values.api_key : "" }
    const errors = connectionErrors(typed)
    const first = Object.values(errors)[0]
    if (first) {
      form.showErrors(errors)
      setOutcome({ voice: { sentence: first, detail: null, field: Object.keys(errors)[0], code: null } })
      return
    }
    const body: { base_url?: string; api_key?: string } = {}
    if (typed.base_url.trim()) body.base_url = typed.base_url.trim()
    if (typed.api_key.trim()) body.api_key = typed.api_key.trim()
    test.mutate(body)
  }

  return (
    <FormSection title="Connection" description="The catalog API address and your key. The key is stored encrypted and never shown again.">
      <TextField form={form} field="base_url" label="Base URL" hint="Without /v1, e.g. https://api.example.com" placeholder="https://api.example.com" />
      <ApiKeyField {...props} />
      <div className="flex flex-col gap-y-3 md:col-span-2">
        <div>
          <Button type="button" size="small" variant="secondary" isLoading={test.isPending} onClick={run} data-testid="test-connection">
            Test connection
          </Button>
        </div>
        {outcome && <ConnectionResult outcome={outcome} />}
      </div>
    </FormSection>
  )
}
