import { Alert, Button, Text, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { catalogSyncApi, queryKeys } from "../../../../lib/api"
import { AdminApiError, errorVoice, type ErrorVoice } from "../../../../lib/errors"
import {
  cardOfApiField,
  formErrorsFromApi,
  keptKeyNotice,
  pricingDiffers,
  sameValues,
  savedToast,
  settingsBody,
  settingsToForm,
  validateSettingsForm,
  type FieldErrors,
  type OtherChanges,
  type SettingsFormValues,
} from "../../../../lib/settings-form"
import { filterBody, filterFieldOf, filterToForm, type FilterFormValues } from "../../../../lib/filter-form"
import { rulesDiffer, savedRules, splitRulesErrors } from "../../../../lib/pricing-rules-form"
import type { SyncSettings } from "../../../../lib/types"
import { formatRelative } from "../../../../lib/format"
import { type FieldError, type PricingRules, parsePricingRules } from "../../../../../pricing"
import { ConnectionSection } from "./connection-section"
import { ErrorVoiceText } from "./error-voice-text"
import type { FormState, SetField } from "./form-state"
import { PricingSection } from "./pricing-section"
import { ShopSection } from "./shop-section"
import { AlertsSection } from "./alerts-section"
import { BrakeSection, brakeFieldOf, brakeOf, type BrakeErrors } from "./brake-section"
import { FieldLocksSection, shopLocksBody, shopLocksOf, type ShopLocks } from "./field-locks-section"
import { FilterSection, type FilterErrors } from "./filter-section"
import type { BrakeSettings } from "../../../../lib/types"

/**
 * Every card of the settings page in one form with one Save at its end: the changed parts go in
 * one request (the server checks all of them before it stores any), and its refusals land beside
 * their fields in whichever card they belong to.
 */
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
  const [filter, setFilter] = useState<FilterFormValues>(() => filterToForm(saved.filter))
  const [filterErrors, setFilterErrors] = useState<FilterErrors>({})
  const [brake, setBrake] = useState<BrakeSettings>(() => brakeOf(saved))
  const [brakeErrors, setBrakeErrors] = useState<BrakeErrors>({})
  const [locks, setLocks] = useState<ShopLocks>(() => shopLocksOf(saved))
  const [locksError, setLocksError] = useState<string | null>(null)

  const set: SetField = (field, value) => {
    setValues((current) => ({ ...current, [field]: value }))
    setErrors((current) => ({ ...current, [field]: undefined }))
  }
  const form: FormState = { values, errors, set, showErrors: (found) => setErrors((current) => ({ ...current, ...found })) }
  const notice = (sentence: string): ErrorVoice => ({ sentence, detail: null, field: null, code: null })

  const prompt = usePrompt()
  const save = useMutation({
    mutationFn: (input: { body: Record<string, unknown>; keptKey: string | null; other: OtherChanges }) => catalogSyncApi.saveSettings(input.body),
    onSuccess: async (result, input) => {
      // What runs now, as the status reads after the save (a failed last sync is not "nothing runs").
      const sync = result.run
        ? null
        : await queryClient.fetchQuery({ queryKey: queryKeys.status, queryFn: catalogSyncApi.getStatus, staleTime: 0 }).catch(() => null)
      const said = savedToast(result, input.other, sync, (iso) => formatRelative(iso))
      toast.success(said.title, { description: said.description })
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
        const byCard: Record<"main" | "pricing_rules" | "filter" | "brake" | "field_locks", Record<string, string>> = {
          main: {},
          pricing_rules: {},
          filter: {},
          brake: {},
          field_locks: {},
        }
        for (const [field, message] of Object.entries(error.fieldErrors)) byCard[cardOfApiField(field)][field] = message
        setRulesErrors(splitRulesErrors(byCard.pricing_rules).rules)
        const found = formErrorsFromApi(byCard.main)
        if (voice.field && cardOfApiField(voice.field) === "main") found[voice.field.split(".").pop() || voice.field] = voice.sentence
        setErrors(found)
        const sentence = (text: string) => formErrorsFromApi({ x: text }).x ?? text
        const filterFound: FilterErrors = {}
        for (const [field, message] of Object.entries(byCard.filter)) {
          const own = filterFieldOf(field)
          if (own) filterFound[own] = sentence(message)
        }
        setFilterErrors(filterFound)
        const brakeFound: BrakeErrors = {}
        for (const [field, message] of Object.entries(byCard.brake)) {
          const own = brakeFieldOf(field)
          if (own) brakeFound[own] = sentence(message)
        }
        setBrakeErrors(brakeFound)
        const lockMessage = Object.values(byCard.field_locks)[0]
        setLocksError(lockMessage ? sentence(lockMessage) : null)
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
    // The rules editor holds its own check back until a field is left; a Save shows all of it.
    if (!checkedRules.ok) setRulesErrors(checkedRules.errors)
    if (Object.keys(found).length > 0 || !checkedRules.ok) {
      setFormError(notice("Some settings need fixing. See the messages beside the fields."))
      return
    }
    const body = settingsBody(values)
    if (rulesDiffer(rules, saved)) body.pricing_rules = checkedRules.rules
    // The other cards go only when changed, so a save of one card never rewrites another's.
    const other = changedCards()
    if (other.filter) body.filter = filterBody(filter)
    if (other.brake) body.brake = brake
    if (other.field_locks) body.field_locks = shopLocksBody(locks)
    save.mutate({ body, keptKey: keptKeyNotice(values, saved, replacingKey), other })
  }

  const changedCards = (): OtherChanges => ({
    filter: !sameValues(filterBody(filter), filterBody(filterToForm(saved.filter))),
    brake: !sameValues(brake, brakeOf(saved)),
    field_locks: !sameValues(shopLocksBody(locks), shopLocksBody(shopLocksOf(saved))),
  })

  const reset = () => {
    setValues(settingsToForm(saved))
    setErrors({})
    setFormError(null)
    setReplacingKey(!saved.api_key_set)
    setRules(savedRules(saved))
    setRulesErrors([])
    setFilter(filterToForm(saved.filter))
    setFilterErrors({})
    setBrake(brakeOf(saved))
    setBrakeErrors({})
    setLocks(shopLocksOf(saved))
    setLocksError(null)
  }

  // Only the cost basis needs the catalog again; the rules reprice locally.
  const pricingChange = saved.api_key_set && pricingDiffers(values, saved)
  const repricing = rulesDiffer(rules, saved)
  const other = changedCards()
  const dirty =
    repricing || other.filter || other.brake || other.field_locks || replacingKey !== !saved.api_key_set || !sameValues(values, settingsToForm(saved))

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-y-3">
      <ConnectionSection form={form} saved={saved} replacingKey={replacingKey} setReplacingKey={setReplacingKey} />
      <PricingSection
        form={form}
        pricingChange={pricingChange}
        rules={{ value: rules, onChange: changeRules, errors: rulesErrors, disabled: save.isPending }}
      />
      <ShopSection form={form} />
      <FilterSection
        values={filter}
        onChange={(next, field) => {
          setFilter(next)
          setFilterErrors((current) => ({ ...current, [field]: undefined }))
        }}
        errors={filterErrors}
        showErrors={(found) => setFilterErrors((current) => ({ ...current, ...found }))}
      />
      <FieldLocksSection
        value={locks}
        onChange={(next) => {
          setLocks(next)
          setLocksError(null)
        }}
        error={locksError}
      />
      <BrakeSection
        value={brake}
        onChange={(next, field) => {
          setBrake(next)
          setBrakeErrors((current) => ({ ...current, [field]: undefined }))
        }}
        errors={brakeErrors}
      />
      <AlertsSection form={form} />
      {/* The page's one Save, kept in view at the bottom as the dashboard's own edit forms do. */}
      <div
        className="bg-ui-bg-base shadow-elevation-card-rest sticky bottom-0 z-10 flex flex-col gap-y-3 rounded-lg px-6 py-4"
        data-testid="settings-footer"
        data-dirty={dirty ? "true" : "false"}
      >
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
        <div className="flex items-center justify-between gap-x-2">
          <Text size="small" className="text-ui-fg-subtle" data-testid="settings-dirty">
            {dirty ? "Unsaved changes. Save stores every card on this page at once." : "Everything on this page is saved."}
          </Text>
          <div className="flex items-center gap-x-2">
            <Button type="button" size="small" variant="secondary" onClick={reset} disabled={!dirty || save.isPending}>
              Reset
            </Button>
            <Button type="submit" size="small" isLoading={save.isPending} data-testid="settings-save">
              Save
            </Button>
          </div>
        </div>
      </div>
    </form>
  )
}
