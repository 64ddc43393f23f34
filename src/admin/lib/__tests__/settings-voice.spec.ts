// The settings page's one voice: Save's 400 and Test connection's {ok:false, error} read the
// same (the code and request id once), a run's stored error loses its "(code, HTTP n, request_id)"
// tail, the form's URL check is the same for both buttons.
import { errorVoice, runErrorVoice, toAdminApiError } from "../errors"
import { connectionErrors, keptKeyNotice, settingsToForm, validateSettingsForm } from "../settings-form"
import type { SyncSettings } from "../types"

const SAVED: SyncSettings = {
  ...({} as SyncSettings),
  base_url: "https://api.example.com",
  api_key: "••••7421",
  api_key_set: true,
  price_calculation: "max",
  poll_interval_minutes: 10,
  stock_location_id: null,
  sales_channel_id: null,
  removal_mode: "delete",
  primary_language: "uk",
  enabled: true,
  revision: 3,
}

describe("one voice for Test connection and Save", () => {
  it("a refused key: same sentence, the code and request id once in the detail, never in the sentence", () => {
    const fromTest = errorVoice({ code: "invalid_api_key", message: "The catalog refused the API key.", request_id: "req_9" })
    const fromSave = errorVoice(
      toAdminApiError(400, {
        type: "invalid_data",
        message: "api_key: The catalog refused the API key.",
        field: "api_key",
        code: "invalid_api_key",
        request_id: "req_9",
        errors: [{ field: "api_key", message: "The catalog refused the API key.", code: "invalid_api_key", request_id: "req_9" }],
      })
    )
    expect(fromSave).toEqual({ ...fromTest, field: "api_key" })
    expect(fromTest).toMatchObject({ sentence: "The catalog refused this API key.", detail: "Code invalid_api_key · request req_9" })
    for (const voice of [fromTest, fromSave]) {
      expect(voice.sentence).not.toMatch(/invalid_api_key|req_9/)
      expect(`${voice.sentence} ${voice.detail}`.match(/invalid_api_key/g)).toHaveLength(1)
      expect(`${voice.sentence} ${voice.detail}`.match(/req_9/g)).toHaveLength(1)
    }
  })

  it("an unreachable address reads the same from both", () => {
    const fromTest = errorVoice({ code: "unreachable", message: "Could not reach the catalog at this address.", request_id: null })
    const fromSave = errorVoice(
      toAdminApiError(400, {
        type: "invalid_data",
        field: "api_key",
        code: "unreachable",
        request_id: null,
        errors: [{ field: "api_key", message: "Could not reach the catalog at this address.", code: "unreachable", request_id: null }],
      })
    )
    expect(fromSave.sentence).toBe(fromTest.sentence)
    expect(fromSave.detail).toBe("Code unreachable")
  })

  it("an expired plan names its date from Test connection and from Save", () => {
    const error = {
      code: "plan_expired",
      message: "The catalog account's plan expired on 1 Jan 2020. Syncs are refused until it is renewed.",
      request_id: null,
      expired_at: "2020-01-01T00:00:00.000Z",
    }
    const fromTest = errorVoice(error)
    const fromSave = errorVoice(
      toAdminApiError(400, {
        type: "invalid_data",
        field: "api_key",
        code: "plan_expired",
        request_id: null,
        expired_at: error.expired_at,
        errors: [{ field: "api_key", ...error }],
      })
    )
    expect(fromTest.sentence).toBe("The catalog account's plan expired on 1 Jan 2020.")
    expect(fromSave.sentence).toBe(fromTest.sentence)
    expect(fromTest.detail).toBe("Code plan_expired")
  })

  it("a 409 with a code keeps the server's sentence", () => {
    const voice = errorVoice(
      toAdminApiError(409, { type: "conflict", code: "sync_running", message: "A sync is running with this key. Disconnect when it has finished." })
    )
    expect(voice).toEqual({
      sentence: "A sync is running with this key. Disconnect when it has finished.",
      detail: "Code sync_running",
      field: null,
      code: "sync_running",
    })
  })

  it("the URL check is one function: Save's validation and Test connection's pre-check say the same", () => {
    const values = { ...settingsToForm(SAVED), base_url: "api.example.com" }
    expect(connectionErrors(values).base_url).toBe("Enter a full URL, e.g. https://api.example.com.")
    expect(validateSettingsForm(values, SAVED).base_url).toBe(connectionErrors(values).base_url)
    expect(connectionErrors({ base_url: "", api_key: "" })).toEqual({})
  })
})

describe("runErrorVoice", () => {
  it("moves the client's (code, HTTP n, request_id) tail to the detail line", () => {
    const voice = runErrorVoice("invalid_api_key", "API key is invalid or revoked (invalid_api_key, HTTP 401, request_id 7f3a-11)")
    expect(voice).toEqual({
      sentence: "The catalog refused this API key.",
      detail: "Code invalid_api_key · request 7f3a-11",
      field: null,
      code: "invalid_api_key",
    })
  })
  it("keeps an unknown code's own message, without the tail", () => {
    expect(runErrorVoice("internal_error", "boom (internal_error, HTTP 500)")).toMatchObject({ sentence: "Boom.", detail: "Code internal_error" })
    expect(runErrorVoice(null, null).sentence).toBe("The run failed.")
  })
})

describe("keptKeyNotice", () => {
  it("says the saved key is kept when the opened key field is saved empty", () => {
    expect(keptKeyNotice({ ...settingsToForm(SAVED), api_key: "  " }, SAVED, true)).toBe(
      "The API key field was empty, so the saved key ••••7421 is kept. To remove it, use Disconnect."
    )
  })
  it("is silent when a key is typed, the field is closed, or no key is saved", () => {
    expect(keptKeyNotice({ ...settingsToForm(SAVED), api_key: "new-key-12345" }, SAVED, true)).toBeNull()
    expect(keptKeyNotice(settingsToForm(SAVED), SAVED, false)).toBeNull()
    expect(keptKeyNotice(settingsToForm(SAVED), { ...SAVED, api_key: null, api_key_set: false }, true)).toBeNull()
  })
})
