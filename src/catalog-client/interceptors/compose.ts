// One catalog GET as a chain of small parts, in the spirit of undici's interceptors: each part
// takes the next `send` and returns a `send` that does one thing around it (retry, wait out a
// 429, parse the body, hold a limiter slot, classify failures). transport.ts assembles them.
// undici's own Dispatcher.compose works a level lower (handler callbacks per chunk), where a
// limiter slot held until the body is read and a retry on truncated JSON do not fit.
import type { HeaderBag } from "../rate-limiter"

/** Counters shared by every part for the whole of one call (not reset between attempts). */
export interface CallBudget {
  /** Retries spent on failures, truncated bodies and 5xx answers. */
  retries: number
  /** 429 answers waited out. */
  rateLimitWaits: number
}

export interface CatalogCall {
  url: string
  /** Path and query as logged and quoted in errors (never the key). */
  logPath: string
  headers: Record<string, string>
  signal: AbortSignal
  budget: CallBudget
}

export interface RawResponse {
  status: number
  headers: HeaderBag
  text: string
  /** `X-Trace-ID`, or null. */
  requestId: string | null
  /** The parsed JSON of a 2xx answer (numbers as LosslessNumber), set by parseJsonBody. */
  body?: unknown
}

export type Send = (call: CatalogCall) => Promise<RawResponse>
export type Interceptor = (next: Send) => Send

/** `compose(a, b, c)(send)` is `a(b(c(send)))`: the first part is the outermost. */
export function compose(...interceptors: Interceptor[]): (send: Send) => Send {
  return (send) => interceptors.reduceRight((next, interceptor) => interceptor(next), send)
}
