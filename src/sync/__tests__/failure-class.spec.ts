import { classifyFailureKind, classOfCode, isLostFooting, isTransientClass, type FailureClass } from "../failure-class"

/** An error as the catalog client throws it once its retries are spent (NetworkError, TimeoutError, ServerError…). */
function catalogError(code: string, status: number | null = null, name = "NetworkError") {
  return Object.assign(new Error(`Catalog request failed: ${code}`), { name, code, status, requestId: null })
}
/** An error as undici / Node throws it, before the client wraps it. */
function socketError(code: string) {
  return Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(`connect ${code}`), { code }) })
}

describe("failure classes", () => {
  const catalogCases: [string, FailureClass][] = [
    ["ECONNREFUSED", "network"],
    ["ECONNRESET", "network"],
    ["ECONNABORTED", "network"],
    ["EPIPE", "network"],
    ["EHOSTUNREACH", "network"],
    ["ENETUNREACH", "network"],
    ["UND_ERR_SOCKET", "network"],
    ["UND_ERR_CLOSED", "network"],
    ["truncated_body", "network"],
    ["network_error", "network"],
    ["ENOTFOUND", "dns"],
    ["EAI_AGAIN", "dns"],
    ["EAI_FAIL", "dns"],
    ["ETIMEDOUT", "timeout"],
    ["ESOCKETTIMEDOUT", "timeout"],
    ["UND_ERR_CONNECT_TIMEOUT", "timeout"],
    ["UND_ERR_HEADERS_TIMEOUT", "timeout"],
    ["UND_ERR_BODY_TIMEOUT", "timeout"],
    ["timeout", "timeout"],
    ["gateway_timeout", "timeout"],
    ["ERR_TLS_CERT_ALTNAME_INVALID", "tls"],
    ["ERR_SSL_WRONG_VERSION_NUMBER", "tls"],
    ["EPROTO", "tls"],
    ["CERT_HAS_EXPIRED", "tls"],
    ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "tls"],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "tls"],
    ["SELF_SIGNED_CERT_IN_CHAIN", "tls"],
    ["server_error", "server"],
    ["service_unavailable", "server"],
    ["bad_gateway", "server"],
    ["invalid_response", "server"],
    ["rate_limited", "rate_limited"],
    ["daily_quota_exceeded", "rate_limited"],
    ["invalid_api_key", "refused"],
    ["plan_required", "refused"],
    ["validation_error", "invalid"],
    ["address_not_allowed", "invalid"],
    ["not_configured", "invalid"],
  ]

  it.each(catalogCases)("a catalog error %s is %s, with its raw code kept", (code, cls) => {
    expect(classifyFailureKind(catalogError(code))).toEqual({ class: cls, rawCode: code })
    expect(classOfCode(code)).toBe(cls)
  })

  it("transient: network, DNS, timeouts, TLS, 5xx and 429; never a refused key, an invalid request, the database or a bug", () => {
    for (const cls of ["network", "dns", "timeout", "tls", "server", "rate_limited"]) expect(isTransientClass(cls)).toBe(true)
    for (const cls of ["refused", "invalid", "database", "internal", null, "ECONNREFUSED"]) expect(isTransientClass(cls)).toBe(false)
  })

  it("reads the code undici puts on the cause of 'fetch failed', and a status without a known code", () => {
    expect(classifyFailureKind(socketError("ECONNREFUSED"))).toEqual({ class: "network", rawCode: "ECONNREFUSED" })
    expect(classifyFailureKind(socketError("UND_ERR_CONNECT_TIMEOUT"))).toEqual({ class: "timeout", rawCode: "UND_ERR_CONNECT_TIMEOUT" })
    expect(classifyFailureKind(catalogError("internal_error", 502, "ServerError"))).toEqual({ class: "server", rawCode: "internal_error" })
    expect(classifyFailureKind(catalogError("some_new_code", 503, "ServerError"))).toEqual({ class: "server", rawCode: "some_new_code" })
    expect(classifyFailureKind(catalogError("some_new_code", 429, "RateLimitedError"))).toEqual({ class: "rate_limited", rawCode: "some_new_code" })
    expect(classifyFailureKind(catalogError("some_new_code", 404, "NotFoundError"))).toEqual({ class: "invalid", rawCode: "some_new_code" })
  })

  it("an abort nobody asked for is a timeout (AbortSignal.timeout's TimeoutError, AbortError)", () => {
    expect(classifyFailureKind(new DOMException("The operation was aborted due to timeout", "TimeoutError")).class).toBe("timeout")
    expect(classifyFailureKind(Object.assign(new Error("This operation was aborted"), { name: "AbortError" })).class).toBe("timeout")
  })

  it("database: connection SQLSTATEs, pg connection codes without a catalog status, pool timeouts, terminated connections", () => {
    const pg = (code: string, message = "terminating connection due to administrator command") => Object.assign(new Error(message), { code })
    expect(classifyFailureKind(pg("57P01"))).toEqual({ class: "database", rawCode: "57P01" })
    expect(classifyFailureKind(pg("57P02"))).toEqual({ class: "database", rawCode: "57P02" })
    expect(classifyFailureKind(pg("57P03", "the database system is starting up"))).toEqual({ class: "database", rawCode: "57P03" })
    expect(classifyFailureKind(pg("08006", "connection failure"))).toEqual({ class: "database", rawCode: "08006" })
    expect(classifyFailureKind(pg("08P01", "protocol violation"))).toEqual({ class: "database", rawCode: "08P01" })
    expect(classifyFailureKind(pg("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432"))).toEqual({ class: "database", rawCode: "ECONNREFUSED" })
    expect(classifyFailureKind(pg("ECONNRESET", "read ECONNRESET"))).toEqual({ class: "database", rawCode: "ECONNRESET" })
    const knexTimeout = Object.assign(new Error("Knex: Timeout acquiring a connection. The pool is probably full."), { name: "KnexTimeoutError" })
    expect(classifyFailureKind(knexTimeout)).toEqual({ class: "database", rawCode: "KnexTimeoutError" })
    expect(classifyFailureKind(new Error("Connection terminated unexpectedly")).class).toBe("database")
    // MikroORM / Medusa wrap the driver's error: found in the cause.
    expect(classifyFailureKind(Object.assign(new Error("An unknown error occurred."), { type: "unknown_error", cause: pg("57P01") }))).toEqual({
      class: "database",
      rawCode: "57P01",
    })
  })

  it("knex's 'Transaction query already complete' alone is unclear (the run probes the database), a data error is no outage", () => {
    expect(classifyFailureKind(new Error("Transaction query already complete, run with DEBUG=knex:tx for more info")).class).toBe("internal")
    expect(classifyFailureKind(Object.assign(new Error("duplicate key"), { code: "23505" })).class).toBe("internal")
    expect(classifyFailureKind(new Error("boom"))).toEqual({ class: "internal", rawCode: null })
  })

  it("a page write that lost its footing: a lost database connection, knex's ended transaction, a lost run lock; never a product's data", () => {
    const pg = (code: string) => Object.assign(new Error("pg"), { code })
    expect(isLostFooting(pg("57P01"))).toBe(true)
    expect(isLostFooting(pg("08006"))).toBe(true)
    expect(isLostFooting(new Error("Connection terminated unexpectedly"))).toBe(true)
    expect(isLostFooting(Object.assign(new Error("Knex: Timeout acquiring a connection. The pool is probably full."), { name: "KnexTimeoutError" }))).toBe(true)
    expect(isLostFooting(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true)
    // The workflow engine hands the step's error back as a plain object; knex's words may be wrapped.
    expect(isLostFooting({ message: "step failed", cause: { message: "Transaction query already complete, run with DEBUG=knex:tx for more info" } })).toBe(true)
    expect(isLostFooting({ message: "catalog sync run r1 no longer holds the run lock", code: "lost_run_lock" })).toBe(true)
    expect(isLostFooting(pg("23505"))).toBe(false)
    expect(isLostFooting(pg("22001"))).toBe(false)
    expect(isLostFooting(Object.assign(new Error("Product with handle x already exists"), { type: "duplicate_error" }))).toBe(false)
    expect(isLostFooting(new Error("boom"))).toBe(false)
  })
})
