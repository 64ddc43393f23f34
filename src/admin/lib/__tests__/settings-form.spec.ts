import { EMPTY_SETTINGS, formErrorsFromApi, pricingDiffers, settingsBody, settingsToForm, validateSettingsForm } from "../settings-form"
import type { SyncSettings } from "../types"

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
