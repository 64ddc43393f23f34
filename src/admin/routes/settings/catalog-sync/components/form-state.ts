import type { FieldErrors, SettingsFormValues } from "../../../../lib/settings-form"

/** Sets one field and clears its error. */
export type SetField = <K extends keyof SettingsFormValues>(field: K, value: SettingsFormValues[K]) => void

/** What every section of the settings form gets: the values, the errors, the setter. */
export type FormState = {
  values: SettingsFormValues
  errors: FieldErrors
  set: SetField
  /** Shows errors beside their fields (merged over the current ones). */
  showErrors: (errors: FieldErrors) => void
}
