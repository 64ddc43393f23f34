// Which part of the catalog the shop imports: categories (with their subtrees) and brands to
// include or exclude (picked like the pricing rules' categories and brands), in stock only, new arrivals only, a cost band. Part of the
// settings form (its one Save); before saving, "Count" shows how many products of the last pass the filter keeps.
import { Button, Checkbox, Container, Heading, Hint, Input, Label, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery } from "@tanstack/react-query"
import { useMemo, useState } from "react"
import { catalogSyncApi, filterApi, queryKeys, type FilterKeptCount } from "../../../../lib/api"
import { AdminApiError, errorVoice } from "../../../../lib/errors"
import { filterBody, filterFieldOf, keptSentence, type FilterFormValues } from "../../../../lib/filter-form"
import { categoryOptions } from "./pricing-rules/editor-model"
import { RecordListPicker } from "./record-picker"

type IdListField = "include_category_ids" | "exclude_category_ids" | "include_brand_ids" | "exclude_brand_ids"
type AmountField = "cost_min" | "cost_max"

const PICKED_FIELDS: Array<{ field: IdListField; kind: "categories" | "brands"; label: string; hint: string; add: string }> = [
  {
    field: "include_category_ids",
    kind: "categories",
    label: "Only these categories",
    hint: "Subcategories included. None: every category.",
    add: "Add a category…",
  },
  {
    field: "exclude_category_ids",
    kind: "categories",
    label: "Never these categories",
    hint: "With their subcategories; wins over the list above.",
    add: "Add a category…",
  },
  { field: "include_brand_ids", kind: "brands", label: "Only these brands", hint: "None: every brand.", add: "Add a brand…" },
  { field: "exclude_brand_ids", kind: "brands", label: "Never these brands", hint: "Wins over the list above.", add: "Add a brand…" },
]

const AMOUNT_FIELDS: Array<{ field: AmountField; label: string; hint: string }> = [
  { field: "cost_min", label: "Lowest cost", hint: "The catalog's cost price, e.g. 250.00. Empty: no lower bound." },
  { field: "cost_max", label: "Highest cost", hint: "Empty: no upper bound." },
]

export type FilterErrors = Partial<Record<keyof FilterFormValues, string>>

export const FilterSection = ({
  values,
  onChange,
  errors,
  showErrors,
}: {
  values: FilterFormValues
  onChange: (next: FilterFormValues, field: keyof FilterFormValues) => void
  errors: FilterErrors
  showErrors: (found: FilterErrors) => void
}) => {
  const [count, setCount] = useState<FilterKeptCount | null>(null)
  const set = <K extends keyof FilterFormValues>(field: K, value: FilterFormValues[K]) => {
    onChange({ ...values, [field]: value }, field)
    setCount(null)
  }
  // The same categories and brands the pricing rules' pickers offer.
  const references = useQuery({ queryKey: queryKeys.pricingReferences, queryFn: catalogSyncApi.getPricingReferences, staleTime: 60_000 })
  const choices = useMemo(
    () => ({
      categories: categoryOptions(references.data?.categories ?? []),
      brands: (references.data?.brands ?? []).map((b) => ({ value: b.id, label: b.name })),
    }),
    [references.data]
  )
  // A refused Count saved nothing and was not meant to.
  const counting = useMutation({
    mutationFn: () => filterApi.count(filterBody(values)),
    onSuccess: setCount,
    onError: (error: unknown) => {
      const found: FilterErrors = {}
      if (error instanceof AdminApiError) {
        for (const [field, message] of Object.entries(error.fieldErrors)) {
          const own = filterFieldOf(field)
          if (own) found[own] = message
        }
      }
      if (Object.keys(found).length > 0) showErrors(found)
      else toast.error("The filter could not be counted", { description: errorVoice(error).sentence })
    },
  })

  return (
    <Container className="divide-y p-0" data-testid="catalog-filter-section">
      <div className="px-6 py-4">
        <Heading level="h2">What the shop imports</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Products outside the filter are not created; products already in the shop that fall outside are removed or drafted as set above.
        </Text>
      </div>
      <div className="grid grid-cols-1 gap-4 px-6 py-4 md:grid-cols-2">
        {PICKED_FIELDS.map(({ field, kind, label, hint, add }) => (
          <div key={field} className="flex flex-col gap-y-1">
            <Label size="small" weight="plus" htmlFor={`filter-${field}`}>
              {label}
            </Label>
            <RecordListPicker
              id={`filter-${field}`}
              values={values[field]}
              onChange={(next) => set(field, next)}
              options={choices[kind]}
              loading={references.isPending}
              addLabel={add}
            />
            {errors[field] ? (
              <Hint variant="error">{errors[field]}</Hint>
            ) : (
              <Hint>{references.isError ? `The ${kind} could not be listed: ${errorVoice(references.error).sentence}` : hint}</Hint>
            )}
          </div>
        ))}
        {AMOUNT_FIELDS.map(({ field, label, hint }) => (
          <div key={field} className="flex flex-col gap-y-1">
            <Label size="small" weight="plus" htmlFor={`filter-${field}`}>
              {label}
            </Label>
            <Input
              id={`filter-${field}`}
              size="small"
              inputMode="decimal"
              value={values[field]}
              aria-invalid={!!errors[field]}
              onChange={(e) => set(field, e.target.value)}
            />
            {errors[field] ? (
              <Hint variant="error" data-testid={`error-filter-${field}`}>
                {errors[field]}
              </Hint>
            ) : (
              <Hint>{hint}</Hint>
            )}
          </div>
        ))}
        {(["in_stock_only", "new_only"] as const).map((field) => (
          <div key={field} className="flex items-center gap-x-2">
            <Checkbox id={`filter-${field}`} checked={values[field]} onCheckedChange={(checked) => set(field, checked === true)} />
            <Label size="small" htmlFor={`filter-${field}`}>
              {field === "in_stock_only" ? "Only products in stock" : "Only new arrivals"}
            </Label>
          </div>
        ))}
      </div>
      <div className="flex items-center justify-between gap-x-4 px-6 py-4">
        <Text size="small" className="text-ui-fg-subtle" data-testid="catalog-filter-count">
          {count ? keptSentence(count) : "Count the products this filter keeps before saving."}
        </Text>
        <div className="flex gap-x-2">
          <Button type="button" size="small" variant="secondary" isLoading={counting.isPending} onClick={() => counting.mutate()}>
            Count
          </Button>
        </div>
      </div>
    </Container>
  )
}
