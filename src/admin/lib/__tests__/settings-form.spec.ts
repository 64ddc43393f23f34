import {
  EMPTY_SETTINGS,
  cardOfApiField,
  formErrorsFromApi,
  pricingDiffers,
  sameValues,
  savedToast,
  settingsBody,
  settingsToForm,
  validateSettingsForm,
} from "../settings-form"
import type { Run, SyncSettings } from "../types"

const saved: SyncSettings = {
  ...EMPTY_SETTINGS,
  base_url: "http://127.0.0.1:4010",
  api_key: "••••1234",
  api_key_set: true,
  revision: 3,
}

describe("settingsToForm", () => {
  it("fills the inputs from saved settings and never the key", () => {
    const form = settingsToForm(saved)
    expect(form.api_key).toBe("")
    expect(form.base_url).toBe("http://127.0.0.1:4010")
    expect(form.poll_interval_minutes).toBe("10")
  })
  it("starts empty without settings", () => {
    const form = settingsToForm(null)
    expect(form.price_calculation).toBe("max")
    expect(form.removal_mode).toBe("delete")
  })
})

describe("validateSettingsForm", () => {
  const valid = settingsToForm(saved)
  it("accepts valid settings", () => {
    expect(validateSettingsForm(valid, saved)).toEqual({})
  })
  it("checks the alert address beside its field (empty is fine)", () => {
    expect(validateSettingsForm({ ...valid, alert_email: "owner@example.com" }, saved)).toEqual({})
    expect(validateSettingsForm({ ...valid, alert_email: "" }, saved)).toEqual({})
    expect(validateSettingsForm({ ...valid, alert_email: "owner" }, saved).alert_email).toMatch(/email address/)
  })
  it("checks the poll interval, URL and key", () => {
    expect(validateSettingsForm({ ...valid, poll_interval_minutes: "4" }, saved).poll_interval_minutes).toBeDefined()
    expect(validateSettingsForm({ ...valid, poll_interval_minutes: "16" }, saved).poll_interval_minutes).toBeDefined()
    expect(validateSettingsForm({ ...valid, poll_interval_minutes: "7.5" }, saved).poll_interval_minutes).toBeDefined()
    expect(validateSettingsForm({ ...valid, base_url: "ftp://x" }, saved).base_url).toBeDefined()
    expect(validateSettingsForm({ ...valid, api_key: "abc" }, saved).api_key).toBeDefined()
    expect(validateSettingsForm({ ...valid, api_key: "" }, { ...saved, api_key_set: false }).api_key).toMatch(/Enter the API key/)
  })
})

describe("pricingDiffers", () => {
  const form = settingsToForm(saved)
  it("is the cost basis only (markup and crossed-out prices are the rules, repriced locally)", () => {
    expect(pricingDiffers(form, saved)).toBe(false)
    expect(pricingDiffers({ ...form, poll_interval_minutes: "5" }, saved)).toBe(false)
    expect(pricingDiffers({ ...form, price_calculation: "min" }, saved)).toBe(true)
  })
})

describe("settingsBody", () => {
  it("sends the cost basis as the one pricing field (no API markup parameters) and the key only when typed", () => {
    const form = { ...settingsToForm(saved), stock_location_id: "sloc_1" }
    expect(settingsBody(form)).toEqual({
      base_url: "http://127.0.0.1:4010",
      price_calculation: "max",
      poll_interval_minutes: 10,
      stock_location_id: "sloc_1",
      sales_channel_id: null,
      removal_mode: "delete",
      primary_language: "uk",
      enabled: true,
      mirror_images: false,
      alert_email: null,
    })
    expect(settingsBody({ ...form, api_key: " new-key-123 " }).api_key).toBe("new-key-123")
    expect(settingsBody({ ...settingsToForm({ ...saved, mirror_images: true }) }).mirror_images).toBe(true)
    expect(settingsBody({ ...settingsToForm({ ...saved, alert_email: "owner@example.com" }) }).alert_email).toBe("owner@example.com")
    expect(settingsBody({ ...form, alert_email: "  " }).alert_email).toBeNull()
  })
})

describe("formErrorsFromApi", () => {
  it("keys errors by the form's field and writes sentences", () => {
    expect(formErrorsFromApi({ markup_percent: "must be from 0 to 1000", "body.api_key": "The catalog refused this key." })).toEqual({
      markup_percent: "Must be from 0 to 1000.",
      api_key: "The catalog refused this key.",
    })
  })
})

describe("the one Save's toast names the run it started, or says nothing runs", () => {
  const none = { filter: false, brake: false, field_locks: false }
  const run = (mode: Run["mode"], status: Run["status"] = "queued") => ({ id: "csrun_1", mode, status }) as Run
  it("a reprice, a full pass (and why), a sync", () => {
    expect(savedToast({ run: run("reprice", "running") }, none)).toEqual({
      title: "Settings saved · a reprice started",
      description: "A reprice started: the shop's prices are recomputed from the stored costs by the new rules, with no catalog requests.",
    })
    expect(savedToast({ run: run("full"), needs_full_pass: true }, none).description).toBe(
      "A full pass started: the cost basis changed, so every product's cost is fetched again."
    )
    expect(savedToast({ run: run("full", "running") }, none).title).toBe("Settings saved · a full pass started")
    expect(savedToast({ run: run("changes", "running") }, none).title).toBe("Settings saved · a sync started")
  })
  it("no run: says so, with what the next sync does for the card that changed", () => {
    expect(savedToast({}, none)).toEqual({ title: "Settings saved", description: "Nothing runs now: the next sync uses the new settings." })
    expect(savedToast({}, { ...none, filter: true }).description).toMatch(/^Nothing runs now: the next sync adds what the filter now includes/)
    expect(savedToast({}, { ...none, field_locks: true }).description).toMatch(/^Nothing runs now: the next sync leaves the locked fields/)
    expect(savedToast({}, { ...none, brake: true }).description).toMatch(/^Nothing runs now: the next run pauses at the new safety brake/)
  })
  it("no run after a failed sync: says it failed and when the next try is, never nothing runs", () => {
    const failed = { state: "failed", next_run_at: "2026-12-06T18:00:00Z", last_run: { status: "failed", finished_at: "2026-12-06T17:00:00Z" } } as const
    const relative = (iso: string) => (iso.startsWith("2026-12-06T18") ? "in 1 h" : "3 min ago")
    expect(savedToast({}, none, failed, relative).description).toBe(
      "The last sync failed 3 min ago; the next try is in 1 h: the next sync uses the new settings."
    )
    expect(savedToast({}, none, { ...failed, next_run_at: null }, relative).description).toMatch(/^The last sync failed 3 min ago; no next try is scheduled:/)
    expect(savedToast({}, none, { state: "key_invalid", next_run_at: null }, relative).description).toMatch(
      /^No sync runs until the catalog accepts the key and plan:/
    )
    expect(savedToast({}, none, { state: "idle", next_run_at: null, last_run: { status: "succeeded", finished_at: null } }, relative).description).toMatch(
      /^Nothing runs now:/
    )
  })
})

describe("the toast with Scheduled sync switched off (issue 43, second review)", () => {
  const none = { filter: false, brake: false, field_locks: false }
  it("says the schedule is off, never a next sync that will not come", () => {
    const off = { state: "disabled", next_run_at: null, last_run: { status: "succeeded", finished_at: null } } as const
    const said = savedToast({}, none, off)
    expect(said).toEqual({
      title: "Settings saved",
      description: "Scheduled sync is off: no sync runs until it is switched on again; then the next sync uses the new settings.",
    })
    expect(said.description).not.toMatch(/^Nothing runs now/)
    // The save's own answer tells it too, when /status could not be read after the save.
    expect(savedToast({ settings: { enabled: false } }, { ...none, filter: true }, null).description).toMatch(
      /^Scheduled sync is off: no sync runs until it is switched on again; then the next sync adds what the filter now includes/
    )
    // Switched on: unchanged.
    expect(savedToast({ settings: { enabled: true } }, none, null).description).toBe("Nothing runs now: the next sync uses the new settings.")
  })
})

describe("an API refusal lands on its card", () => {
  it("by the field's first part", () => {
    expect(cardOfApiField("poll_interval_minutes")).toBe("main")
    expect(cardOfApiField("pricing_rules.overrides[2].markup_percent")).toBe("pricing_rules")
    expect(cardOfApiField("filter.cost_min")).toBe("filter")
    expect(cardOfApiField("brake.remove_percent")).toBe("brake")
    expect(cardOfApiField("field_locks.locked.0")).toBe("field_locks")
  })
})

describe("sameValues", () => {
  it("ignores key order, not values", () => {
    expect(sameValues({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true)
    expect(sameValues({ a: "20" }, { a: "20.0" })).toBe(false)
  })
})
