// Which part of the catalog the shop imports: categories (with their subtrees) and brands to
// include or exclude, in stock only, new arrivals only, a cost band. Saved on its own; before
// saving, "Count" shows how many products of the last pass the filter keeps.
import { Button, Checkbox, Container, Heading, Hint, Input, Label, Text, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { filterApi, queryKeys, type FilterKeptCount } from "../../../../lib/api"
import { AdminApiError, errorVoice } from "../../../../lib/errors"
import { filterBody, filterFieldOf, filterToForm, type FilterFormValues } from "../../../../lib/filter-form"
import type { SyncSettings } from "../../../../lib/types"

const TEXT_FIELDS: Array<{ field: keyof FilterFormValues; label: string; hint: string }> = [
  { field: "include_category_ids", label: "Only these categories", hint: "Catalog category ids, comma separated; subcategories included. Empty: every category." },
  { field: "exclude_category_ids", label: "Never these categories", hint: "With their subcategories; wins over the list above." },
  { field: "include_brand_ids", label: "Only these brands", hint: "Catalog brand ids. Empty: every brand." },
  { field: "exclude_brand_ids", label: "Never these brands", hint: "Wins over the list above." },
  { field: "cost_min", label: "Lowest cost", hint: "The catalog's cost price, e.g. 250.00. Empty: no lower bound." },
  { field: "cost_max", label: "Highest cost", hint: "Empty: no upper bound." },
]

function keptSentence(count: FilterKeptCount): string {
  const base = `Keeps ${count.kept} of the ${count.total} catalog products the last pass read.`
  return count.not_counted.length ? `${base} Not counted (not stored): ${count.not_counted.join(", ")}; the true number may be lower.` : base
}

export const FilterSection = ({ saved }: { saved: SyncSettings }) => {
  const queryClient = useQueryClient()
  const [values, setValues] = useState<FilterFormValues>(() => filterToForm(saved.filter))
  const [errors, setErrors] = useState<Partial<Record<keyof FilterFormValues, string>>>({})
  const [count, setCount] = useState<FilterKeptCount | null>(null)
  const set = <K extends keyof FilterFormValues>(field: K, value: FilterFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }))
    setErrors((current) => ({ ...current, [field]: undefined }))
    setCount(null)
  }
  const refused = (error: unknown) => {
    if (error instanceof AdminApiError && Object.keys(error.fieldErrors).length > 0) {
      const found: typeof errors = {}
      for (const [field, message] of Object.entries(error.fieldErrors)) {
        const own = filterFieldOf(field)
        if (own) found[own] = message
      }
      setErrors(found)
    } else toast.error("The filter was not saved", { description: errorVoice(error).sentence })
  }
  const counting = useMutation({ mutationFn: () => filterApi.count(filterBody(values)), onSuccess: setCount, onError: refused })
  const saving = useMutation({
    mutationFn: () => filterApi.save(filterBody(values)),
    onSuccess: () => {
      toast.success("Filter saved", { description: "The next sync adds what it now includes and removes what it leaves out." })
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: refused,
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
        {TEXT_FIELDS.map(({ field, label, hint }) => (
          <div key={field} className="flex flex-col gap-y-1">
            <Label size="small" weight="plus" htmlFor={`filter-${field}`}>
              {label}
            </Label>
            <Input
              id={`filter-${field}`}
              size="small"
              value={values[field] as string}
              aria-invalid={!!errors[field]}
              onChange={(e) => set(field, e.target.value)}
            />
            {errors[field] ? <Hint variant="error">{errors[field]}</Hint> : <Hint>{hint}</Hint>}
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
          <Button size="small" variant="secondary" isLoading={counting.isPending} onClick={() => counting.mutate()}>
            Count
          </Button>
          <Button size="small" isLoading={saving.isPending} onClick={() => saving.mutate()}>
            Save filter
          </Button>
        </div>
      </div>
    </Container>
  )
}
