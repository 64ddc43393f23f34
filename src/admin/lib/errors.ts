// Errors of the admin API as the UI needs them: a message, the HTTP status and
// field errors (`400 {type: "invalid_data", field, errors: [{field, message}]}`).

export class AdminApiError extends Error {
  readonly status: number | null
  readonly type: string | null
  readonly fieldErrors: Record<string, string>

  constructor(message: string, status: number | null, type: string | null, fieldErrors: Record<string, string>) {
    super(message)
    this.name = "AdminApiError"
    this.status = status
    this.type = type
    this.fieldErrors = fieldErrors
  }
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
  return new AdminApiError(message, status, typeof record.type === "string" ? record.type : null, fieldErrors)
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
