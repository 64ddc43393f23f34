import { AdminApiError, errorDetail, errorVoice, fieldSentence, toAdminApiError } from "../errors"

describe("errorVoice", () => {
  it("Test connection and Save say the same sentence for a refused key, the code once in the detail", () => {
    const fromTest = errorVoice({ code: "invalid_api_key", message: "The catalog refused the API key (invalid_api_key).", request_id: "req_1" })
    const fromSave = errorVoice(
      toAdminApiError(400, {
        type: "invalid_data",
        message: "api_key: the catalog API refused the key: The catalog refused the API key (invalid_api_key).",
        field: "api_key",
        errors: [{ field: "api_key", message: "the catalog API refused the key: The catalog refused the API key (invalid_api_key)." }],
      })
    )
    expect(fromTest.sentence).toBe("The catalog refused this API key.")
    expect(fromSave.sentence).toBe(fromTest.sentence)
    expect(fromTest.detail).toBe("Code invalid_api_key · request req_1")
    expect(fromSave.detail).toBe("Code invalid_api_key")
    expect(fromSave.field).toBe("api_key")
    // The code is never repeated in the sentence.
    expect(fromTest.sentence).not.toContain("invalid_api_key")
  })
  it("the same URL error from both words it the same", () => {
    const body = {
      type: "invalid_data",
      message: "base_url: must be an absolute http(s) URL",
      field: "base_url",
      errors: [{ field: "base_url", message: "must be an absolute http(s) URL" }],
    }
    const a = errorVoice(toAdminApiError(400, body))
    expect(a.sentence).toBe("The address must be an absolute http(s) URL.")
    expect(a.detail).toBeNull()
    expect(a.field).toBe("base_url")
  })
  it("unreachable and quota codes get their fixed sentences", () => {
    expect(errorVoice({ code: "unreachable", message: "Could not reach the catalog at this address.", request_id: null })).toEqual({
      sentence: "Could not reach the catalog at this address.",
      detail: "Code unreachable",
      field: null,
      code: "unreachable",
    })
    expect(errorVoice({ code: "daily_quota_exceeded", message: "x" }).sentence).toBe("Today's request quota for this key is used up. Try again tomorrow.")
    expect(errorVoice({ code: "rate_limited", message: "The catalog is limiting requests for this key. Try again in 12 s." }).sentence).toBe(
      "The catalog is limiting requests for this key. Try again in 12 s."
    )
  })
  it("an expired plan names its date", () => {
    expect(errorVoice({ code: "plan_expired", message: "", expired_at: "2020-01-31T00:00:00Z" }).sentence).toBe(
      "The catalog account's plan expired on 31 Jan 2020."
    )
  })
  it("an unknown code keeps the server's message, without the code in parentheses", () => {
    expect(errorVoice({ code: "teapot", message: "the catalog is a teapot (teapot)" }).sentence).toBe("The catalog is a teapot.")
  })
  it("network failures and other throws read as one sentence with no detail", () => {
    expect(errorVoice(new TypeError("Failed to fetch"))).toEqual({
      sentence: "The server could not be reached. Check your connection and retry.",
      detail: null,
      field: null,
      code: null,
    })
    expect(errorVoice(new AdminApiError("Boom", 500, null, {})).sentence).toBe("Boom")
  })
})

describe("fieldSentence / errorDetail", () => {
  it("labels known fields and sentence-cases", () => {
    expect(fieldSentence("markup_percent", "must be from 0 to 1000")).toBe("The markup must be from 0 to 1000.")
    expect(fieldSentence("some_field", "is not accepted here")).toBe("The some field is not accepted here.")
  })
  it("detail needs a code or a request id", () => {
    expect(errorDetail(null, null)).toBeNull()
    expect(errorDetail(null, "r1")).toBe("request r1")
  })
})
