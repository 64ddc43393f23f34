// Pure: what a page does with products whose write failed even when retried one by one.
// Failures are judged by their cause, found in the error and everything it wraps (MikroORM
// copies the pg error's fields onto its exception, Medusa's mapper turns some into a
// MedusaError, workflows serialise the error keeping its own fields, some wrap it in
// `cause` / `originalError` / `previousErrors` / `errors`):
// - the product's: a PostgreSQL data exception (class 22), integrity violation (23) or
//   program limit (54, e.g. a value too large for an index), or a MedusaError of a data type.
//   The product becomes a rejected item of the run with a plain reason (never the SQL or
//   its data), and the page commits without it;
// - the system's: connection errors (ECONNREFUSED, ECONNRESET, classes 08, 57P0x), out of
//   disk or memory (53), deadlocks and serialization failures (40, retried by replaying the
//   page), a missing table or column (42, 3D, 3F), internal errors (XX, 58), a pool being shut
//   down. The page fails and is replayed later, so no product is skipped for a cause not its own;
// - unknown: blamed on the product only when the system is shown to work (other products of
//   the page were written, or the database answered a probe), else the page fails.
import type { RejectedItem } from "../catalog-client/items"
import { cleanExcerpt, cleanText } from "../catalog-client/sanitise"
import { errorChain } from "./error-chain"

/** Medusa error types (MedusaError.Types) that blame the data written, not the system. */
const DATA_ERROR_TYPES = new Set(["invalid_data", "duplicate_error", "invalid_argument", "not_found", "not_allowed", "conflict"])

export type FailureCause = "product" | "system" | "unknown"

const SQLSTATE = /^[0-9A-Z]{5}$/
const NODE_NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOSPC",
  "ENOMEM",
  "EMFILE",
])
/** Messages of system failures whose error carries no code (pg, knex, pools, shutdown). */
const SYSTEM_MESSAGES = [
  /connection terminated/i,
  /connection (is )?closed/i,
  /timeout acquiring a connection/i,
  /unable to acquire a connection/i,
  /pool is (draining|destroyed)/i,
  /after calling end on the pool/i,
  /client has encountered a connection error/i,
  /database system is (shutting down|starting up|in recovery)/i,
  /terminating connection/i,
  /no space left on device/i,
  /out of memory/i,
  /too many clients/i,
  /deadlock detected/i,
  /could not serialize access/i,
  /connect ECONNREFUSED/i,
  // node-postgres: pool and client timeouts and a closed client carry no code.
  /timeout exceeded when trying to connect/i,
  /is not queryable/i,
  /query read timeout/i,
]
/** Messages PostgreSQL gives for data it refuses, when the code was lost on the way. */
const DATA_MESSAGES = [
  /unsupported Unicode escape sequence/i,
  /invalid byte sequence for encoding/i,
  /invalid input syntax/i,
  /value too long for type/i,
  /out of range/i,
  /index row (size|requires)/i,
  /violates (unique|not-null|foreign key|check) constraint/i,
]

interface Signals {
  sqlStates: string[]
  nodeCodes: string[]
  medusaTypes: string[]
  messages: string[]
  names: string[]
}

/** What the error and every error it wraps say. */
function collect(error: unknown): Signals {
  const out: Signals = { sqlStates: [], nodeCodes: [], medusaTypes: [], messages: [], names: [] }
  for (const e of errorChain(error)) {
    if (typeof e !== "object") {
      if (typeof e === "string") out.messages.push(e)
      continue
    }
    const r = e as Record<string, unknown>
    for (const key of ["code", "sqlState", "errno"]) {
      const v = r[key]
      if (typeof v !== "string") continue
      // Node codes first: EPIPE has a SQLSTATE's shape (no SQLSTATE class starts with E).
      if (/^E[A-Z]+$/.test(v)) out.nodeCodes.push(v)
      else if (SQLSTATE.test(v)) out.sqlStates.push(v)
    }
    if (typeof r.type === "string") out.medusaTypes.push(r.type)
    if (typeof r.message === "string") out.messages.push(r.message)
    if (typeof r.name === "string") out.names.push(r.name)
  }
  return out
}

function isSystemState(state: string): boolean {
  const cls = state.slice(0, 2)
  return ["08", "53", "57", "58", "XX", "40", "25", "3D", "3F", "42", "55", "F0", "HV", "P0"].includes(cls)
}

function isDataState(state: string): boolean {
  const cls = state.slice(0, 2)
  return cls === "22" || cls === "23" || cls === "54"
}

/** Who is to blame for a failed write: the product's data, the system, or unknown. */
export function classifyFailure(error: unknown): FailureCause {
  const s = collect(error)
  // The system first: a dead connection can surface wrapped in anything.
  if (s.sqlStates.some(isSystemState) || s.nodeCodes.some((c) => NODE_NETWORK_CODES.has(c))) return "system"
  if (s.names.some((n) => n === "ConnectionException" || n === "DeadlockException" || n === "LockWaitTimeoutException" || n === "KnexTimeoutError"))
    return "system"
  if (s.sqlStates.some(isDataState)) return "product"
  if (s.medusaTypes.some((t) => DATA_ERROR_TYPES.has(t))) return "product"
  if (s.messages.some((m) => SYSTEM_MESSAGES.some((p) => p.test(m)))) return "system"
  if (s.messages.some((m) => DATA_MESSAGES.some((p) => p.test(m)))) return "product"
  return "unknown"
}

const PLAIN_BY_STATE: [RegExp, string][] = [
  [/^22P05$|^22021$/, "invalid text"],
  [/^22001$/, "a text is too long"],
  [/^22003$/, "a number is out of range"],
  [/^22P02$|^2200[78]$/, "a value has the wrong format"],
  [/^22/, "an invalid value"],
  [/^23505$/, "a value that must be unique (such as a SKU or handle) is already used by another record"],
  [/^23502$/, "a required value is missing"],
  [/^23503$/, "it refers to a record that does not exist"],
  [/^23514$/, "a value breaks a check rule"],
  [/^23/, "it breaks an integrity rule"],
  [/^54/, "a value is too large"],
]

const PLAIN_BY_MESSAGE: [RegExp, string][] = [
  [/unsupported Unicode escape sequence|invalid byte sequence/i, "invalid text"],
  [/value too long/i, "a text is too long"],
  [/out of range/i, "a number is out of range"],
  [/invalid input syntax/i, "a value has the wrong format"],
  [/index row/i, "a value is too large"],
  [/violates unique constraint/i, "a value that must be unique (such as a SKU or handle) is already used by another record"],
  [/violates/i, "it breaks an integrity rule"],
]

/** Text that quotes a statement (and with it the product's data). */
const SQL_TEXT = /\b(insert\s+into|update\s+\S+\s+set|delete\s+from|select\s[\s\S]*\sfrom|values\s*\()/i

/**
 * A reason in plain words for a product's failed write: the database's refusal by kind, a
 * MedusaError's own (human) message, or a short message of an unknown error. Never SQL, and
 * cleaned so a run record can always be saved.
 */
export function failureReason(error: unknown): string {
  const s = collect(error)
  const state = s.sqlStates.find(isDataState)
  if (state) {
    const plain = PLAIN_BY_STATE.find(([p]) => p.test(state))?.[1] ?? "an invalid value"
    return `write failed: the database refused the product's data (${plain})`
  }
  const dataMessage = s.messages.find((m) => DATA_MESSAGES.some((p) => p.test(m)) && SQL_TEXT.test(m))
  if (dataMessage) {
    const plain = PLAIN_BY_MESSAGE.find(([p]) => p.test(dataMessage))?.[1] ?? "an invalid value"
    return `write failed: the database refused the product's data (${plain})`
  }
  return `write failed: ${failureMessage(error)}`
}

/** The error's message, cut to 300 characters, cleaned; a message quoting SQL is replaced. */
export function failureMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message
  const text = typeof message === "string" && message ? message : String(error)
  if (SQL_TEXT.test(text)) {
    const cause = classifyFailure(error)
    return cause === "system" ? "the database failed during the write" : "the database refused the product's data"
  }
  return cleanExcerpt(text.replace(/\s+/g, " ").trim(), 300)
}

/**
 * What a failed run stores and logs as its error: the message (cleaned, at most `max`
 * characters), except that a message quoting a statement (a system failure met during a page
 * write, such as a deadlock: MikroORM puts the SQL with the product's data in the message) is
 * replaced by a plain sentence with the SQLSTATE. The stack, when asked for, gets the same
 * replacement (its first line is the message).
 */
export function runErrorText(error: unknown, opts: { max?: number; withStack?: boolean } = {}): string {
  const max = opts.max ?? 2000
  let message: string
  if (error instanceof Error) message = error.message
  else if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
    message = (error as { message: string }).message
  } else {
    try {
      message = JSON.stringify(error) ?? String(error)
    } catch {
      message = String(error)
    }
  }
  const stack = opts.withStack && error instanceof Error && typeof error.stack === "string" ? error.stack : null
  if (SQL_TEXT.test(message)) {
    const state = collect(error).sqlStates[0]
    const safe = `${failureMessage(error)}${state ? ` (SQLSTATE ${state})` : ""}`
    return stack ? `${safe}\n${cleanText(stack.split(message).join(safe))}` : safe
  }
  const text = cleanExcerpt(message, max)
  return stack ? `${text}\n${cleanText(stack)}` : text
}

/** The error's own code (a non-empty string), else `fallback`. */
export function errorCodeOf(error: unknown, fallback = "internal_error"): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === "string" && code ? code : fallback
}

/**
 * The one way a failure becomes a code and a message on the server: the error's own code (else
 * internal_error) and runErrorText's message (cleaned, so a NUL byte cannot stop the run
 * record's save, and without SQL). The admin API's fixed words (apiErrorBody) build on it.
 */
export function runErrorOf(error: unknown, opts: { max?: number; withStack?: boolean } = {}): { code: string; message: string } {
  return { code: errorCodeOf(error), message: runErrorText(error, opts) }
}

export interface ProductFailure {
  catalogId: string
  error: unknown
}

export type FailureVerdict = { rejected: RejectedItem[] } | { fatal: unknown }

/**
 * @param failures products whose write failed alone
 * @param writtenCount products of the page written so far (proof the system works)
 * @param systemHealthy the database answered a probe after the failures (proof the system works)
 */
export function judgeFailures(failures: ProductFailure[], writtenCount: number, systemHealthy = false): FailureVerdict {
  if (!failures.length) return { rejected: [] }
  const causes = failures.map((f) => classifyFailure(f.error))
  const system = causes.indexOf("system")
  if (system !== -1) return { fatal: failures[system].error }
  const provenHealthy = writtenCount > 0 || systemHealthy
  const unknown = causes.indexOf("unknown")
  if (unknown !== -1 && !provenHealthy) return { fatal: failures[unknown].error }
  return { rejected: failures.map((f) => ({ id: f.catalogId, reason: failureReason(f.error) })) }
}

/** Does judging these failures need a probe of the database (unknown causes, nothing written)? */
export function needsProbe(failures: ProductFailure[], writtenCount: number): boolean {
  if (!failures.length || writtenCount > 0) return false
  const causes = failures.map((f) => classifyFailure(f.error))
  return !causes.includes("system") && causes.includes("unknown")
}
