// Issue 43 (review of the admin): after the catalog refused the key or the plan, the sync page's Plan
// row kept showing the plan from a /v1/me answer cached before the refusal, for up to a minute, as
// the plan now. GET /status's cache against a scripted catalog on loopback and a stand-in for the
// key's limiter: an answer read before a refusal (the limiter's stale mark, or the sync blocked
// since) is asked again, once; a refused key then reads as refused, never as the old plan.
import http from "node:http"
import type { AddressInfo } from "node:net"
import { randomUUID } from "node:crypto"
import { accountAnswerOutdated, cachedAccountAgreeingWithPlan, forgetCachedAccounts } from "../helpers"
import { standaloneClientFactory } from "../../../../queue/catalog-client-factory"
import { allowLoopbackCatalog } from "../../../../__tests__/allow-loopback-catalog"

jest.setTimeout(20_000)

allowLoopbackCatalog()
afterEach(() => forgetCachedAccounts())

const ACCOUNT = {
  data: {
    plan: "Ultra",
    plan_expires_at: "2027-06-01T00:00:00Z",
    limits: { requests_per_minute: 60, requests_per_day: 1000, page_size_max: 200, stock_batch_max: 200, max_concurrent: 3 },
    usage: { requests_today: 1, quota_enforced: true },
  },
}

/** A catalog whose /v1/me answers the plan, or 401 once `refuse` is set. */
async function catalog() {
  const state: { refuse: boolean; calls: number; onAnswer?: () => void } = { refuse: false, calls: 0 }
  const server = http.createServer((_req, res) => {
    state.calls++
    state.onAnswer?.()
    if (state.refuse) {
      res.writeHead(401, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { code: "invalid_api_key", message: "API key is missing or invalid" } }))
      return
    }
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify(ACCOUNT))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { baseUrl: `http://127.0.0.1:${port}`, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const pricing = { price_calculation: "max" as const, markup_percent: null, discount_percent: null, old_price_markup_percent: null }

/** The route's clients, with the key's limiter as a stand-in whose plan the test marks stale. */
function clientsWith(held: { stale: boolean }) {
  const factory = standaloneClientFactory()
  return {
    create: factory.create.bind(factory),
    limiterFor: () => ({ plan: async () => ({ requestsPerDay: 1000, requestsPerMinute: 60, quotaEnforced: true, stale: held.stale }) }),
  } as unknown as Parameters<typeof cachedAccountAgreeingWithPlan>[2]
}

/** Settings with a fresh key on the scripted catalog, at the given revision. */
function settingsOn(baseUrl: string, revision: number): any {
  return { baseUrl, apiKey: `k-${randomUUID()}`, apiKeyHash: randomUUID(), pricing, enabled: true, revision }
}

describe("the plan GET /status tells after a refusal", () => {
  it("a refused key: the answer cached before it is asked again once, and reads as refused", async () => {
    const server = await catalog()
    try {
      const settings = settingsOn(server.baseUrl, 1)
      const held = { stale: false }
      const clients = clientsWith(held)
      expect((await cachedAccountAgreeingWithPlan(settings, null, clients)).account?.plan).toBe("Ultra")
      expect((await cachedAccountAgreeingWithPlan(settings, null, clients)).account?.plan).toBe("Ultra")
      expect(server.state.calls).toBe(1)
      // A run's request is refused with 401: the key's limiter marks the plan stale.
      server.state.refuse = true
      held.stale = true
      const after = await cachedAccountAgreeingWithPlan(settings, null, clients)
      expect(after.account).toBeNull()
      expect(after.error).toMatchObject({ code: "invalid_api_key" })
      expect(server.state.calls).toBe(2)
      // Asked once: the refusal answer is kept for the minute, no call on every poll.
      await cachedAccountAgreeingWithPlan(settings, null, clients)
      expect(server.state.calls).toBe(2)
    } finally {
      await server.close()
    }
  })

  it("the sync blocked since the answer (a refused plan, the limiter in another process): asked again once", async () => {
    const server = await catalog()
    try {
      const settings = settingsOn(server.baseUrl, 4)
      const clients = clientsWith({ stale: false })
      await cachedAccountAgreeingWithPlan(settings, null, clients, null)
      expect(server.state.calls).toBe(1)
      await cachedAccountAgreeingWithPlan(settings, null, clients, "plan_required:4")
      expect(server.state.calls).toBe(2)
      await cachedAccountAgreeingWithPlan(settings, null, clients, "plan_required:4")
      expect(server.state.calls).toBe(2)
    } finally {
      await server.close()
    }
  })

  it("an answer read while the stale mark already stood is not asked again for it", async () => {
    const server = await catalog()
    try {
      const settings = settingsOn(server.baseUrl, 1)
      // The mark could not be cleared (the answer's planSeen failed): no call on every poll.
      const clients = clientsWith({ stale: true })
      await cachedAccountAgreeingWithPlan(settings, null, clients)
      await cachedAccountAgreeingWithPlan(settings, null, clients)
      expect(server.state.calls).toBe(1)
    } finally {
      await server.close()
    }
  })

  it("a stale mark a run sets again after each answer: asked again once in the minute, not on every poll", async () => {
    const server = await catalog()
    try {
      const settings = settingsOn(server.baseUrl, 1)
      const held = { stale: false }
      // As the key's real limiter does: a /v1/me answer clears the mark (planSeen).
      server.state.onAnswer = () => (held.stale = false)
      const clients = clientsWith(held)
      await cachedAccountAgreeingWithPlan(settings, null, clients)
      expect(server.state.calls).toBe(1)
      for (let poll = 0; poll < 5; poll++) {
        // A running sync's answer contradicts the plan between two polls: marked stale again.
        held.stale = true
        expect((await cachedAccountAgreeingWithPlan(settings, null, clients)).account?.plan).toBe("Ultra")
      }
      expect(server.state.calls).toBe(2)
    } finally {
      await server.close()
    }
  })

  it("polls side by side that find the same outdated answer share one call", async () => {
    const server = await catalog()
    try {
      const settings = settingsOn(server.baseUrl, 2)
      const clients = clientsWith({ stale: false })
      await cachedAccountAgreeingWithPlan(settings, null, clients)
      await Promise.all([1, 2, 3, 4].map(() => cachedAccountAgreeingWithPlan(settings, null, clients, "invalid_api_key:2")))
      expect(server.state.calls).toBe(2)
    } finally {
      await server.close()
    }
  })

  it("accountAnswerOutdated: only a plan answer from before a refusal", () => {
    const plan = { account: { plan: "Ultra" } as any, refusal: null, planStaleAtRead: false }
    expect(accountAnswerOutdated(plan, { refusal: null, planStale: false })).toBe(false)
    expect(accountAnswerOutdated(plan, { refusal: null, planStale: true })).toBe(true)
    expect(accountAnswerOutdated(plan, { refusal: "invalid_api_key:3", planStale: false })).toBe(true)
    expect(accountAnswerOutdated({ ...plan, refusal: "invalid_api_key:3" }, { refusal: "invalid_api_key:3", planStale: false })).toBe(false)
    expect(accountAnswerOutdated({ ...plan, planStaleAtRead: true }, { refusal: null, planStale: true })).toBe(false)
    expect(accountAnswerOutdated({ ...plan, askedForStaleMark: true }, { refusal: null, planStale: true })).toBe(false)
    expect(accountAnswerOutdated({ ...plan, askedForStaleMark: true }, { refusal: "invalid_api_key:3", planStale: true })).toBe(true)
    expect(accountAnswerOutdated({ ...plan, account: null }, { refusal: "invalid_api_key:3", planStale: true })).toBe(false)
  })
})
