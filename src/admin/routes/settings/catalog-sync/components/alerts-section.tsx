import { TextField } from "./form-field"
import { FormSection } from "./form-section"
import type { FormState } from "./form-state"

/** Where the plugin's alerts go besides the dashboard's notifications (src/queue/catalog-sync-alerts.ts). */
export const AlertsSection = ({ form }: { form: FormState }) => (
  <FormSection
    title="Alerts"
    description="A paused safety brake, a refused key, a resume that gives up, the daily quota at 80 % and spent, and two failed runs in a row appear in the dashboard's notifications."
  >
    <TextField
      form={form}
      field="alert_email"
      label="Alert email address"
      hint="Also sent to this address when the shop has an email notification provider. Empty: notifications only."
      type="email"
      placeholder="owner@example.com"
      autoComplete="email"
    />
  </FormSection>
)
