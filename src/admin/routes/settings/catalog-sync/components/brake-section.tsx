// The safety brake's thresholds: when a run would remove more than a share of the shop's catalog
// products, or drop more than a share of its prices by more than a percent, it pauses for the
// admin. Part of the settings form (its one Save); a refusal shows beside its field.
import { Container, Heading, Hint, Input, Label, Text } from "@medusajs/ui"
import type { BrakeSettings, SyncSettings } from "../../../../lib/types"

const FIELDS: Array<{ field: keyof BrakeSettings; label: string; hint: string }> = [
  { field: "remove_percent", label: "Pause when a run removes more than, %", hint: "Of the shop's catalog products. 0 to 100." },
  { field: "price_drop_share_percent", label: "Pause when more than this share of prices drops, %", hint: "Of the shop's catalog prices. 0 to 100." },
  { field: "price_drop_percent", label: "…each by more than, %", hint: "A price counts as dropped past this. 0 to 100." },
]

const DEFAULTS: BrakeSettings = { remove_percent: "20", price_drop_share_percent: "10", price_drop_percent: "30" }

export type BrakeErrors = Partial<Record<keyof BrakeSettings, string>>

export const brakeOf = (saved: SyncSettings): BrakeSettings => ({ ...(saved.brake ?? DEFAULTS) })

/** "brake.remove_percent" → "remove_percent" (the field an API refusal belongs to). */
export const brakeFieldOf = (apiField: string): keyof BrakeSettings | null => {
  const [head, name] = apiField.split(".")
  return head === "brake" && name in DEFAULTS ? (name as keyof BrakeSettings) : null
}

export const BrakeSection = ({
  value,
  onChange,
  errors,
}: {
  value: BrakeSettings
  onChange: (next: BrakeSettings, field: keyof BrakeSettings) => void
  errors: BrakeErrors
}) => {
  return (
    <Container className="divide-y p-0" data-testid="catalog-brake-section">
      <div className="px-6 py-4">
        <Heading level="h2">Safety brake</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          A run that would remove or cheapen much of the shop at once waits for your answer, with a preview of what it would do.
        </Text>
      </div>
      <div className="grid grid-cols-1 gap-4 px-6 py-4 md:grid-cols-3">
        {FIELDS.map(({ field, label, hint }) => (
          <div key={field} className="flex flex-col gap-y-1">
            <Label size="small" weight="plus" htmlFor={`brake-${field}`}>
              {label}
            </Label>
            <Input
              id={`brake-${field}`}
              size="small"
              inputMode="decimal"
              value={value[field]}
              aria-invalid={!!errors[field]}
              onChange={(e) => onChange({ ...value, [field]: e.target.value }, field)}
            />
            {errors[field] ? (
              <Hint variant="error" data-testid={`error-brake-${field}`}>
                {errors[field]}
              </Hint>
            ) : (
              <Hint>{hint}</Hint>
            )}
          </div>
        ))}
      </div>
    </Container>
  )
}
