import { Hint, Input, Label, RadioGroup, Select } from "@medusajs/ui"
import type { ComponentProps, ReactNode } from "react"
import type { SettingsFormValues } from "../../../../lib/settings-form"
import type { FormState } from "./form-state"

/** A labelled field: the error under it when there is one, else the hint. */
export const FormField = ({ id, label, hint, error, children }: { id: string; label: string; hint?: ReactNode; error?: string; children: ReactNode }) => (
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

type TextFieldName = {
  [K in keyof SettingsFormValues]: SettingsFormValues[K] extends string ? K : never
}[keyof SettingsFormValues]

/** A text input bound to one form value (id and name are the field's name). */
export const TextField = ({
  form,
  field,
  label,
  hint,
  ...input
}: {
  form: FormState
  field: TextFieldName
  label: string
  hint?: ReactNode
} & Omit<ComponentProps<typeof Input>, "form" | "id" | "name" | "value" | "onChange">) => (
  <FormField id={field} label={label} error={form.errors[field]} hint={hint}>
    <Input
      id={field}
      name={field}
      {...input}
      value={form.values[field]}
      aria-invalid={!!form.errors[field]}
      onChange={(event) => form.set(field, event.target.value)}
    />
  </FormField>
)

type Choice<V extends string> = readonly (readonly [value: V, label: string])[]

/** A select of fixed choices bound to one form value. */
export const ChoiceSelect = <V extends string>({
  id,
  value,
  onChange,
  choices,
}: {
  id: string
  value: V
  onChange: (value: V) => void
  choices: Choice<V>
}) => (
  <Select value={value} onValueChange={(next) => onChange(next as V)}>
    <Select.Trigger id={id}>
      <Select.Value />
    </Select.Trigger>
    <Select.Content>
      {choices.map(([choice, label]) => (
        <Select.Item key={choice} value={choice}>
          {label}
        </Select.Item>
      ))}
    </Select.Content>
  </Select>
)

/** Radio buttons of fixed choices under a label; each button's id is `${idPrefix}${value}`. */
export const ChoiceRadios = <V extends string>({
  label,
  idPrefix,
  value,
  onChange,
  choices,
  className,
  groupClassName,
}: {
  label: string
  idPrefix: string
  value: V
  onChange: (value: V) => void
  choices: Choice<V>
  className: string
  groupClassName: string
}) => (
  <div className={className}>
    <Label size="small" weight="plus">
      {label}
    </Label>
    <RadioGroup value={value} onValueChange={(next) => onChange(next as V)} className={groupClassName}>
      {choices.map(([choice, text]) => (
        <div key={choice} className="flex items-center gap-x-2">
          <RadioGroup.Item value={choice} id={`${idPrefix}${choice}`} />
          <Label size="small" htmlFor={`${idPrefix}${choice}`}>
            {text}
          </Label>
        </div>
      ))}
    </RadioGroup>
  </div>
)
