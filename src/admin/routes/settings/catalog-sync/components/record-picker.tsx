import { Badge, Select } from "@medusajs/ui"
import { describeError } from "../../../../lib/errors"
import { FormField } from "./form-field"
import type { FormState } from "./form-state"

// Radix Select items cannot have an empty value; this one means "not chosen".
const NONE = "__none__"

/** Picks one of the shop's records by id; "" is "none chosen" (the plugin then picks one itself). */
export const RecordPicker = ({
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

/** A RecordPicker as a form field; the hint says so when the records could not be listed. */
export const RecordField = ({
  form,
  field,
  label,
  hint,
  records,
  list,
  options,
  emptyLabel,
}: {
  form: FormState
  field: "stock_location_id" | "sales_channel_id"
  label: string
  hint: string
  /** Plural noun for the hint: "Locations unavailable: …". */
  records: string
  list: { isPending: boolean; isError: boolean; error: unknown }
  options: { value: string; label: string }[]
  emptyLabel: string
}) => (
  <FormField id={field} label={label} error={form.errors[field]} hint={list.isError ? `${records} unavailable: ${describeError(list.error)}` : hint}>
    <RecordPicker
      id={field}
      value={form.values[field]}
      onChange={(value) => form.set(field, value)}
      loading={list.isPending}
      emptyLabel={emptyLabel}
      options={options}
    />
  </FormField>
)

/**
 * Several records by id (the filter's categories and brands): the chosen ones as removable
 * badges, and a RecordPicker that adds one more. An id the list does not know stays shown
 * (by its id) so it can be removed.
 */
export const RecordListPicker = ({
  id,
  values,
  onChange,
  options,
  loading,
  addLabel,
}: {
  id: string
  values: string[]
  onChange: (values: string[]) => void
  options: { value: string; label: string }[]
  loading: boolean
  addLabel: string
}) => {
  const labelOf = new Map(options.map((option) => [option.value, option.label]))
  const left = options.filter((option) => !values.includes(option.value))
  return (
    <div className="flex flex-col gap-y-2" data-testid={`${id}-picker`}>
      {values.length > 0 && (
        <div className="flex flex-wrap gap-1">
          {values.map((value) => (
            <Badge key={value} size="2xsmall" className="flex items-center gap-x-1">
              {labelOf.get(value) ?? `#${value}`}
              <button type="button" aria-label={`Remove ${labelOf.get(value) ?? value}`} onClick={() => onChange(values.filter((v) => v !== value))}>
                ×
              </button>
            </Badge>
          ))}
        </div>
      )}
      <RecordPicker id={id} value="" onChange={(next) => next && onChange([...values, next])} options={left} loading={loading} emptyLabel={addLabel} />
    </div>
  )
}
