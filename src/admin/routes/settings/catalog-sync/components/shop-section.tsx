import { Hint, Label, Switch } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { sdk } from "../../../../lib/sdk"
import { POLL_INTERVAL_MAX, POLL_INTERVAL_MIN } from "../../../../lib/settings-form"
import { ChoiceRadios, ChoiceSelect, FormField, TextField } from "./form-field"
import { FormSection } from "./form-section"
import type { FormState } from "./form-state"
import { automaticLabel, useReadiness } from "./readiness-checklist"
import { RecordField } from "./record-picker"

const LANGUAGES = [
  ["uk", "Ukrainian"],
  ["ru", "Russian"],
] as const

const REMOVAL_MODES = [
  ["delete", "Delete it from the shop"],
  ["draft", "Keep it as a draft (hidden from the storefront)"],
] as const

/** Where products go (location, channel), the schedule, the language and what a removal does. */
export const ShopSection = ({ form }: { form: FormState }) => {
  const { values, set } = form
  const locations = useQuery({
    queryKey: ["catalog-sync", "stock-locations"],
    queryFn: () => sdk.admin.stockLocation.list({ limit: 100, fields: "id,name" }),
    retry: 1,
  })
  const channels = useQuery({
    queryKey: ["catalog-sync", "sales-channels"],
    queryFn: () => sdk.admin.salesChannel.list({ limit: 100, fields: "id,name" }),
    retry: 1,
  })
  const readiness = useReadiness()

  return (
    <FormSection title="Shop" description="Where synced products go, how often the catalog is polled and what a removal in the catalog does.">
      <RecordField
        form={form}
        field="stock_location_id"
        label="Stock location"
        hint="Stock from the catalog is kept here."
        records="Locations"
        list={locations}
        emptyLabel={automaticLabel("stock_location", readiness.data)}
        options={(locations.data?.stock_locations ?? []).map((l) => ({ value: l.id, label: l.name }))}
      />
      <RecordField
        form={form}
        field="sales_channel_id"
        label="Sales channel"
        hint="Synced products are published in this channel."
        records="Channels"
        list={channels}
        emptyLabel={automaticLabel("sales_channel", readiness.data)}
        options={(channels.data?.sales_channels ?? []).map((c) => ({ value: c.id, label: c.name }))}
      />
      <TextField
        form={form}
        field="poll_interval_minutes"
        label="Poll interval, minutes"
        hint={`${POLL_INTERVAL_MIN} to ${POLL_INTERVAL_MAX}. Suppliers update about once an hour.`}
        type="number"
        min={POLL_INTERVAL_MIN}
        max={POLL_INTERVAL_MAX}
      />
      <FormField id="primary_language" label="Primary language" hint="Titles and descriptions in this language; the other one becomes a translation.">
        <ChoiceSelect id="primary_language" value={values.primary_language} onChange={(value) => set("primary_language", value)} choices={LANGUAGES} />
      </FormField>
      <ChoiceRadios
        label="When the catalog removes a product"
        idPrefix="removal_"
        value={values.removal_mode}
        onChange={(value) => set("removal_mode", value)}
        choices={REMOVAL_MODES}
        className="flex flex-col gap-y-2"
        groupClassName="flex flex-col gap-y-2"
      />
      <div className="flex items-start gap-x-3">
        <Switch id="enabled" checked={values.enabled} onCheckedChange={(checked) => set("enabled", checked)} />
        <div className="flex flex-col">
          <Label size="small" weight="plus" htmlFor="enabled">
            Scheduled sync
          </Label>
          {/* Said for the switch's own position: a disabled sync refuses "Sync now" too. */}
          <Hint>
            {values.enabled
              ? `On: the shop syncs every ${values.poll_interval_minutes || "few"} minutes, and "Sync now" starts a run at once.`
              : "Off: no sync runs, scheduled or started by hand."}
          </Hint>
        </div>
      </div>
      <div className="flex items-start gap-x-3">
        <Switch id="mirror_images" checked={values.mirror_images} onCheckedChange={(checked) => set("mirror_images", checked)} />
        <div className="flex flex-col">
          <Label size="small" weight="plus" htmlFor="mirror_images">
            Mirror images
          </Label>
          <Hint>On: product images are copied into this shop's file storage and served from there. Off: they are linked from the catalog.</Hint>
        </div>
      </div>
    </FormSection>
  )
}
