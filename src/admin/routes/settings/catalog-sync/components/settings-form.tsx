import { Alert, Button, Container, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { catalogSyncApi, queryKeys } from "../../../../lib/api"
import { AdminApiError, errorVoice, type ErrorVoice } from "../../../../lib/errors"
import {
  formErrorsFromApi,
  keptKeyNotice,
  pricingDiffers,
  settingsBody,
  settingsToForm,
  validateSettingsForm,
  type FieldErrors,
  type SettingsFormValues,
} from "../../../../lib/settings-form"
import { rulesDiffer, savedRules, splitRulesErrors } from "../../../../lib/pricing-rules-form"
import type { SyncSettings } from "../../../../lib/types"
import { type FieldError, type PricingRules, parsePricingRules } from "../../../../../pricing"
import { ConnectionSection } from "./connection-section"
import { ErrorVoiceText } from "./error-voice-text"
import type { FormState, SetField } from "./form-state"
import { PricingSection } from "./pricing-section"
import { ShopSection } from "./shop-section"
import { AlertsSection } from "./alerts-section"

/** The form's three sections, checked before sending; the API's refusals land beside their fields. */
export const SettingsForm = ({ saved }: { saved: SyncSettings }) => {
  const queryClient = useQueryClient()
  const [values, setValues] = useState<SettingsFormValues>(() => settingsToForm(saved))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<ErrorVoice | null>(null)
  const [replacingKey, setReplacingKey] = useState(!saved.api_key_set)
  // The shop's pricing rules: the one place for markup and crossed-out prices.
  const [rules, setRules] = useState<PricingRules>(() => savedRules(saved))
  const [rulesErrors, setRulesErrors] = useState<FieldError[]>([])
  const changeRules = (next: PricingRules) => {
    setRules(next)
    setRulesErrors([])
  }

  const set: SetField = (field, value) => {
    setValues((current) => ({ ...current, [field]: value }))
    setErrors((current) => ({ ...current, [field]: undefined }))
  }
  const form: FormState = { values, errors, set, showErrors: (found) => setErrors((current) => ({ ...current, ...found })) }
  const notice = (sentence: string): ErrorVoice => ({ sentence, detail: null, field: null, code: null })

  const prompt = usePrompt()
  const save = useMutation({
    mutationFn: (input: { body: Record<string, unknown>; keptKey: string | null; repricing: boolean }) => catalogSyncApi.saveSettings(input.body),
    onSuccess: (result, input) => {
      toast.success("Settings saved", {
        description: result.needs_full_pass
          ? "The cost basis changed: a full pass fetches every product's cost again."
          : input.repricing
            ? "The rules changed: the shop is being repriced from the stored costs, with no catalog requests."
            : result.run
              ? "A sync with the new settings has started."
              : "The next sync uses the new settings.",
      })
      // Said, not silently done: an emptied key field keeps the saved key.
      if (input.keptKey) toast.info("API key kept", { description: input.keptKey })
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: async (error, input) => {
      // A price guard tripped: nothing was saved. The admin confirms with the rules preview on
      // the page in front of them; Confirm sends the same change again, confirmed.
      if (error instanceof AdminApiError && error.status === 409 && error.type === "confirmation_required") {
        const confirmed = await prompt({
          title: "Confirm this price change",
          description: `${error.message.replace(/^Confirm the price change: /, "")}. Check the preview of the rules before you confirm.`,
          confirmText: "Confirm and save",
          cancelText: "Keep editing",
        })
        if (confirmed) save.mutate({ ...input, body: { ...input.body, confirm_price_guards: true } })
        else setFormError(notice("Not saved: the price change was not confirmed."))
        return
      }
      // One voice: a refusal from the catalog reads as Test connection reads it, the code once below.
      const voice = errorVoice(error)
      if (error instanceof AdminApiError && Object.keys(error.fieldErrors).length > 0) {
        const split = splitRulesErrors(error.fieldErrors)
        setRulesErrors(split.rules)
        const found = formErrorsFromApi(split.other)
        if (voice.field && !voice.field.startsWith("pricing_rules")) found[voice.field.split(".").pop() || voice.field] = voice.sentence
        setErrors(found)
        setFormError({ ...notice("Some settings were refused. See the messages beside the fields."), detail: voice.detail })
      } else {
        setFormError(voice)
      }
    },
  })

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault()
    setFormError(null)
    const found = validateSettingsForm(values, saved)
    setErrors(found)
    const checkedRules = parsePricingRules(rules)
    if (Object.keys(found).length > 0 || !checkedRules.ok) {
      setFormError(notice("Some settings need fixing. See the messages beside the fields."))
      return
    }
    const repricing = rulesDiffer(rules, saved)
    const body = settingsBody(values)
    if (repricing) body.pricing_rules = checkedRules.rules
    save.mutate({ body, keptKey: keptKeyNotice(values, saved, replacingKey), repricing })
  }

  const reset = () => {
    setValues(settingsToForm(saved))
    setErrors({})
    setFormError(null)
    setReplacingKey(!saved.api_key_set)
    setRules(savedRules(saved))
    setRulesErrors([])
  }

  // Only the cost basis needs the catalog again; the rules reprice locally.
  const pricingChange = saved.api_key_set && pricingDiffers(values, saved)
  const repricing = rulesDiffer(rules, saved)

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-y-3">
      <ConnectionSection form={form} saved={saved} replacingKey={replacingKey} setReplacingKey={setReplacingKey} />
      <PricingSection
        form={form}
        pricingChange={pricingChange}
        rules={{ value: rules, onChange: changeRules, errors: rulesErrors, disabled: save.isPending }}
      />
      <ShopSection form={form} />
      <AlertsSection form={form} />
      <Container className="flex flex-col gap-y-3 px-6 py-4">
        {formError && (
          <Alert variant="error" data-testid="settings-form-error">
            <ErrorVoiceText voice={formError} />
          </Alert>
        )}
        {pricingChange && (
          <Alert variant="warning" data-testid="pricing-change-warning">
            The cost basis changed. Costs depend on it, so saving starts a full pass: every product is fetched again. It uses about one request per 200 products
            of the daily quota.
          </Alert>
        )}
        {repricing && !pricingChange && (
          <Alert variant="info" data-testid="pricing-reprice-notice">
            The pricing rules changed. Saving reprices the shop from the stored costs: only the prices that move are written, with no catalog requests. Progress
            shows on the catalog sync page as a reprice run.
          </Alert>
        )}
        <div className="flex items-center justify-end gap-x-2">
          <Button type="button" size="small" variant="secondary" onClick={reset}>
            Reset
          </Button>
          <Button type="submit" size="small" isLoading={save.isPending} data-testid="settings-save">
            Save
          </Button>
        </div>
      </Container>
    </form>
  )
}
