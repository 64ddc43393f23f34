import { Button, Hint, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import type { FieldError, PricingRules } from "../../../../../pricing"
import { catalogSyncApi, queryKeys } from "../../../../lib/api"
import { formatUah } from "../../../../lib/format"
import { formPricePreview } from "../../../../lib/settings-form"
import { ChoiceRadios, ChoiceSelect, FormField, TextField } from "./form-field"
import { FormSection } from "./form-section"
import type { FormState } from "./form-state"
import { PricingRulesEditor } from "./pricing-rules"

/** The rules editor's state, owned by the form (null: the server has no rules, the API markup applies). */
export type RulesState = { value: PricingRules; onChange: (next: PricingRules) => void; errors: FieldError[]; disabled?: boolean }

const PRICE_CALCULATIONS = [
  ["min", "Lowest cost (min)"],
  ["avg", "Average cost (avg)"],
  ["max", "Highest cost (max)"],
] as const

const CROSSED_OUT_MODES = [
  ["none", "None"],
  ["discount", "From a discount"],
  ["old_price_markup", "From a separate markup"],
] as const

/** Cost basis, markup, the crossed-out price, and an example price computed as the catalog would. */
export const PricingSection = ({
  form,
  pricingChange,
  rules,
  onUseRules,
}: {
  form: FormState
  pricingChange: boolean
  rules: RulesState | null
  /** Switches to the shop's own rules (given when the server supports them and none are saved). */
  onUseRules?: () => void
}) => {
  if (rules) return <RulesPricing form={form} pricingChange={pricingChange} rules={rules} />
  const { values, set } = form
  // No example for a value the form refuses: the error beside the field says why.
  const example = formPricePreview(values)
  return (
    <FormSection
      title="Pricing"
      description="How the shop's prices are computed from the catalog's cost. The plugin applies these rules to each size's cost and stores the prices in the shop."
    >
      <FormField id="price_calculation" label="Cost from several suppliers" hint="Which supplier cost a product's price starts from.">
        <ChoiceSelect
          id="price_calculation"
          value={values.price_calculation}
          onChange={(value) => set("price_calculation", value)}
          choices={PRICE_CALCULATIONS}
        />
      </FormField>
      <TextField form={form} field="markup_percent" label="Markup, %" hint="0 to 1000. Empty: the shop gets no prices." inputMode="decimal" placeholder="30" />
      <ChoiceRadios
        label="Crossed-out price"
        idPrefix="crossed_out_"
        value={values.crossed_out_mode}
        onChange={(value) => set("crossed_out_mode", value)}
        choices={CROSSED_OUT_MODES}
        className="flex flex-col gap-y-2 md:col-span-2"
        groupClassName="flex flex-wrap gap-x-6 gap-y-2"
      />
      {values.crossed_out_mode === "discount" && (
        <TextField
          form={form}
          field="discount_percent"
          label="Discount, %"
          hint="Crossed-out = price / (1 − discount). From 0, below 100."
          inputMode="decimal"
          placeholder="20"
        />
      )}
      {values.crossed_out_mode === "old_price_markup" && (
        <TextField
          form={form}
          field="old_price_markup_percent"
          label="Crossed-out markup, %"
          hint="Crossed-out = cost + this markup. 0 to 1000."
          inputMode="decimal"
          placeholder="60"
        />
      )}
      <div className="md:col-span-2">
        {example.ok ? (
          <Text size="small" className="text-ui-fg-subtle" data-testid="price-preview">
            Example: cost {formatUah(example.preview.cost)} → price {example.preview.price ? formatUah(example.preview.price) : "not set (no markup)"}
            {example.preview.oldPrice ? `, crossed out ${formatUah(example.preview.oldPrice)}` : ""}
          </Text>
        ) : (
          <Text size="small" className="text-ui-fg-subtle" data-testid="price-preview" data-refused="true">
            {example.reason}
          </Text>
        )}
        {pricingChange && (
          <Hint className="mt-1" data-testid="pricing-change-hint">
            Saving a pricing change starts a full resync.
          </Hint>
        )}
      </div>
      {onUseRules && (
        <div className="md:col-span-2">
          <Button type="button" size="small" variant="secondary" onClick={onUseRules} data-testid="pricing-use-rules">
            Use the shop's own pricing rules
          </Button>
          <Hint className="mt-1">Overrides by category, brand and cost band, rounding and a minimum margin, priced in the shop from the stored costs.</Hint>
        </div>
      )}
    </FormSection>
  )
}

/**
 * With the shop's own rules: the cost basis stays a catalog parameter (costs depend on it); the
 * markup, rounding, margin and crossed-out price are the rules, priced in the shop.
 */
const RulesPricing = ({ form, pricingChange, rules }: { form: FormState; pricingChange: boolean; rules: RulesState }) => {
  const references = useQuery({ queryKey: queryKeys.pricingReferences, queryFn: catalogSyncApi.getPricingReferences, staleTime: 60_000 })
  return (
    <>
      <FormSection
        title="Cost"
        description="Which supplier cost the shop's prices start from. The catalog sends each size's cost; the rules below turn it into prices."
      >
        <FormField id="price_calculation" label="Cost from several suppliers" hint="Costs depend on it: changing it fetches every product again (a full pass).">
          <ChoiceSelect
            id="price_calculation"
            value={form.values.price_calculation}
            onChange={(value) => form.set("price_calculation", value)}
            choices={PRICE_CALCULATIONS}
          />
        </FormField>
        {pricingChange && (
          <Hint className="self-end" data-testid="pricing-change-hint">
            Saving a new cost basis starts a full pass.
          </Hint>
        )}
      </FormSection>
      <PricingRulesEditor
        value={rules.value}
        onChange={rules.onChange}
        errors={rules.errors}
        disabled={rules.disabled}
        categories={references.data?.categories ?? []}
        brands={references.data?.brands ?? []}
      />
    </>
  )
}
