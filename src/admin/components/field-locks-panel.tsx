import { Badge, Switch, Text } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { catalogSyncApi, queryKeys } from "../lib/api"
import { describeError } from "../lib/errors"
import { LOCK_FIELD_LABELS, catalogValueText, heldValueLabel } from "../lib/field-locks"

/**
 * The product's lockable fields: a switch locks or unlocks one (a locked field is never written
 * by the sync), and for a locked field what the catalog now says. Unlocking takes the
 * catalog's value (title, description, images, categories at once; prices and stock at the next sync).
 */
export const FieldLocksPanel = ({ productId }: { productId: string }) => {
  const client = useQueryClient()
  const locks = useQuery({
    queryKey: queryKeys.productLocks(productId),
    queryFn: () => catalogSyncApi.getProductLocks(productId),
    retry: false,
  })
  const toggle = useMutation({
    mutationFn: (v: { field: keyof typeof LOCK_FIELD_LABELS; locked: boolean }) => catalogSyncApi.setProductLocks(productId, [v.field], v.locked),
    onSuccess: (data) => {
      client.setQueryData(queryKeys.productLocks(productId), data)
      client.invalidateQueries({ queryKey: ["products"] })
    },
  })
  if (locks.isPending)
    return (
      <Text size="small" className="text-ui-fg-muted px-6 py-3">
        Loading field locks…
      </Text>
    )
  if (locks.isError)
    return (
      <Text size="small" className="text-ui-fg-muted px-6 py-3">
        Field locks could not be loaded: {describeError(locks.error)}
      </Text>
    )
  const view = locks.data.locks
  return (
    <div className="flex flex-col gap-y-2 px-6 py-3" data-testid="catalog-product-locks">
      <Text size="small" weight="plus" className="text-ui-fg-subtle">
        Field locks
      </Text>
      {view.fields.map((f) => {
        const catalog = f.locked ? catalogValueText(f.field, f.catalog_value) : null
        return (
          <div
            key={f.field}
            className="flex flex-col gap-y-1"
            data-testid="catalog-product-lock"
            data-field={f.field}
            data-locked={f.locked ? "true" : "false"}
          >
            <div className="flex items-center justify-between gap-x-2">
              <Text size="small">
                {LOCK_FIELD_LABELS[f.field]}{" "}
                {f.locked ? (
                  <Badge size="2xsmall" color="orange">
                    {f.locked_by === "shop" ? "locked (shop default)" : "locked"}
                  </Badge>
                ) : (
                  <Badge size="2xsmall" color="grey">
                    managed
                  </Badge>
                )}
              </Text>
              <Switch
                aria-label={`Lock ${LOCK_FIELD_LABELS[f.field]}`}
                checked={f.locked}
                disabled={toggle.isPending}
                onCheckedChange={(locked) => toggle.mutate({ field: f.field, locked })}
              />
            </div>
            {catalog && (
              <Text size="xsmall" className="text-ui-fg-muted" data-testid="catalog-product-lock-catalog-value">
                {heldValueLabel(f.field)} {catalog}
              </Text>
            )}
          </div>
        )
      })}
      {toggle.isError && (
        <Text size="xsmall" className="text-ui-fg-error">
          {describeError(toggle.error)}
        </Text>
      )}
      <Text size="xsmall" className="text-ui-fg-muted">
        {view.auto_lock_on_admin_edit ? "Editing a managed field here locks it." : "Lock a field to keep your own value; unlock to take the catalog's."}
      </Text>
    </div>
  )
}
