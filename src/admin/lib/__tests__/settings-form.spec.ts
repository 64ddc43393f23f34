import { EMPTY_SETTINGS, formErrorsFromApi, pricingDiffers, settingsBody, settingsToForm, validateSettingsForm } from "../settings-form"
import type { SyncSettings } from "../types"

const saved: SyncSettings = {
  ...EMPTY_SETTINGS,
  base_url: "http://127.0.0.1:4010",
  api_key: "••••1234",
  api_key_set: true,
  markup_percent: "30",
  discount_percent: "20",
  revision: 3,
}

describe("settingsToForm", () => {
  it("fills the inputs from saved settings and never the key", () => {
    const form = settingsToForm(saved)
    expect(form.api_key).toBe("")
    expect(form.base_url).toBe("http://127.0.0.1:4010")
    expect(form.crossed_out_mode).toBe("discount")
    expect(form.poll_interval_minutes).toBe("10")
  })
  it("starts empty without settings", () => {
    const form = settingsToForm(null)
    expect(form.crossed_out_mode).toBe("none")
    expect(form.price_calculation).toBe("max")
    expect(form.removal_mode).toBe("delete")
  })
})

describe("validateSettingsForm", () => {
  const valid = settingsToForm(saved)
  it("accepts valid settings", () => {
    expect(validateSettingsForm(valid, saved)).toEqual({})
  })
  it("rejects a markup of 5000 beside its field", () => {
    expect(validateSettingsForm({ ...valid, markup_percent: "5000" }, saved)).toEqual({
      markup_percent: "Markup must be between 0 and 1000 %.",
    })
  })
  it("checks the alert address beside its field (empty is fine)", () => {
    expect(validateSettingsForm({ ...valid, alert_email: "owner@example.com" }, saved)).toEqual({})
    expect(validateSettingsForm({ ...valid, alert_email: "" }, saved)).toEqual({})
    expect(validateSettingsForm({ ...valid, alert_email: "owner" }, saved).alert_email).toMatch(/email address/)
  })
  it("checks numbers, ranges and the discount's open bound", () => {
    expect(validateSettingsForm({ ...valid, markup_percent: "-1" }, saved).markup_percent).toMatch(/number/)
    expect(validateSettingsForm({ ...valid, markup_percent: "1000" }, saved)).toEqual({})
    expect(validateSettingsForm({ ...valid, markup_percent: "12,5" }, saved)).toEqual({})
    expect(validateSettingsForm({ ...valid, markup_percent: "12.1234" }, saved)).toEqual({})
    expect(validateSettingsForm({ ...valid, markup_percent: "12.12345" }, saved).markup_percent).toMatch(/4 decimals/)
    expect(validateSettingsForm({ ...valid, discount_percent: "100" }, saved).discount_percent).toMatch(/below 100/)
    expect(validateSettingsForm({ ...valid, discount_percent: "99.99" }, saved)).toEqual({})
    expect(validateSettingsForm({ ...valid, discount_percent: "" }, saved).discount_percent).toMatch(/required/)
    expect(
      validateSettingsForm({ ...valid, crossed_out_mode: "old_price_markup", old_price_markup_percent: "1000.01" }, saved).old_price_markup_percent
    ).toMatch(/between 0 and 1000/)
  })
  it("needs a markup for a crossed-out price", () => {
    expect(validateSettingsForm({ ...valid, markup_percent: "" }, saved).markup_percent).toMatch(/needs a markup/)
    expect(validateSettingsForm({ ...valid, markup_percent: "", crossed_out_mode: "none" }, saved)).toEqual({})
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
  it("ignores changes that keep the same decimal value", () => {
    expect(pricingDiffers(form, saved)).toBe(false)
    expect(pricingDiffers({ ...form, markup_percent: "30.00" }, saved)).toBe(false)
    expect(pricingDiffers({ ...form, poll_interval_minutes: "5" }, saved)).toBe(false)
  })
  it("sees every pricing parameter", () => {
    expect(pricingDiffers({ ...form, markup_percent: "31" }, saved)).toBe(true)
    expect(pricingDiffers({ ...form, price_calculation: "min" }, saved)).toBe(true)
    expect(pricingDiffers({ ...form, crossed_out_mode: "none" }, saved)).toBe(true)
    expect(pricingDiffers({ ...form, crossed_out_mode: "old_price_markup", old_price_markup_percent: "60" }, saved)).toBe(true)
  })
})

describe("settingsBody", () => {
  it("sends the chosen crossed-out rule only and the key only when typed", () => {
    const form = { ...settingsToForm(saved), markup_percent: "12,5", stock_location_id: "sloc_1" }
    expect(settingsBody(form)).toEqual({
      base_url: "http://127.0.0.1:4010",
      price_calculation: "max",
      markup_percent: "12.5",
      discount_percent: "20",
      old_price_markup_percent: null,
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
