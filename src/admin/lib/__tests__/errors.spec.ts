import { AdminApiError, briefMessage, describeError, toAdminApiError } from "../errors"

describe("toAdminApiError", () => {
  it("collects field errors from the invalid_data body", () => {
    const error = toAdminApiError(400, {
      type: "invalid_data",
      message: "Markup must be between 0 and 1000",
      field: "markup_percent",
      errors: [
        { field: "markup_percent", message: "Markup must be between 0 and 1000" },
        { field: "poll_interval_minutes", message: "Too small" },
      ],
    })
    expect(error).toBeInstanceOf(AdminApiError)
    expect(error.status).toBe(400)
    expect(error.type).toBe("invalid_data")
    expect(error.fieldErrors).toEqual({
      markup_percent: "Markup must be between 0 and 1000",
      poll_interval_minutes: "Too small",
    })
  })
  it("uses the top-level field when there is no list", () => {
    expect(toAdminApiError(400, { message: "Key refused", field: "api_key" }).fieldErrors).toEqual({ api_key: "Key refused" })
  })
  it("copes with bodies that are not JSON objects", () => {
    const error = toAdminApiError(502, null)
    expect(error.message).toBe("The request failed (HTTP 502).")
    expect(error.fieldErrors).toEqual({})
    expect(toAdminApiError(401, "nope").message).toMatch(/session/)
  })
})

describe("describeError", () => {
  it("explains network failures and missing routes", () => {
    expect(describeError(new TypeError("Failed to fetch"))).toMatch(/could not be reached/)
    expect(describeError(toAdminApiError(404, {}))).toMatch(/not found/)
    expect(describeError(new Error("boom"))).toBe("boom")
    expect(describeError(42)).toBe("Something went wrong.")
  })
})

describe("briefMessage", () => {
  it("keeps the first line and cuts long ones", () => {
    expect(briefMessage("Cannot find module 'x'\nRequire stack:\n- a")).toBe("Cannot find module 'x'")
    expect(briefMessage("a".repeat(300), 10)).toBe("aaaaaaaaa…")
    expect(briefMessage(null)).toBe("")
  })
})
