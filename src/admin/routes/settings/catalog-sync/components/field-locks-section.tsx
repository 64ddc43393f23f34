// The shop-wide field locks: fields no sync write touches on any product (a product's own
// widget can unlock one), and whether an admin edit of a managed field locks it. Part of the
// settings form (its one Save).
import { Checkbox, Container, Heading, Hint, Label, Switch, Text } from "@medusajs/ui"
import { LOCK_FIELD_LABELS } from "../../../../lib/field-locks"
import type { LockableFieldName, SyncSettings } from "../../../../lib/types"

export type ShopLocks = { locked: LockableFieldName[]; auto_lock_on_admin_edit: boolean }

const FIELDS = Object.keys(LOCK_FIELD_LABELS) as LockableFieldName[]

export const shopLocksOf = (saved: SyncSettings): ShopLocks => ({
  locked: saved.field_locks?.locked ?? [],
  auto_lock_on_admin_edit: saved.field_locks?.auto_lock_on_admin_edit ?? false,
})

/** The body's `field_locks`: fields in the labels' order, so an unchanged set compares equal. */
export const shopLocksBody = (value: ShopLocks): ShopLocks => ({
  locked: FIELDS.filter((f) => value.locked.includes(f)),
  auto_lock_on_admin_edit: value.auto_lock_on_admin_edit,
})

export const FieldLocksSection = ({ value, onChange, error }: { value: ShopLocks; onChange: (next: ShopLocks) => void; error: string | null }) => {
  const toggle = (field: LockableFieldName, on: boolean) =>
    onChange({ ...value, locked: on ? [...value.locked.filter((f) => f !== field), field] : value.locked.filter((f) => f !== field) })

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
            <Checkbox id={`lock-${field}`} checked={value.locked.includes(field)} onCheckedChange={(checked) => toggle(field, checked === true)} />
            <Label size="small" htmlFor={`lock-${field}`}>
              {LOCK_FIELD_LABELS[field]}
            </Label>
          </div>
        ))}
      </div>
      <div className="flex flex-col gap-y-1 px-6 py-4">
        <div className="flex items-center gap-x-2">
          <Switch
            id="lock-auto"
            checked={value.auto_lock_on_admin_edit}
            onCheckedChange={(checked) => onChange({ ...value, auto_lock_on_admin_edit: checked })}
          />
          <Label size="small" htmlFor="lock-auto">
            Lock a field when an admin edits it in the dashboard
          </Label>
        </div>
        {error && (
          <Hint variant="error" data-testid="error-field_locks">
            {error}
          </Hint>
        )}
      </div>
    </Container>
  )
}
