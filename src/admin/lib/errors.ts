// Errors of the admin API as the UI needs them: a message, the HTTP status and
// field errors (`400 {type: "invalid_data", field, errors: [{field, message}]}`).

import { planRefusalSentence } from "./plan-words"

/** What a refusal that came from the catalog adds: its code, request id and, for an expired plan, the date. */
export type RemoteDetail = { code: string; request_id: string | null; expired_at: string | null }

export class AdminApiError extends Error {
  readonly status: number | null
  readonly type: string | null
  readonly fieldErrors: Record<string, string>
  /** `code`, `request_id`, `expired_at` of the body (or of its first coded field error), when it has a code. */
  readonly remote: RemoteDetail | null

  constructor(message: string, status: number | null, type: string | null, fieldErrors: Record<string, string>, remote: RemoteDetail | null = null) {
    super(message)
    this.name = "AdminApiError"
    this.status = status
    this.type = type
    this.fieldErrors = fieldErrors
    this.remote = remote
  }
}

function remoteDetail(record: Record<string, unknown>): RemoteDetail | null {
  const coded = [record, ...(Array.isArray(record.errors) ? record.errors : [])].find(
    (entry): entry is Record<string, unknown> => !!entry && typeof entry === "object" && typeof (entry as { code?: unknown }).code === "string"
  )
  if (!coded) return null
  const text = (value: unknown) => (typeof value === "string" && value ? value : null)
  return { code: coded.code as string, request_id: text(coded.request_id), expired_at: text(coded.expired_at) }
}

/** Builds the error from a non-2xx answer's status and parsed body (any shape). */
export function toAdminApiError(status: number, body: unknown): AdminApiError {
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {}
  const fieldErrors: Record<string, string> = {}
  if (Array.isArray(record.errors)) {
    for (const entry of record.errors) {
      if (!entry || typeof entry !== "object") continue
      const { field, message } = entry as { field?: unknown; message?: unknown }
      if (typeof field === "string" && typeof message === "string" && !(field in fieldErrors)) {
        fieldErrors[field] = message
      }
    }
  }
  const message =
    typeof record.message === "string" && record.message
      ? record.message
      : status === 401
        ? "Your admin session has ended. Log in again."
        : `The request failed (HTTP ${status}).`
  if (typeof record.field === "string" && record.field && !(record.field in fieldErrors)) {
    fieldErrors[record.field] = message
  }
  return new AdminApiError(message, status, typeof record.type === "string" ? record.type : null, fieldErrors, remoteDetail(record))
}

/** One line for an error state, whatever was thrown (network failure included). */
export function describeError(error: unknown): string {
  if (error instanceof AdminApiError) {
    if (error.status === 404) return "The catalog sync API was not found. Is the plugin installed and built?"
    return error.message
  }
  if (error instanceof TypeError) return "The server could not be reached. Check your connection and retry."
  if (error instanceof Error && error.message) return error.message
  return "Something went wrong."
}

/** A run's stored error for a compact view: its first line, cut at `max` characters. */
export function briefMessage(message: string | null | undefined, max = 240): string {
  const line = (message ?? "").split("\n")[0].trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

// ---------------------------------------------------------------------------------------------
// One voice for errors: one short human sentence, and the code and request id once, in a
// secondary line. Test connection (`{ok: false, error}`) and Save (a 400 naming a field, whose
// message may quote the catalog's error) both go through `errorVoice`, so the same problem reads
// the same wherever it shows.

export type ErrorVoice = {
  /** One short sentence for the admin, e.g. "The catalog refused this API key." */
  sentence: string
  /** "Code invalid_api_key · request req_123", or null when there is neither. */
  detail: string | null
  /** The form field the error belongs beside, when known. */
  field: string | null
  code: string | null
}

const CODE_SENTENCES: Record<string, string> = {
  invalid_api_key: "The catalog refused this API key.",
  plan_required: planRefusalSentence(null),
  plan_expired: "The catalog account's plan has expired.",
  rate_limited: "The catalog is limiting requests for this key. Try again in a minute.",
  daily_quota_exceeded: "Today's request quota for this key is used up. Try again tomorrow.",
  unreachable: "Could not reach the catalog at this address.",
  weak_encryption_secret: "The server's encryption secret is too weak to store the key. Ask whoever runs the server.",
}

const FIELD_LABELS: Record<string, string> = {
  base_url: "The address",
  api_key: "The API key",
  markup_percent: "The markup",
  discount_percent: "The discount",
  old_price_markup_percent: "The crossed-out price markup",
  poll_interval_minutes: "The poll interval",
  stock_location_id: "The stock location",
  sales_channel_id: "The sales channel",
}

const KNOWN_CODE = new RegExp(`\\b(${Object.keys(CODE_SENTENCES).join("|")})\\b`)

function sentenceCase(text: string): string {
  const t = text.trim().replace(/\s+/g, " ")
  if (!t) return t
  const first = t.charAt(0).toUpperCase() + t.slice(1)
  return /[.!?]$/.test(first) ? first : `${first}.`
}

/** "Code invalid_api_key · request req_1"; null without either. */
export function errorDetail(code: string | null | undefined, requestId: string | null | undefined): string | null {
  const parts = [code ? `Code ${code}` : null, requestId ? `request ${requestId}` : null].filter(Boolean)
  return parts.length ? parts.join(" · ") : null
}

/** A field's message as one sentence: ("base_url", "must be an absolute http(s) URL") -> "The address must be …". */
export function fieldSentence(field: string, message: string): string {
  const code = KNOWN_CODE.exec(message)?.[1]
  if (code) return CODE_SENTENCES[code]
  const label = FIELD_LABELS[field] ?? `The ${field.replace(/[_-]+/g, " ")}`
  return sentenceCase(`${label} ${message.replace(/^\s*[A-Z_a-z]+:\s*/, (m) => (m.trim().slice(0, -1) === field ? "" : m))}`)
}

/** The one voice for any failure: a catalog error object (Test connection), an API error (Save), or anything thrown. */
export function errorVoice(error: unknown): ErrorVoice {
  // { code, message, request_id }: Test connection's `error`, the status route's account_error.
  if (error && typeof error === "object" && !(error instanceof Error) && typeof (error as { code?: unknown }).code === "string") {
    const e = error as { code: string; message?: string; request_id?: string | null; expired_at?: string | null }
    let sentence = CODE_SENTENCES[e.code] ?? sentenceCase(stripCode(e.message ?? "", e.code) || "The catalog answered with an error")
    if (e.code === "plan_expired" && e.expired_at) sentence = planRefusalSentence(e.expired_at)
    if (e.code === "rate_limited" && e.message && /Try again in \d+ s\./.test(e.message)) sentence = stripCode(e.message, e.code)
    return { sentence, detail: errorDetail(e.code, e.request_id ?? null), field: null, code: e.code }
  }
  if (error instanceof AdminApiError) {
    const [field, message] = Object.entries(error.fieldErrors)[0] ?? [null, null]
    // A refusal with a code (Save's key check, a 409): worded exactly as Test connection words it.
    if (error.remote) {
      const voice = errorVoice({
        code: error.remote.code,
        message: message ?? error.message,
        request_id: error.remote.request_id,
        expired_at: error.remote.expired_at,
      })
      return { ...voice, field: field ?? null }
    }
    const requestId = /request[_ ]id[: ]+([A-Za-z0-9._:-]+)/.exec(error.message)?.[1] ?? null
    if (field && message) {
      const code = KNOWN_CODE.exec(message)?.[1] ?? null
      return { sentence: fieldSentence(field, message), detail: errorDetail(code, requestId), field, code }
    }
    return {
      sentence: describeError(error),
      detail: errorDetail(error.type && error.type !== "invalid_data" ? error.type : null, requestId),
      field: null,
      code: null,
    }
  }
  return { sentence: describeError(error), detail: null, field: null, code: null }
}

/** The message without the code repeated in it: "… key (invalid_api_key)." -> "… key." */
function stripCode(message: string, code: string): string {
  return message.replace(new RegExp(`\\s*\\(${code}[^)]*\\)`), "").trim()
}

/**
 * A run's stored error (`error_code`, `error_message`) in the one voice. The catalog client's
 * message ends in "(invalid_api_key, HTTP 401, request_id abc)": that tail moves to the detail
 * line, so the code and request id show once.
 */
export function runErrorVoice(code: string | null | undefined, message: string | null | undefined): ErrorVoice {
  const text = briefMessage(message, 1000)
  const tail = /\s*\(([a-z_]+), HTTP \d{3}(?:, request_id ([A-Za-z0-9._:-]+))?\)\s*$/.exec(text)
  const requestId = tail?.[2] ?? null
  const bare = tail ? text.slice(0, tail.index).trim() : text
  const known = code ? CODE_SENTENCES[code] : undefined
  const sentence = known ?? (bare ? sentenceCase(stripCode(bare, code ?? "")) : "The run failed.")
  return { sentence, detail: errorDetail(code ?? null, requestId), field: null, code: code ?? null }
}

/**
 * The error line of a past run (the Last run card, the run page): told from what that run recorded
 * (its error_code and error_message), never from the account as it is now. Issue 43: a run refused
 * with plan_required while the plan was "Basic" read "The catalog account's plan expired on 1 Dec
 * 2026." once the plan had since expired. The run's 403 plan_required does not say whether the
 * plan lacked API access or had ended, so it reads as the refusal without a date.
 */
export function runErrorSentence(run: { error_code?: string | null; error_message?: string | null }): string {
  return runErrorVoice(run.error_code, run.error_message).sentence
}
