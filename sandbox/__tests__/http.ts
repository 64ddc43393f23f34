// Test helpers: real HTTP against a sandbox, JSON parsed so 64-bit ids stay exact.

import { parse } from "lossless-json"

export interface HttpResult {
  status: number
  headers: Headers
  text: string
  json: any
}

/** Integers become strings when outside the safe range, so ids never lose digits. */
export function parseExact(text: string): any {
  return parse(text, undefined, (digits) => {
    if (/^-?\d+$/.test(digits)) {
      const n = Number(digits)
      return Number.isSafeInteger(n) ? n : digits
    }
    return Number(digits)
  })
}

export async function get(
  baseUrl: string,
  path: string,
  opts: { key?: string | null; headers?: Record<string, string>; method?: string } = {}
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) }
  if (opts.key !== null && opts.key !== undefined) headers["X-API-Key"] = opts.key
  const res = await fetch(baseUrl + path, { method: opts.method ?? "GET", headers })
  const text = await res.text()
  let json: any = null
  if (text && (res.headers.get("content-type") ?? "").includes("json")) json = parseExact(text)
  return { status: res.status, headers: res.headers, text, json }
}

export async function control(controlUrl: string, path: string, body?: unknown, method = "POST"): Promise<any> {
  const res = await fetch(controlUrl + path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`control ${path}: ${res.status} ${text}`)
  return { ...parseExact(text), __raw: text }
}

/** Asserts the spec's error body, with request_id equal to X-Trace-ID. */
export function expectError(result: HttpResult, status: number, code: string, fields?: string[]): void {
  expect({ status: result.status, code: result.json?.error?.code }).toEqual({ status, code })
  expect(typeof result.json.error.message).toBe("string")
  expect(result.json.error.request_id).toBe(result.headers.get("x-trace-id"))
  expect(result.json.error.request_id).toBeTruthy()
  if (fields) {
    expect(Array.isArray(result.json.error.details)).toBe(true)
    const named = new Set(result.json.error.details.map((d: any) => d.field))
    for (const field of fields) expect(named).toContain(field)
    for (const detail of result.json.error.details) expect(typeof detail.message).toBe("string")
  } else if (code !== "validation_error") {
    expect(result.json.error.details).toBeNull()
  }
}

/** Walks /v1/products/changes until has_more is false; returns items and the final cursor. */
export async function drainChanges(baseUrl: string, key: string, query = "", cursor: string | null = null, limit = 200) {
  const items: any[] = []
  let pages = 0
  for (;;) {
    const q = `limit=${limit}${query ? "&" + query : ""}${cursor ? "&cursor=" + encodeURIComponent(cursor) : ""}`
    const page = await get(baseUrl, `/v1/products/changes?${q}`, { key })
    if (page.status !== 200) throw new Error(`changes: ${page.status} ${page.text}`)
    items.push(...page.json.data)
    cursor = page.json.meta.next_cursor
    pages++
    if (!page.json.meta.has_more) return { items, cursor: cursor as string, pages }
    if (pages > 10_000) throw new Error("changes feed does not end")
  }
}
