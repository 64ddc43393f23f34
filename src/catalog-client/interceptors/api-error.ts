// An answer that is not a success, as the typed error the caller gets: the code, message,
// request id and details from the API's error body when it has one, the key scrubbed out.
import {
  CatalogApiError,
  DailyQuotaExceededError,
  InvalidApiKeyError,
  InvalidCursorError,
  NotFoundError,
  PlanRequiredError,
  PricingChangedError,
  RateLimitedError,
  ServerError,
  ValidationError,
  type CatalogApiErrorInit,
  type ValidationDetail,
} from "../errors"
import { parseExactJson } from "../json"
import { headerValue } from "../rate-limiter"
import { parseRetryAfterMs } from "../retry-policy"
import { errorBodySchema } from "../schemas"
import type { RawResponse } from "./compose"

type ErrorClass = new (message: string, init: CatalogApiErrorInit) => CatalogApiError

function errorClass(status: number, code: string): ErrorClass {
  if (status === 401) return InvalidApiKeyError
  if (status === 403) return PlanRequiredError
  if (status === 404) return NotFoundError
  if (status === 422) {
    if (code === "invalid_cursor") return InvalidCursorError
    if (code === "pricing_changed") return PricingChangedError
    return ValidationError
  }
  if (status === 429) return code === "daily_quota_exceeded" ? DailyQuotaExceededError : RateLimitedError
  if (status >= 500) return ServerError
  return CatalogApiError
}

export function apiErrorFrom(response: Pick<RawResponse, "status" | "text" | "headers">, redact: (text: string) => string): CatalogApiError {
  const { status, text, headers } = response
  let code = status === 429 ? "rate_limited" : status >= 500 ? "internal_error" : `http_${status}`
  let message: string | null = null
  let requestId: string | null = headerValue(headers, "x-trace-id") ?? null
  let details: ValidationDetail[] | null = null
  try {
    const parsed = errorBodySchema.safeParse(parseExactJson(text))
    if (parsed.success) {
      code = parsed.data.error.code
      message = parsed.data.error.message ?? null
      requestId = parsed.data.error.request_id ?? requestId
      details =
        parsed.data.error.details?.map((d) => ({
          field: d.field ?? null,
          message: redact(d.message ?? ""),
        })) ?? null
    }
  } catch {
    // Not JSON (a proxy's error page): keep the status-derived code.
  }
  const retryAfterMs = parseRetryAfterMs(headerValue(headers, "retry-after"))
  const init: CatalogApiErrorInit = {
    code,
    status,
    requestId,
    details,
    retryAfterSeconds: retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000),
  }
  const full = `${redact(message ?? `HTTP ${status}`)} (${code}, HTTP ${status}${requestId ? `, request_id ${requestId}` : ""})`
  return new (errorClass(status, code))(full, init)
}

/** apiErrorFrom, made once per answer (the layers that log a 429 or 5xx and the caller share it). */
export function memoisedApiErrors(redact: (text: string) => string): (response: RawResponse) => CatalogApiError {
  const made = new WeakMap<RawResponse, CatalogApiError>()
  return (response) => {
    let error = made.get(response)
    if (!error) made.set(response, (error = apiErrorFrom(response, redact)))
    return error
  }
}
