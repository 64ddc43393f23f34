// A request that got no usable answer: refused address, abort, timeout or another network error.
import { abortReason } from "../abort"
import { AddressNotAllowedError } from "../address-guard"
import { NetworkError, TimeoutError, type CatalogApiErrorInit } from "../errors"
import type { Interceptor } from "./compose"

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"])

/** A failure worth another attempt (a connection error, a timeout, a truncated body). */
export class TransientFailure extends Error {
  constructor(
    readonly kind: "timeout" | "network",
    readonly code: string,
    message: string,
    readonly requestId: string | null = null
  ) {
    super(message)
  }

  /** The typed error thrown once the retries are spent. */
  toApiError(logPath: string, attempts: number): NetworkError | TimeoutError {
    const init: CatalogApiErrorInit = { code: this.code, status: null, requestId: this.requestId }
    const message = `Catalog request ${logPath} failed after ${attempts} attempts: ${this.message}`
    return this.kind === "timeout" ? new TimeoutError(message, init) : new NetworkError(message, init)
  }
}

/**
 * Errors thrown by the request or the body read become: the abort reason when the call was
 * aborted, the AddressNotAllowedError as is (nothing to retry), else a TransientFailure whose
 * message has the key scrubbed out.
 */
export function classifyFailures(redact: (text: string) => string): Interceptor {
  return (next) => async (call) => {
    try {
      return await next(call)
    } catch (error) {
      if (call.signal.aborted) throw abortReason(call.signal)
      if (error instanceof AddressNotAllowedError) throw error
      const code = rawCodeOf(error)
      const message = redact(String((error as Error)?.message ?? error))
      throw new TransientFailure(isTimeout(error, code) ? "timeout" : "network", code || "network_error", message)
    }
  }
}

/** The error's string code, or its cause's (fetch wraps the socket's error); a DOMException's numeric code is no code. */
function rawCodeOf(error: unknown): string {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === "string" && code) return code
    const errors = (e as { errors?: unknown }).errors
    if (Array.isArray(errors)) {
      const inner = errors.map((x) => (x as { code?: unknown })?.code).find((c) => typeof c === "string" && c)
      if (inner) return inner as string
    }
  }
  const name = (error as { name?: unknown })?.name
  return name === "TimeoutError" || name === "AbortError" ? name : ""
}

function isTimeout(error: unknown, code: string): boolean {
  if (TIMEOUT_CODES.has(code) || /timeout/i.test(code)) return true
  const name = (error as { name?: unknown })?.name
  return name === "TimeoutError" || name === "AbortError"
}
