// Pure: what kind of failure ended a request or a run, judged by its class, never by matching one
// code string. The raw code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, 57P01, 503, …) is kept beside
// the class for the run's record; what happens next (retry, resume, stop) follows the class.
//
// - network, dns, timeout, tls, server, rate_limited: the catalog or the way to it is unwell for
//   now. Retried with backoff until the next poll takes over.
// - database: the shop's own PostgreSQL connection was lost (restart, failover, pool exhausted).
//   The run is interrupted and resumed from its cursor once the database answers.
// - refused: the catalog refused the key or plan (401, 403). No retry until the settings change.
// - invalid: the catalog refused the request itself (other 4xx) or the configuration is unusable.
// - internal: anything else; retried a bounded number of times, as a bug would not heal.

import { errorChain } from "./error-chain"

export type FailureClass = "network" | "dns" | "timeout" | "tls" | "server" | "rate_limited" | "database" | "refused" | "invalid" | "internal"

/** Classes that heal by themselves: retried with backoff up to the next poll. */
export const TRANSIENT_CLASSES: ReadonlySet<FailureClass> = new Set(["network", "dns", "timeout", "tls", "server", "rate_limited"])

export interface FailureKind {
  class: FailureClass
  /** The most specific code found (a Node or undici code, a SQLSTATE, an API code), or null. */
  rawCode: string | null
}

const TIMEOUT_CODES = new Set([
  "ETIMEDOUT",
  "ESOCKETTIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ABORT_ERR",
  "timeout",
  "gateway_timeout",
])
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME", "ENODATA", "ESERVFAIL", "ECONNREFUSED_DNS"])
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENETRESET",
  "EADDRNOTAVAIL",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_DESTROYED",
  "UND_ERR_ABORTED",
  "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
  "ERR_STREAM_PREMATURE_CLOSE",
  "network_error",
  "truncated_body",
])
/** TLS handshake and certificate failures (OpenSSL's and Node's codes). */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|ERR_OSSL_)/
const SERVER_CODES = new Set(["server_error", "service_unavailable", "bad_gateway", "internal_server_error", "invalid_response"])
const RATE_CODES = new Set(["rate_limited", "daily_quota_exceeded"])
const REFUSED_CODES = new Set(["invalid_api_key", "plan_required"])
const INVALID_CODES = new Set(["validation_error", "not_found", "address_not_allowed", "not_configured", "weak_encryption_secret"])
/** Connection errors the pg driver and knex report without a SQLSTATE. */
const DATABASE_MESSAGES = [
  /connection terminated/i,
  /terminating connection due to/i,
  /database system is (shutting down|starting up|in recovery|not yet accepting connections)/i,
  /the database system is/i,
  /timeout acquiring a connection/i,
  /unable to acquire a connection/i,
  /pool is (draining|destroyed)/i,
  /client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /connection is not queryable|is not queryable/i,
  /server closed the connection unexpectedly/i,
]
const DATABASE_NAMES = new Set(["KnexTimeoutError", "ConnectionException"])
const SQLSTATE = /^[0-9A-Z]{5}$/

interface Found {
  codes: string[]
  names: string[]
  messages: string[]
  statuses: number[]
  /** An error from the catalog client (it carries an HTTP status field, perhaps null). */
  catalog: boolean
}

/** What the error and every error it wraps say. */
function walk(error: unknown): Found {
  const out: Found = { codes: [], names: [], messages: [], statuses: [], catalog: false }
  for (const e of errorChain(error)) {
    if (typeof e === "string") {
      out.messages.push(e)
      continue
    }
    if (typeof e !== "object") continue
    const r = e as Record<string, unknown>
    for (const key of ["code", "sqlState", "errno"]) if (typeof r[key] === "string" && r[key]) out.codes.push(r[key] as string)
    if (typeof r.name === "string") out.names.push(r.name)
    if (typeof r.message === "string") out.messages.push(r.message)
    // The catalog client's errors carry an HTTP status field; undici's own say "fetch failed".
    if (("status" in r && "requestId" in r) || r.message === "fetch failed") out.catalog = true
    if (typeof r.status === "number") out.statuses.push(r.status)
  }
  return out
}

function isDatabaseState(code: string): boolean {
  // 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
  return SQLSTATE.test(code) && (code.startsWith("08") || /^57P0[1-3]$/.test(code))
}

/**
 * Whether a run's error code is the catalog refusing the key or the plan (401 invalid_api_key, 403
 * plan_required): the sync stays blocked until the settings change.
 */
export function isRefusalCode(code: string | null | undefined): boolean {
  return !!code && REFUSED_CODES.has(code)
}

/** The class of one code on its own (a stored run's error_code, a client's raw code). */
export function classOfCode(code: string, fromCatalog = true): FailureClass | null {
  if (isDatabaseState(code)) return "database"
  if (TIMEOUT_CODES.has(code)) return "timeout"
  if (DNS_CODES.has(code)) return "dns"
  if (TLS_CODE.test(code)) return "tls"
  if (NETWORK_CODES.has(code)) return fromCatalog ? "network" : "database"
  if (SERVER_CODES.has(code)) return "server"
  if (RATE_CODES.has(code)) return "rate_limited"
  if (REFUSED_CODES.has(code)) return "refused"
  if (INVALID_CODES.has(code)) return "invalid"
  return null
}

/**
 * The class and raw code of a failure. A connection error from the catalog client (an error
 * with an HTTP status field) is the catalog's; the same code on any other error is the
 * database's (the run talks to nothing else over the network).
 */
export function classifyFailureKind(error: unknown): FailureKind {
  const f = walk(error)
  const raw = f.codes.find((c) => c !== "internal_error") ?? f.codes[0] ?? null
  // Codes first, most specific (innermost wrapped) last-found first.
  for (const code of [...f.codes].reverse()) {
    const cls = classOfCode(code, f.catalog)
    if (cls) return { class: cls, rawCode: code }
  }
  const status = f.statuses.find((s) => s >= 400)
  if (status !== undefined) {
    if (status === 429) return { class: "rate_limited", rawCode: raw ?? "429" }
    if (status >= 500) return { class: "server", rawCode: raw ?? String(status) }
    if (status === 401 || status === 403) return { class: "refused", rawCode: raw ?? String(status) }
    return { class: "invalid", rawCode: raw ?? String(status) }
  }
  // An abort nobody asked for is a timeout (AbortSignal.timeout throws TimeoutError, older code AbortError).
  if (f.names.some((n) => n === "TimeoutError" || n === "AbortError" || n === "ConnectTimeoutError" || n === "HeadersTimeoutError" || n === "BodyTimeoutError"))
    return { class: "timeout", rawCode: raw ?? f.names.find((n) => /Timeout|Abort/.test(n)) ?? null }
  if (f.names.some((n) => DATABASE_NAMES.has(n)) || f.messages.some((m) => DATABASE_MESSAGES.some((p) => p.test(m))))
    return { class: "database", rawCode: raw ?? f.names.find((n) => DATABASE_NAMES.has(n)) ?? "connection_lost" }
  if (f.messages.some((m) => /\bfetch failed\b|socket hang up|other side closed/i.test(m))) return { class: "network", rawCode: raw ?? "network_error" }
  return { class: "internal", rawCode: raw }
}

/** knex's words for a query on a transaction that already ended: the connection under it was lost and the transaction rolled back. */
const ENDED_TRANSACTION = /Transaction query already complete/i

/**
 * Whether a failed page write lost its footing rather than met a product it could not write: the
 * database connection was lost (class database), knex's transaction ended under it after such a
 * loss, or the run lost its run lock. Such a failure says nothing about the page's products: the
 * page is never written again product by product; it fails, and the run ends interrupted and
 * resumes from its cursor.
 */
export function isLostFooting(error: unknown): boolean {
  if (classifyFailureKind(error).class === "database") return true
  return errorChain(error).some((e) => {
    if (!e || typeof e !== "object") return typeof e === "string" && ENDED_TRANSACTION.test(e)
    const r = e as Record<string, unknown>
    return r.code === "lost_run_lock" || r.name === "LostRunLockError" || (typeof r.message === "string" && ENDED_TRANSACTION.test(r.message))
  })
}

export function isTransientClass(cls: FailureClass | string | null | undefined): boolean {
  return !!cls && TRANSIENT_CLASSES.has(cls as FailureClass)
}
