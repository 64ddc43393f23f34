// No admin input of the plugin may hold the NUL character: PostgreSQL refuses it in text (22021,
// a 500 from whatever query it reaches). One middleware answers 400 naming where it was found
// (the path, a query parameter or a body field) before any route reads it.
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { invalidData } from "./helpers"

/** Nesting deeper than this is not walked (no admin body is that deep; the route refuses it). */
const MAX_DEPTH = 32

/** The dotted path of the first string (or key) holding NUL, or null. */
export function nulPath(value: unknown, path = "", depth = 0): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path || "body" : null
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return null
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value)
  for (const [key, inner] of entries) {
    const at = path ? `${path}.${key}` : key
    if (key.includes("\u0000")) return at
    const found = nulPath(inner, at, depth + 1)
    if (found) return found
  }
  return null
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

export function refuseNul(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const rule = "must not contain the NUL character"
  // The full URL's path: under a wildcard matcher `req.path` is relative to the mount point.
  const path = String(req.originalUrl ?? req.url ?? "").split("?")[0]
  if (decodedPath(path).includes("\u0000")) return invalidData(res, [{ field: "path", message: rule }])
  const inQuery = nulPath(req.query ?? {})
  if (inQuery) return invalidData(res, [{ field: inQuery, message: rule }])
  const inBody = nulPath(req.body)
  if (inBody) return invalidData(res, [{ field: inBody, message: rule }])
  next()
}
