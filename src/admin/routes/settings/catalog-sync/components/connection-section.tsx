import { Button } from "@medusajs/ui"
import { useMutation } from "@tanstack/react-query"
import { useState } from "react"
import { catalogSyncApi } from "../../../../lib/api"
import { describeError } from "../../../../lib/errors"
import type { TestConnectionResult } from "../../../../lib/types"
import { ApiKeyField, type ApiKeyFieldProps } from "./api-key-field"
import { ConnectionResult } from "./connection-result"
import { TextField } from "./form-field"
import { FormSection } from "./form-section"

/** Base URL and key, and "Test connection" with what the typed values reach. */
export const ConnectionSection = (props: ApiKeyFieldProps) => {
  const { form } = props
  const [result, setResult] = useState<TestConnectionResult | null>(null)
  const test = useMutation({
    mutationFn: () => {
      const body: { base_url?: string; api_key?: string } = {}
      if (form.values.base_url.trim()) body.base_url = form.values.base_url.trim()
      if (form.values.api_key.trim()) body.api_key = form.values.api_key.trim()
      return catalogSyncApi.testConnection(body)
    },
    onMutate: () => setResult(null),
    onSuccess: (answer) => setResult(answer),
    onError: (error) =>
      setResult({ ok: false, error: { code: "request_failed", message: describeError(error) } }),
  })

  return (
    <FormSection title="Connection" description="The catalog API address and your key. The key is stored encrypted and never shown again.">
      <TextField form={form} field="base_url" label="Base URL" hint="Without /v1, e.g. https://api.example.com" placeholder="https://api.example.com" />
      <ApiKeyField {...props} />
      <div className="flex flex-col gap-y-3 md:col-span-2">
        <div>
          <Button
            type="button"
            size="small"
            variant="secondary"
            isLoading={test.isPending}
            onClick={() => test.mutate()}
            data-testid="test-connection"
          >
            Test connection
          </Button>
        </div>
        {result && <ConnectionResult result={result} />}
      </div>
    </FormSection>
  )
}
