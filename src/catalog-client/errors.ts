// Typed errors of the catalog client. None of them ever holds the API key: messages come from
// the client or from the API (scrubbed), and no request headers or options are attached.

export interface ValidationDetail {
  field: string | null
  message: string
}

export interface CatalogApiErrorInit {
  code: string
  status: number | null
  requestId: string | null
  details?: ValidationDetail[] | null
  retryAfterSeconds?: number | null
}

/** Any error the catalog API answered (or that the client raised about an answer). */
export class CatalogApiError extends Error {
  readonly code: string
  readonly status: number | null
  /** Same as `X-Trace-ID`; quote it when contacting support. */
  readonly requestId: string | null
  /** snake_case alias, as the API names it. */
  readonly request_id: string | null
  readonly details: ValidationDetail[] | null
  readonly retryAfterSeconds: number | null

  constructor(message: string, init: CatalogApiErrorInit) {
    super(message)
    this.name = new.target.name
    this.code = init.code
    this.status = init.status
    this.requestId = init.requestId
    this.request_id = init.requestId
    this.details = init.details ?? null
    this.retryAfterSeconds = init.retryAfterSeconds ?? null
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      code: this.code,
      status: this.status,
      request_id: this.requestId,
      details: this.details,
      retry_after_seconds: this.retryAfterSeconds,
    }
  }
}

/** 401: key missing, wrong, incomplete or revoked. Never retried. */
export class InvalidApiKeyError extends CatalogApiError {}
/** 403: the plan has no API access or the subscription ended. Never retried. */
export class PlanRequiredError extends CatalogApiError {}
/** 404: product absent, off sale, or wrong address. */
export class NotFoundError extends CatalogApiError {}
/** 422 validation_error: `details` names the offending parameters. */
export class ValidationError extends CatalogApiError {}
/** 422 invalid_cursor: restart the feed without a cursor. */
export class InvalidCursorError extends CatalogApiError {}
/** 422 pricing_changed: restart the feed without a cursor; every price is recomputed. */
export class PricingChangedError extends CatalogApiError {}
/** 429 rate_limited whose Retry-After exceeds the configured ceiling, or after too many waits. */
export class RateLimitedError extends CatalogApiError {}
/** 429 daily_quota_exceeded whose Retry-After exceeds the configured ceiling. */
export class DailyQuotaExceededError extends CatalogApiError {}
/** 5xx that kept failing after every retry. */
export class ServerError extends CatalogApiError {}
/** A 2xx answer whose body is not what the API promises (bad JSON after retries, wrong envelope). */
export class InvalidResponseError extends CatalogApiError {}

/** Connection refused/reset or a truncated body, after every retry. */
export class NetworkError extends CatalogApiError {}
/** Connect, header or body timeout, after every retry. */
export class TimeoutError extends CatalogApiError {}

/** The caller's AbortSignal fired (or the client was closed). */
export class AbortedError extends Error {
  readonly code = "aborted"
  constructor(message = "The catalog request was aborted") {
    super(message)
    this.name = "AbortedError"
  }
}
