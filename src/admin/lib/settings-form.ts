import { DEFAULT_PRICING_RULES } from "../../pricing/rules"
import { DEFAULT_POLL_INTERVAL_MINUTES, MAX_POLL_INTERVAL_MINUTES, MIN_POLL_INTERVAL_MINUTES } from "../../sync/settings/plugin-options"
import type { Language, PriceCalculation, RemovalMode, Run, SaveSettingsResult, SyncSettings, SyncStatus } from "./types"

// The settings form as plain data: what the inputs hold, the checks shown beside
// each field before anything is sent (the API checks again), and the body POST
// /settings receives. Markup and crossed-out prices are the pricing rules (their own editor).

export type SettingsFormValues = {
  base_url: string
  api_key: string // a new key typed by the admin; "" keeps the saved one
  price_calculation: PriceCalculation
  poll_interval_minutes: string
  stock_location_id: string
  sales_channel_id: string
  removal_mode: RemovalMode
  primary_language: Language
  enabled: boolean
  mirror_images: boolean
  alert_email: string // "" = alerts in the admin's feed only
}

export type FieldErrors = Partial<Record<string, string>>

// The server's range (plugin-options.ts holds only constants and types: safe in the admin bundle).
export const POLL_INTERVAL_MIN = MIN_POLL_INTERVAL_MINUTES
export const POLL_INTERVAL_MAX = MAX_POLL_INTERVAL_MINUTES

export const EMPTY_SETTINGS: SyncSettings = {
  base_url: null,
  api_key: null,
  api_key_set: false,
  price_calculation: "max",
  poll_interval_minutes: DEFAULT_POLL_INTERVAL_MINUTES,
  stock_location_id: null,
  sales_channel_id: null,
  removal_mode: "delete",
  primary_language: "uk",
  enabled: true,
  mirror_images: false,
  alert_email: null,
  revision: 0,
  pricing_rules: DEFAULT_PRICING_RULES,
  pricing_rules_saved: false,
  pricing_rules_revision: 0,
  brake: { remove_percent: "20", price_drop_share_percent: "10", price_drop_percent: "30" },
  field_locks: { locked: [], auto_lock_on_admin_edit: false },
}

export function settingsToForm(settings: SyncSettings | null | undefined): SettingsFormValues {
  const s = { ...EMPTY_SETTINGS, ...(settings ?? {}) }
  return {
    base_url: s.base_url ?? "",
    api_key: "",
    price_calculation: s.price_calculation,
    poll_interval_minutes: String(s.poll_interval_minutes ?? DEFAULT_POLL_INTERVAL_MINUTES),
    stock_location_id: s.stock_location_id ?? "",
    sales_channel_id: s.sales_channel_id ?? "",
    removal_mode: s.removal_mode,
    primary_language: s.primary_language,
    enabled: s.enabled,
    mirror_images: s.mirror_images ?? false,
    alert_email: s.alert_email ?? "",
  }
}

function blankToNull(value: string): string | null {
  const trimmed = value.trim()
  return trimmed === "" ? null : trimmed
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/**
 * The checks of the address and a typed key, shared by Save and Test connection so both word
 * the same mistake the same way (Test connection falls back to the saved values when blank).
 */
export function connectionErrors(values: Pick<SettingsFormValues, "base_url" | "api_key">): FieldErrors {
  const errors: FieldErrors = {}
  const baseUrl = values.base_url.trim()
  if (baseUrl !== "" && !isHttpUrl(baseUrl)) errors.base_url = "Enter a full URL, e.g. https://api.example.com."
  if (values.api_key !== "" && values.api_key.trim().length < 8) {
    errors.api_key = "This key looks too short. Paste the whole key from your profile."
  }
  return errors
}

/** Errors by field name; an empty object means the form can be sent. */
export function validateSettingsForm(values: SettingsFormValues, saved?: SyncSettings | null): FieldErrors {
  const errors: FieldErrors = connectionErrors(values)
  const baseUrl = values.base_url.trim()
  if (values.api_key === "" && !saved?.api_key_set && baseUrl !== "") {
    errors.api_key = "Enter the API key from your catalog profile."
  }
  const poll = values.poll_interval_minutes.trim()
  const pollNumber = Number(poll)
  if (!/^\d+$/.test(poll) || pollNumber < POLL_INTERVAL_MIN || pollNumber > POLL_INTERVAL_MAX) {
    errors.poll_interval_minutes = `Poll every ${POLL_INTERVAL_MIN} to ${POLL_INTERVAL_MAX} minutes.`
  }
  const alertEmail = values.alert_email.trim()
  if (alertEmail !== "" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(alertEmail)) {
    errors.alert_email = "Enter an email address, e.g. owner@example.com, or leave it empty."
  }
  return errors
}

/** True when saving changes the cost basis, the one pricing parameter the catalog is asked: a full pass. */
export function pricingDiffers(values: SettingsFormValues, saved: SyncSettings | null | undefined): boolean {
  return values.price_calculation !== { ...EMPTY_SETTINGS, ...(saved ?? {}) }.price_calculation
}

/** Body of POST /settings. The key goes only when a new one was typed. */
export function settingsBody(values: SettingsFormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {
    base_url: blankToNull(values.base_url),
    price_calculation: values.price_calculation,
    poll_interval_minutes: Number(values.poll_interval_minutes.trim()),
    stock_location_id: blankToNull(values.stock_location_id),
    sales_channel_id: blankToNull(values.sales_channel_id),
    removal_mode: values.removal_mode,
    primary_language: values.primary_language,
    enabled: values.enabled,
    mirror_images: values.mirror_images,
    alert_email: blankToNull(values.alert_email),
  }
  const key = values.api_key.trim()
  if (key !== "") body.api_key = key
  return body
}

/**
 * Field errors from a 400 of the API, keyed by the form's field names (the API
 * may name a nested path) and written as sentences ("must be from 0 to 1000" ->
 * "Must be from 0 to 1000.").
 */
export function formErrorsFromApi(fieldErrors: Record<string, string>): FieldErrors {
  const out: FieldErrors = {}
  for (const [field, message] of Object.entries(fieldErrors)) {
    const name = field.split(".").pop() || field
    const text = message.trim()
    const sentence = text.charAt(0).toUpperCase() + text.slice(1)
    out[name] = /[.!?]$/.test(sentence) ? sentence : `${sentence}.`
  }
  return out
}

/**
 * Saving with the key field opened but left empty keeps the saved key (only Disconnect removes
 * it): the message that says so, or null when the save does not touch the key.
 */
export function keptKeyNotice(values: SettingsFormValues, saved: SyncSettings | null | undefined, replacingKey: boolean): string | null {
  if (!replacingKey || !saved?.api_key_set || values.api_key.trim() !== "") return null
  return `The API key field was empty, so the saved key ${saved.api_key ?? ""} is kept. To remove it, use Disconnect.`.replace("key  is", "key is")
}

/** Which of the page's other cards changed, besides the main settings and the rules. */
export type OtherChanges = { filter: boolean; brake: boolean; field_locks: boolean }

/** The sync as the status answers it after a save, for the toast's "now" (GET /status). */
export type SyncNow = Pick<SyncStatus, "state" | "next_run_at"> & { last_run?: Pick<Run, "status" | "finished_at"> | null }

/**
 * What the shop's sync does now when the save started no run: nothing, or (beside a chip that says
 * so) that the last sync failed and when the next try is, or that none runs until the key or plan is fixed.
 */
function nowText(sync: SyncNow | null | undefined, relative: (iso: string) => string): string {
  if (sync?.state === "key_invalid" || sync?.state === "plan_required") return "No sync runs until the catalog accepts the key and plan"
  if (sync?.last_run?.status === "failed" && (sync.state === "failed" || sync.state === "overdue")) {
    const when = sync.last_run.finished_at ? ` ${relative(sync.last_run.finished_at)}` : ""
    return `The last sync failed${when}; ${sync.next_run_at ? `the next try is ${relative(sync.next_run_at)}` : "no next try is scheduled"}`
  }
  return "Nothing runs now"
}

/**
 * The one Save's toast: what was saved and the run it started, by its kind (a full pass, a
 * reprice, a sync), or what runs now (nothing, or the next try after a failed sync).
 */
export function savedToast(
  result: Pick<SaveSettingsResult, "run" | "needs_full_pass"> & { settings?: { enabled?: boolean } | null },
  other: OtherChanges,
  sync?: SyncNow | null,
  relative: (iso: string) => string = (iso) => iso
): { title: string; description: string } {
  // Queued is also how a run starts out, so its status does not tell that another run is ahead of it.
  const run = result.run ?? null
  if (run?.mode === "full") {
    const why = result.needs_full_pass ? "the cost basis changed, so every product's cost is fetched again" : "every product is fetched from the catalog"
    return { title: "Settings saved · a full pass started", description: `A full pass started: ${why}.` }
  }
  if (run?.mode === "reprice") {
    return {
      title: "Settings saved · a reprice started",
      description: `A reprice started: the shop's prices are recomputed from the stored costs by the new rules, with no catalog requests.`,
    }
  }
  if (run) return { title: "Settings saved · a sync started", description: "A sync with the new settings started." }
  const next = other.filter
    ? "the next sync adds what the filter now includes and removes what it leaves out."
    : other.brake
      ? "the next run pauses at the new safety brake thresholds."
      : other.field_locks
        ? "the next sync leaves the locked fields of every product as they are."
        : "the next sync uses the new settings."
  // With "Scheduled sync" switched off there is no next sync (issue 43: the toast said "Nothing
  // runs now: the next sync uses the new settings."): say the schedule is off.
  if (result.settings?.enabled === false || sync?.state === "disabled")
    return { title: "Settings saved", description: `Scheduled sync is off: no sync runs until it is switched on again; then ${next}` }
  return { title: "Settings saved", description: `${nowText(sync, relative)}: ${next}` }
}

/** Which card of the page a field the API refused belongs to. */
export type SettingsCard = "main" | "pricing_rules" | "filter" | "brake" | "field_locks"

export function cardOfApiField(field: string): SettingsCard {
  const head = field.split(/[.[]/)[0]
  if (head === "pricing_rules") return "pricing_rules"
  if (head === "filter" || head === "brake" || head === "field_locks") return head
  return "main"
}

/** JSON with object keys sorted: two drafts that hold the same values compare equal. */
export function sameValues(a: unknown, b: unknown): boolean {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, sorted((value as Record<string, unknown>)[k])])
          )
        : value
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b))
}
