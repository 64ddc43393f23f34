// Typed errors, Retry-After, backoff, timeouts and the secrecy of the key, against the sandbox.
import { inspect } from "node:util"
import type { Sandbox } from "../../../sandbox/server"
import {
  accountAccess,
  AbortedError,
  CatalogApiError,
  DailyQuotaExceededError,
  InvalidApiKeyError,
  InvalidCursorError,
  MemoryRateLimiter,
  NetworkError,
  NotFoundError,
  PlanRequiredError,
  PricingChangedError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  ValidationError,
  type CatalogLogger,
} from "../index"
import { clientFor, control, sandbox, TEST_KEY } from "./sandbox-helpers"

// Generous limits for a shared 2-core machine; nothing here asserts on speed.
jest.setTimeout(30_000)

interface LogLine {
  message: string
  fields?: Record<string, unknown>
}

function recordingLogger(onWarn?: (line: LogLine) => void): CatalogLogger & { lines: LogLine[] } {
  const lines: LogLine[] = []
  return {
    lines,
    debug: (message, fields) => lines.push({ message, fields }),
    warn: (message, fields) => {
      lines.push({ message, fields })
      onWarn?.({ message, fields })
    },
  }
}

async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("expected a rejection")
}

/** The key must appear nowhere in what a caller could print or log. */
function expectNoKey(value: unknown, key = TEST_KEY) {
  const views = [String(value), JSON.stringify(value), inspect(value, { depth: 10, showHidden: true }), (value as Error)?.stack ?? ""]
  for (const view of views) expect(view).not.toContain(key)
}

async function requests(sb: Sandbox): Promise<number> {
  return (await control(sb, "/stats")).requests
}

describe("typed errors", () => {
  let sb: Sandbox
  beforeEach(async () => {
    sb = await sandbox({ products: 50 })
  })
  afterEach(async () => {
    await sb.close()
  })

  it("401 invalid_api_key is not retried, carries request_id, never the key", async () => {
    const logger = recordingLogger()
    const client = clientFor(sb, { logger, discoverLimits: false })
    await control(sb, "/revoke-key", {})
    const before = await requests(sb)
    const error = await caught(client.getProduct(1))
    expect(error).toBeInstanceOf(InvalidApiKeyError)
    expect(error).toBeInstanceOf(CatalogApiError)
    expect(error).toMatchObject({ code: "invalid_api_key", status: 401 })
    expect(error.requestId).toMatch(/.+/)
    expect(error.request_id).toBe(error.requestId)
    expect(await requests(sb)).toBe(before + 1)
    expectNoKey(error)
    expectNoKey(client)
    expectNoKey(logger.lines)
    await client.close()
  })

  it("403 plan_required for no plan and for an expired plan; /v1/me explains", async () => {
    const client = clientFor(sb)
    await control(sb, "/plan", { plan: null })
    const error = await caught(client.getProduct(1))
    expect(error).toBeInstanceOf(PlanRequiredError)
    expect(error).toMatchObject({ code: "plan_required", status: 403 })
    expect(error.requestId).toMatch(/.+/)
    expect(accountAccess(await client.me())).toMatchObject({ ok: false, status: "no_plan" })

    await control(sb, "/plan", { plan: "Ultra", expires_at: "2020-01-01T00:00:00Z" })
    expect(await caught(client.getChangesPage())).toBeInstanceOf(PlanRequiredError)
    const info = await client.me()
    expect(accountAccess(info)).toMatchObject({ ok: false, status: "expired" })
    expectNoKey(error)
    await client.close()
  })

  it("404, 422 validation_error with details, invalid_cursor, pricing_changed", async () => {
    const client = clientFor(sb, { pricing: { markup_percent: 30 } })
    const notFound = await caught(client.getProduct("42"))
    expect(notFound).toBeInstanceOf(NotFoundError)
    expect(notFound.requestId).toMatch(/.+/)

    const validation = await caught(client.listProducts({ q: "ab" }).next())
    expect(validation).toBeInstanceOf(ValidationError)
    expect(validation.status).toBe(422)
    expect(validation.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: "q" })]))
    expect(validation.requestId).toMatch(/.+/)

    const cursorError = await caught(client.getChangesPage({ cursor: "damaged-cursor" }))
    expect(cursorError).toBeInstanceOf(InvalidCursorError)

    const page = await client.getChangesPage({ limit: 10 })
    const other = clientFor(sb, { pricing: { markup_percent: 40 } })
    const pricingError = await caught(other.getChangesPage({ cursor: page.nextCursor }))
    expect(pricingError).toBeInstanceOf(PricingChangedError)
    expect(pricingError.code).toBe("pricing_changed")
    for (const e of [notFound, validation, cursorError, pricingError]) expectNoKey(e)
    await Promise.all([client.close(), other.close()])
  })

  it("429 with a Retry-After beyond the ceiling throws RateLimitedError; daily quota throws its own", async () => {
    await control(sb, "/limits", { rpm: 2 })
    // Someone else spends the key's minute.
    for (let i = 0; i < 2; i++) await fetch(`${sb.baseUrl}/v1/me`, { headers: { "x-api-key": sb.apiKey } })
    const client = clientFor(sb, { discoverLimits: false, retry: { retryAfterCeilingMs: 5_000, baseDelayMs: 10 } })
    const before = await requests(sb)
    const error = await caught(client.getProduct(1))
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({ code: "rate_limited", status: 429 })
    expect(error.retryAfterSeconds).toBeGreaterThan(5)
    expect(error.requestId).toMatch(/.+/)
    expect(await requests(sb)).toBe(before + 1)
    expectNoKey(error)

    // The 429 said 0 left this minute: the limiter books the foreign use and holds the next call.
    expect(client.quota.rateLimitRemaining).toBe(0)
    await client.close()

    // The daily quota resets at UTC midnight; seconds before it, the reset would fall inside the
    // client's Retry-After ceiling and the client would wait for it (a CI run at 23:59 did).
    const toMidnightMs = 86_400_000 - (Date.now() % 86_400_000)
    if (toMidnightMs < 15_000) await new Promise((resolve) => setTimeout(resolve, toMidnightMs + 500))
    await control(sb, "/limits", { rpm: 6000, daily_quota: 1, quota_enforced: true })
    await control(sb, "/reset-limits", {})
    const next = clientFor(sb, { discoverLimits: false, retry: { retryAfterCeilingMs: 5_000, baseDelayMs: 10 } })
    await next.getProduct(9223372036854775807n)
    const quota = await caught(next.getProduct(9223372036854775807n))
    expect(quota).toBeInstanceOf(DailyQuotaExceededError)
    expect(quota.code).toBe("daily_quota_exceeded")
    expect(quota.retryAfterSeconds).toBeGreaterThan(5)
    expect(next.quota.quotaRemaining).toBe(0)
    await next.close()
  })
})

describe("retries", () => {
  let sb: Sandbox
  beforeEach(async () => {
    sb = await sandbox({ products: 50 })
  })
  afterEach(async () => {
    await sb.close()
  })

  it("429 waits the whole Retry-After, then succeeds", async () => {
    await control(sb, "/faults", { fail_rate: 1, kinds: ["429"] })
    const logger = recordingLogger(() => sb.control.faults({ fail_rate: 0 }))
    const client = clientFor(sb, { logger, discoverLimits: false })
    const card = await client.getProduct(1)
    expect(card.id).toBe("1")
    const waits = logger.lines.filter((l) => /429/.test(l.message))
    expect(waits).toHaveLength(1)
    expect(waits[0].fields).toMatchObject({ code: "rate_limited", wait_ms: 1000 })
    expect((await control(sb, "/stats")).by_status["429"]).toBe(1)
    await client.close()
  })

  it("5xx retries with exponential backoff and jitter, a bounded number of times", async () => {
    await control(sb, "/faults", { fail_rate: 1, kinds: ["500", "502"] })
    const logger = recordingLogger()
    const client = clientFor(sb, {
      logger,
      discoverLimits: false,
      limiter: new MemoryRateLimiter({ requestsPerMinute: 6000 }),
      retry: { maxRetries: 4, baseDelayMs: 20, maxDelayMs: 10_000 },
    })
    const before = await requests(sb)
    const error = await caught(client.getProduct(1))
    expect(error).toBeInstanceOf(ServerError)
    expect(error.requestId).toMatch(/.+/)
    expect(await requests(sb)).toBe(before + 5)
    const delays = logger.lines.filter((l) => l.fields?.retry !== undefined).map((l) => l.fields!.delay_ms as number)
    expect(delays).toHaveLength(4)
    delays.forEach((delay, i) => {
      const cap = 20 * 2 ** i
      expect(delay).toBeGreaterThanOrEqual(cap / 2)
      expect(delay).toBeLessThanOrEqual(cap)
    })

    // A 503 once, then fine.
    await control(sb, "/faults", { fail_rate: 1, kinds: ["503"] })
    const once = recordingLogger(() => sb.control.faults({ fail_rate: 0 }))
    const recovering = clientFor(sb, { logger: once, discoverLimits: false })
    expect((await recovering.getProduct(1)).id).toBe("1")
    expect(once.lines.filter((l) => l.fields?.status === 503)).toHaveLength(1)
    await Promise.all([client.close(), recovering.close()])
  })

  it("connection resets and truncated bodies are retried; NetworkError after the last try", async () => {
    await control(sb, "/faults", { fail_rate: 1, kinds: ["reset"] })
    const failing = clientFor(sb, { discoverLimits: false, retry: { maxRetries: 2, baseDelayMs: 5 } })
    const before = await requests(sb)
    const error = await caught(failing.getProduct(1))
    expect(error).toBeInstanceOf(NetworkError)
    expect(await requests(sb)).toBe(before + 3)
    expectNoKey(error)

    // A reset comes before any answer (ECONNRESET); a truncated answer has its headers and half
    // its body, then the connection closes (undici's UND_ERR_SOCKET): the same on Node 20, 22 and 24.
    for (const [kind, code] of [
      ["reset", "ECONNRESET"],
      ["truncate", "UND_ERR_SOCKET"],
    ]) {
      await control(sb, "/faults", { fail_rate: 1, kinds: [kind] })
      const logger = recordingLogger(() => sb.control.faults({ fail_rate: 0 }))
      const client = clientFor(sb, { logger, discoverLimits: false })
      const page = await client.getChangesPage({ limit: 50 })
      expect(page.items).toHaveLength(50)
      expect(logger.lines.filter((l) => l.fields?.retry === 1)).toHaveLength(1)
      expect(logger.lines.map((l) => l.fields?.error)).toEqual([code])
      await client.close()
    }
    await failing.close()
  })

  it("header timeouts retry, then throw TimeoutError; an AbortSignal stops a call at once", async () => {
    // The sandbox answers long after the 150 ms headers timeout: undici checks that timeout on a coarse timer, so a
    // busy machine may fire it hundreds of milliseconds late, and a reply that comes first would pass as success.
    await control(sb, "/faults", { fail_rate: 1, kinds: ["slow"], slow_ms: 4000 })
    const client = clientFor(sb, { discoverLimits: false, timeouts: { headersMs: 150 }, retry: { maxRetries: 1, baseDelayMs: 5 } })
    const error = await caught(client.getProduct(1))
    expect(error).toBeInstanceOf(TimeoutError)
    expectNoKey(error)

    const patient = clientFor(sb, { discoverLimits: false })
    const controller = new AbortController()
    const call = patient.getProduct(1, { signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    expect(await caught(call)).toBeInstanceOf(AbortedError)
    const aborted = new AbortController()
    aborted.abort()
    expect(await caught(patient.me({ signal: aborted.signal }))).toBeInstanceOf(AbortedError)
    await Promise.all([client.close(), patient.close()])
  })
})
