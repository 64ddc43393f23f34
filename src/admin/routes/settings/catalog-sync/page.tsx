import { defineRouteConfig } from "@medusajs/admin-sdk"
import {
  Alert,
  Button,
  Container,
  Heading,
  Hint,
  Input,
  Label,
  RadioGroup,
  Select,
  Switch,
  Text,
  toast,
} from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState, type ReactNode } from "react"
import { Link } from "react-router-dom"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { AdminApiError, describeError } from "../../../lib/errors"
import { formatUah } from "../../../lib/format"
import { computePricePreview } from "../../../lib/price-preview"
import { sdk } from "../../../lib/sdk"
import {
  formErrorsFromApi,
  formPricing,
  pricingDiffers,
  settingsBody,
  settingsToForm,
  validateSettingsForm,
  POLL_INTERVAL_MAX,
  POLL_INTERVAL_MIN,
  type FieldErrors,
  type SettingsFormValues,
} from "../../../lib/settings-form"
import type { SyncSettings, TestConnectionResult } from "../../../lib/types"
import { ErrorState } from "../../../components/error-state"
import { LoadingState } from "../../../components/loading-state"
import { AccountSummary } from "../../../components/account-summary"
import { automaticLabel, ReadinessChecklist, useReadiness } from "./components/readiness-checklist"

// Radix Select items cannot have an empty value; this one means "not chosen".
const NONE = "__none__"

const CatalogSyncSettingsPage = () => {
  const settingsQuery = useQuery({
    queryKey: queryKeys.settings,
    queryFn: catalogSyncApi.getSettings,
    retry: 1,
  })

  return (
    <div className="flex flex-col gap-y-3" data-testid="catalog-sync-settings">
      <Container className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">Catalog sync</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Connect the reseller catalog and choose how its products and prices reach the shop.
          </Text>
        </div>
        <Button size="small" variant="secondary" asChild>
          <Link to="/settings/catalog-sync/runs">Run history</Link>
        </Button>
      </Container>
      <ReadinessChecklist />
      {settingsQuery.isPending ? (
        <Container className="p-0">
          <LoadingState rows={6} />
        </Container>
      ) : settingsQuery.isError ? (
        <Container className="p-0">
          <ErrorState what="The catalog sync settings" error={settingsQuery.error} onRetry={() => settingsQuery.refetch()} />
        </Container>
      ) : (
        // Remount on every saved revision so the form starts from what was stored.
        <SettingsForm key={settingsQuery.data.settings.revision} saved={settingsQuery.data.settings} />
      )}
    </div>
  )
}

const SettingsForm = ({ saved }: { saved: SyncSettings }) => {
  const queryClient = useQueryClient()
  const [values, setValues] = useState<SettingsFormValues>(() => settingsToForm(saved))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [replacingKey, setReplacingKey] = useState(!saved.api_key_set)

  const set = <K extends keyof SettingsFormValues>(field: K, value: SettingsFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }))
    setErrors((current) => ({ ...current, [field]: undefined }))
  }

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => catalogSyncApi.saveSettings(body),
    onSuccess: (result) => {
      toast.success("Settings saved", {
        description: result.pricing_changed
          ? "Prices changed: a full resync has started."
          : "The next sync uses the new settings.",
      })
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: (error) => {
      if (error instanceof AdminApiError && Object.keys(error.fieldErrors).length > 0) {
        setErrors(formErrorsFromApi(error.fieldErrors))
        setFormError("Some settings were refused. See the messages beside the fields.")
      } else {
        setFormError(describeError(error))
      }
    },
  })

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault()
    setFormError(null)
    const found = validateSettingsForm(values, saved)
    setErrors(found)
    if (Object.keys(found).length > 0) {
      setFormError("Some settings need fixing. See the messages beside the fields.")
      return
    }
    save.mutate(settingsBody(values))
  }

  const pricingChange = saved.api_key_set && pricingDiffers(values, saved)

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-y-3">
      <ConnectionSection
        saved={saved}
        values={values}
        errors={errors}
        set={set}
        replacingKey={replacingKey}
        setReplacingKey={setReplacingKey}
      />
      <PricingSection values={values} errors={errors} set={set} pricingChange={pricingChange} />
      <ShopSection values={values} errors={errors} set={set} />
      <Container className="flex flex-col gap-y-3 px-6 py-4">
        {formError && (
          <Alert variant="error" data-testid="settings-form-error">
            {formError}
          </Alert>
        )}
        {pricingChange && (
          <Alert variant="warning" data-testid="pricing-change-warning">
            The pricing changed. Saving starts a full resync: every product is fetched again and every price
            recalculated. It uses about one request per 200 products of the daily quota.
          </Alert>
        )}
        <div className="flex items-center justify-end gap-x-2">
          <Button
            type="button"
            size="small"
            variant="secondary"
            onClick={() => {
              setValues(settingsToForm(saved))
              setErrors({})
              setFormError(null)
              setReplacingKey(!saved.api_key_set)
            }}
          >
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

type SectionProps = {
  values: SettingsFormValues
  errors: FieldErrors
  set: <K extends keyof SettingsFormValues>(field: K, value: SettingsFormValues[K]) => void
}

const Field = ({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string
  label: string
  hint?: ReactNode
  error?: string
  children: ReactNode
}) => (
  <div className="flex flex-col gap-y-2" data-testid={`field-${id}`}>
    <Label size="small" weight="plus" htmlFor={id}>
      {label}
    </Label>
    {children}
    {error ? (
      <Hint variant="error" data-testid={`error-${id}`}>
        {error}
      </Hint>
    ) : hint ? (
      <Hint>{hint}</Hint>
    ) : null}
  </div>
)

const Section = ({ title, description, children }: { title: string; description: string; children: ReactNode }) => (
  <Container className="divide-y p-0">
    <div className="px-6 py-4">
      <Heading level="h2">{title}</Heading>
      <Text size="small" className="text-ui-fg-subtle">
        {description}
      </Text>
    </div>
    <div className="grid grid-cols-1 gap-4 px-6 py-4 md:grid-cols-2">{children}</div>
  </Container>
)

const ConnectionSection = ({
  saved,
  values,
  errors,
  set,
  replacingKey,
  setReplacingKey,
}: SectionProps & { saved: SyncSettings; replacingKey: boolean; setReplacingKey: (value: boolean) => void }) => {
  const [result, setResult] = useState<TestConnectionResult | null>(null)
  const test = useMutation({
    mutationFn: () => {
      const body: { base_url?: string; api_key?: string } = {}
      if (values.base_url.trim()) body.base_url = values.base_url.trim()
      if (values.api_key.trim()) body.api_key = values.api_key.trim()
      return catalogSyncApi.testConnection(body)
    },
    onMutate: () => setResult(null),
    onSuccess: (answer) => setResult(answer),
    onError: (error) =>
      setResult({ ok: false, error: { code: "request_failed", message: describeError(error) } }),
  })

  return (
    <Section title="Connection" description="The catalog API address and your key. The key is stored encrypted and never shown again.">
      <Field id="base_url" label="Base URL" error={errors.base_url} hint="Without /v1, e.g. https://api.example.com">
        <Input
          id="base_url"
          name="base_url"
          placeholder="https://api.example.com"
          value={values.base_url}
          aria-invalid={!!errors.base_url}
          onChange={(event) => set("base_url", event.target.value)}
        />
      </Field>
      <Field
        id="api_key"
        label="API key"
        error={errors.api_key}
        hint={replacingKey ? "Paste the key from the public API tab of your catalog profile." : "Saved. Replace it when you re-issue the key."}
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
              value={values.api_key}
              aria-invalid={!!errors.api_key}
              onChange={(event) => set("api_key", event.target.value)}
            />
            {saved.api_key_set && (
              <Button
                type="button"
                size="small"
                variant="transparent"
                onClick={() => {
                  set("api_key", "")
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
          </div>
        )}
      </Field>
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
    </Section>
  )
}

const ConnectionResult = ({ result }: { result: TestConnectionResult }) => {
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

const PricingSection = ({ values, errors, set, pricingChange }: SectionProps & { pricingChange: boolean }) => {
  const preview = computePricePreview(formPricing(values))
  return (
    <Section title="Pricing" description="How the shop's prices are computed from the catalog's cost. The catalog applies these rules and the shop stores the result.">
      <Field id="price_calculation" label="Cost from several suppliers" hint="Which supplier cost a product's price starts from.">
        <Select value={values.price_calculation} onValueChange={(value) => set("price_calculation", value as SettingsFormValues["price_calculation"])}>
          <Select.Trigger id="price_calculation">
            <Select.Value />
          </Select.Trigger>
          <Select.Content>
            <Select.Item value="min">Lowest cost (min)</Select.Item>
            <Select.Item value="avg">Average cost (avg)</Select.Item>
            <Select.Item value="max">Highest cost (max)</Select.Item>
          </Select.Content>
        </Select>
      </Field>
      <Field id="markup_percent" label="Markup, %" error={errors.markup_percent} hint="0 to 1000. Empty: the shop gets no prices.">
        <Input
          id="markup_percent"
          name="markup_percent"
          inputMode="decimal"
          placeholder="30"
          value={values.markup_percent}
          aria-invalid={!!errors.markup_percent}
          onChange={(event) => set("markup_percent", event.target.value)}
        />
      </Field>
      <div className="flex flex-col gap-y-2 md:col-span-2">
        <Label size="small" weight="plus">
          Crossed-out price
        </Label>
        <RadioGroup
          value={values.crossed_out_mode}
          onValueChange={(value) => set("crossed_out_mode", value as SettingsFormValues["crossed_out_mode"])}
          className="flex flex-wrap gap-x-6 gap-y-2"
        >
          {(
            [
              ["none", "None"],
              ["discount", "From a discount"],
              ["old_price_markup", "From a separate markup"],
            ] as const
          ).map(([value, label]) => (
            <div key={value} className="flex items-center gap-x-2">
              <RadioGroup.Item value={value} id={`crossed_out_${value}`} />
              <Label size="small" htmlFor={`crossed_out_${value}`}>
                {label}
              </Label>
            </div>
          ))}
        </RadioGroup>
      </div>
      {values.crossed_out_mode === "discount" && (
        <Field id="discount_percent" label="Discount, %" error={errors.discount_percent} hint="Crossed-out = price / (1 − discount). From 0, below 100.">
          <Input
            id="discount_percent"
            name="discount_percent"
            inputMode="decimal"
            placeholder="20"
            value={values.discount_percent}
            aria-invalid={!!errors.discount_percent}
            onChange={(event) => set("discount_percent", event.target.value)}
          />
        </Field>
      )}
      {values.crossed_out_mode === "old_price_markup" && (
        <Field
          id="old_price_markup_percent"
          label="Crossed-out markup, %"
          error={errors.old_price_markup_percent}
          hint="Crossed-out = cost + this markup. 0 to 1000."
        >
          <Input
            id="old_price_markup_percent"
            name="old_price_markup_percent"
            inputMode="decimal"
            placeholder="60"
            value={values.old_price_markup_percent}
            aria-invalid={!!errors.old_price_markup_percent}
            onChange={(event) => set("old_price_markup_percent", event.target.value)}
          />
        </Field>
      )}
      <div className="md:col-span-2">
        <Text size="small" className="text-ui-fg-subtle" data-testid="price-preview">
          Example: cost {formatUah(preview.cost)} → price {preview.price ? formatUah(preview.price) : "not set (no markup)"}
          {preview.oldPrice ? `, crossed out ${formatUah(preview.oldPrice)}` : ""}
        </Text>
        {pricingChange && (
          <Hint className="mt-1" data-testid="pricing-change-hint">
            Saving a pricing change starts a full resync.
          </Hint>
        )}
      </div>
    </Section>
  )
}

const ShopSection = ({ values, errors, set }: SectionProps) => {
  const locations = useQuery({
    queryKey: ["catalog-sync", "stock-locations"],
    queryFn: () => sdk.admin.stockLocation.list({ limit: 100, fields: "id,name" }),
    retry: 1,
  })
  const channels = useQuery({
    queryKey: ["catalog-sync", "sales-channels"],
    queryFn: () => sdk.admin.salesChannel.list({ limit: 100, fields: "id,name" }),
    retry: 1,
  })
  const readiness = useReadiness()

  return (
    <Section title="Shop" description="Where synced products go, how often the catalog is polled and what a removal in the catalog does.">
      <Field id="stock_location_id" label="Stock location" error={errors.stock_location_id} hint={locations.isError ? `Locations unavailable: ${describeError(locations.error)}` : "Stock from the catalog is kept here."}>
        <Picker
          id="stock_location_id"
          value={values.stock_location_id}
          onChange={(value) => set("stock_location_id", value)}
          loading={locations.isPending}
          emptyLabel={automaticLabel("stock_location", readiness.data)}
          options={(locations.data?.stock_locations ?? []).map((l) => ({ value: l.id, label: l.name }))}
        />
      </Field>
      <Field id="sales_channel_id" label="Sales channel" error={errors.sales_channel_id} hint={channels.isError ? `Channels unavailable: ${describeError(channels.error)}` : "Synced products are published in this channel."}>
        <Picker
          id="sales_channel_id"
          value={values.sales_channel_id}
          onChange={(value) => set("sales_channel_id", value)}
          loading={channels.isPending}
          emptyLabel={automaticLabel("sales_channel", readiness.data)}
          options={(channels.data?.sales_channels ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
      </Field>
      <Field
        id="poll_interval_minutes"
        label="Poll interval, minutes"
        error={errors.poll_interval_minutes}
        hint={`${POLL_INTERVAL_MIN} to ${POLL_INTERVAL_MAX}. Suppliers update about once an hour.`}
      >
        <Input
          id="poll_interval_minutes"
          name="poll_interval_minutes"
          type="number"
          min={POLL_INTERVAL_MIN}
          max={POLL_INTERVAL_MAX}
          value={values.poll_interval_minutes}
          aria-invalid={!!errors.poll_interval_minutes}
          onChange={(event) => set("poll_interval_minutes", event.target.value)}
        />
      </Field>
      <Field id="primary_language" label="Primary language" hint="Titles and descriptions in this language; the other one becomes a translation.">
        <Select value={values.primary_language} onValueChange={(value) => set("primary_language", value as SettingsFormValues["primary_language"])}>
          <Select.Trigger id="primary_language">
            <Select.Value />
          </Select.Trigger>
          <Select.Content>
            <Select.Item value="uk">Ukrainian</Select.Item>
            <Select.Item value="ru">Russian</Select.Item>
          </Select.Content>
        </Select>
      </Field>
      <div className="flex flex-col gap-y-2">
        <Label size="small" weight="plus">
          When the catalog removes a product
        </Label>
        <RadioGroup
          value={values.removal_mode}
          onValueChange={(value) => set("removal_mode", value as SettingsFormValues["removal_mode"])}
          className="flex flex-col gap-y-2"
        >
          <div className="flex items-center gap-x-2">
            <RadioGroup.Item value="delete" id="removal_delete" />
            <Label size="small" htmlFor="removal_delete">
              Delete it from the shop
            </Label>
          </div>
          <div className="flex items-center gap-x-2">
            <RadioGroup.Item value="draft" id="removal_draft" />
            <Label size="small" htmlFor="removal_draft">
              Keep it as a draft (hidden from the storefront)
            </Label>
          </div>
        </RadioGroup>
      </div>
      <div className="flex items-start gap-x-3">
        <Switch id="enabled" checked={values.enabled} onCheckedChange={(checked) => set("enabled", checked)} />
        <div className="flex flex-col">
          <Label size="small" weight="plus" htmlFor="enabled">
            Scheduled sync
          </Label>
          <Hint>Off: runs only when started by hand.</Hint>
        </div>
      </div>
    </Section>
  )
}

const Picker = ({
  id,
  value,
  onChange,
  options,
  loading,
  emptyLabel,
}: {
  id: string
  value: string
  onChange: (value: string) => void
  options: { value: string; label: string }[]
  loading: boolean
  emptyLabel: string
}) => {
  // Keep a saved id selectable even when the list failed to load.
  const known = value === "" || options.some((option) => option.value === value)
  return (
    <Select value={value === "" ? NONE : value} onValueChange={(next) => onChange(next === NONE ? "" : next)}>
      <Select.Trigger id={id}>
        <Select.Value placeholder={loading ? "Loading…" : emptyLabel} />
      </Select.Trigger>
      <Select.Content>
        <Select.Item value={NONE}>{emptyLabel}</Select.Item>
        {!known && <Select.Item value={value}>{value}</Select.Item>}
        {options.map((option) => (
          <Select.Item key={option.value} value={option.value}>
            {option.label}
          </Select.Item>
        ))}
      </Select.Content>
    </Select>
  )
}

export const config = defineRouteConfig({
  label: "Catalog sync",
})

export default CatalogSyncSettingsPage
