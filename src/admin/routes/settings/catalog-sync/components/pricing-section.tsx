import { Hint } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import type { FieldError, PricingRules } from "../../../../../pricing"
import { catalogSyncApi, queryKeys } from "../../../../lib/api"
import { ChoiceSelect, FormField } from "./form-field"
import { FormSection } from "./form-section"
import type { FormState } from "./form-state"
import { PricingRulesEditor } from "./pricing-rules"

/** The rules editor's state, owned by the form. */
export type RulesState = { value: PricingRules; onChange: (next: PricingRules) => void; errors: FieldError[]; disabled?: boolean }

const PRICE_CALCULATIONS = [
  ["min", "Lowest cost (min)"],
  ["avg", "Average cost (avg)"],
  ["max", "Highest cost (max)"],
] as const

/**
 * The cost basis is the one catalog parameter (costs depend on it); markup, rounding, margin and
 * the crossed-out price are the shop's rules, priced in the shop from the stored costs.
 */
export const PricingSection = ({ form, pricingChange, rules }: { form: FormState; pricingChange: boolean; rules: RulesState }) => {
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
