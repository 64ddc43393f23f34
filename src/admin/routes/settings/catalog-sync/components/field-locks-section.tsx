// The shop-wide field locks: fields no sync write touches on any product (a product's own
// widget can unlock one), and whether an admin edit of a managed field locks it. Saved on its own.
import { Button, Checkbox, Container, Heading, Label, Switch, Text, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { catalogSyncApi, queryKeys } from "../../../../lib/api"
import { errorVoice } from "../../../../lib/errors"
import { LOCK_FIELD_LABELS } from "../../../../lib/field-locks"
import type { LockableFieldName, SyncSettings } from "../../../../lib/types"

type ShopLocks = { locked: LockableFieldName[]; auto_lock_on_admin_edit: boolean }

const FIELDS = Object.keys(LOCK_FIELD_LABELS) as LockableFieldName[]

export const FieldLocksSection = ({ saved }: { saved: SyncSettings }) => {
  const queryClient = useQueryClient()
  const stored = (saved as SyncSettings & { field_locks?: ShopLocks }).field_locks
  const [values, setValues] = useState<ShopLocks>({ locked: stored?.locked ?? [], auto_lock_on_admin_edit: stored?.auto_lock_on_admin_edit ?? false })
  const toggle = (field: LockableFieldName, on: boolean) =>
    setValues((v) => ({ ...v, locked: on ? [...v.locked.filter((f) => f !== field), field] : v.locked.filter((f) => f !== field) }))
  const saving = useMutation({
    mutationFn: () =>
      catalogSyncApi.saveSettings({
        field_locks: { locked: FIELDS.filter((f) => values.locked.includes(f)), auto_lock_on_admin_edit: values.auto_lock_on_admin_edit },
      }),
    onSuccess: () => {
      toast.success("Field locks saved", { description: "The next sync leaves the locked fields of every product as they are." })
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: (error) => toast.error("The field locks were not saved", { description: errorVoice(error).sentence }),
  })

  return (
    <Container className="divide-y p-0" data-testid="catalog-field-locks-section">
      <div className="px-6 py-4">
        <Heading level="h2">Fields the shop keeps</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          A locked field is never written by the sync on any product; the catalog's newer value is still shown on the product's page. A product can unlock a
          field for itself.
        </Text>
      </div>
      <div className="grid grid-cols-2 gap-3 px-6 py-4 md:grid-cols-3">
        {FIELDS.map((field) => (
          <div key={field} className="flex items-center gap-x-2">
            <Checkbox id={`lock-${field}`} checked={values.locked.includes(field)} onCheckedChange={(checked) => toggle(field, checked === true)} />
            <Label size="small" htmlFor={`lock-${field}`}>
              {LOCK_FIELD_LABELS[field]}
            </Label>
          </div>
        ))}
      </div>
      <div className="flex items-center justify-between gap-x-4 px-6 py-4">
        <div className="flex items-center gap-x-2">
          <Switch
            id="lock-auto"
            checked={values.auto_lock_on_admin_edit}
            onCheckedChange={(checked) => setValues((v) => ({ ...v, auto_lock_on_admin_edit: checked }))}
          />
          <Label size="small" htmlFor="lock-auto">
            Lock a field when an admin edits it in the dashboard
          </Label>
        </div>
        <Button size="small" isLoading={saving.isPending} onClick={() => saving.mutate()} data-testid="field-locks-save">
          Save field locks
        </Button>
      </div>
    </Container>
  )
}
