// The safety brake's thresholds (they existed in the API only): when a run would remove more
// than a share of the shop's catalog products, or drop more than a share of its prices by more
// than a percent, it pauses for the admin. Saved on its own; a refusal shows beside its field.
import { Button, Container, Heading, Hint, Input, Label, Text, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { catalogSyncApi, queryKeys } from "../../../../lib/api"
import { AdminApiError, errorVoice } from "../../../../lib/errors"
import type { BrakeSettings, SyncSettings } from "../../../../lib/types"

const FIELDS: Array<{ field: keyof BrakeSettings; label: string; hint: string }> = [
  { field: "remove_percent", label: "Pause when a run removes more than, %", hint: "Of the shop's catalog products. 0 to 100." },
  { field: "price_drop_share_percent", label: "Pause when more than this share of prices drops, %", hint: "Of the shop's catalog prices. 0 to 100." },
  { field: "price_drop_percent", label: "…each by more than, %", hint: "A price counts as dropped past this. 0 to 100." },
]

const DEFAULTS: BrakeSettings = { remove_percent: "20", price_drop_share_percent: "10", price_drop_percent: "30" }

export const BrakeSection = ({ saved }: { saved: SyncSettings }) => {
  const queryClient = useQueryClient()
  const stored = (saved as SyncSettings & { brake?: BrakeSettings }).brake ?? DEFAULTS
  const [values, setValues] = useState<BrakeSettings>({ ...stored })
  const [errors, setErrors] = useState<Partial<Record<keyof BrakeSettings, string>>>({})
  const saving = useMutation({
    mutationFn: () => catalogSyncApi.saveSettings({ brake: values }),
    onSuccess: () => {
      toast.success("Safety brake saved", { description: "The next run pauses at these thresholds." })
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: (error) => {
      const found: typeof errors = {}
      if (error instanceof AdminApiError) {
        for (const [field, message] of Object.entries(error.fieldErrors)) {
          const [head, name] = field.split(".")
          if (head === "brake" && name in DEFAULTS) found[name as keyof BrakeSettings] = message
        }
      }
      if (Object.keys(found).length) setErrors(found)
      else toast.error("The safety brake was not saved", { description: errorVoice(error).sentence })
    },
  })

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
              value={values[field]}
              aria-invalid={!!errors[field]}
              onChange={(e) => {
                setValues((v) => ({ ...v, [field]: e.target.value }))
                setErrors((v) => ({ ...v, [field]: undefined }))
              }}
            />
            {errors[field] ? <Hint variant="error">{errors[field]}</Hint> : <Hint>{hint}</Hint>}
          </div>
        ))}
      </div>
      <div className="flex justify-end px-6 py-4">
        <Button size="small" isLoading={saving.isPending} onClick={() => saving.mutate()} data-testid="brake-save">
          Save safety brake
        </Button>
      </div>
    </Container>
  )
}
