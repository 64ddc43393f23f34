import { Button, Input } from "@medusajs/ui"
import type { SyncSettings } from "../../../../lib/types"
import { DisconnectButton } from "./disconnect-button"
import { FormField } from "./form-field"
import type { FormState } from "./form-state"

export type ApiKeyFieldProps = {
  form: FormState
  saved: SyncSettings
  /** Whether a new key is being typed (always, until one is saved). */
  replacingKey: boolean
  setReplacingKey: (value: boolean) => void
}

/** The key: masked with "Replace" and "Disconnect" once saved; a password input while a new one is typed. */
export const ApiKeyField = ({ form, saved, replacingKey, setReplacingKey }: ApiKeyFieldProps) => (
  <FormField
    id="api_key"
    label="API key"
    error={form.errors.api_key}
    hint={
      replacingKey
        ? saved.api_key_set
          ? "Paste the new key. Left empty, the saved key is kept."
          : "No key saved, so no sync runs. Paste the key from the public API tab of your catalog profile."
        : "Saved. Replace it when you re-issue the key; Disconnect removes it."
    }
  >
    {replacingKey ? (
      <div className="flex items-center gap-x-2">
        <Input
          id="api_key"
          name="api_key"
          type="password"
          autoComplete="off"
          className="flex-1"
          placeholder="Your API key"
          value={form.values.api_key}
          aria-invalid={!!form.errors.api_key}
          onChange={(event) => form.set("api_key", event.target.value)}
        />
        {saved.api_key_set && (
          <Button
            type="button"
            size="small"
            variant="transparent"
            onClick={() => {
              form.set("api_key", "")
              setReplacingKey(false)
            }}
          >
            Keep saved
          </Button>
        )}
      </div>
    ) : (
      <div className="flex items-center gap-x-2">
        <Input id="api_key" className="flex-1" value={saved.api_key ?? "••••"} disabled data-testid="api-key-masked" />
        <Button type="button" size="small" variant="secondary" onClick={() => setReplacingKey(true)}>
          Replace
        </Button>
        <DisconnectButton saved={saved} />
      </div>
    )}
  </FormField>
)
