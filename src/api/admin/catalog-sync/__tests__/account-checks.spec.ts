// The admin routes' /v1/me calls against a scripted HTTP server on loopback: they give up fast
// (one retry, no waiting out a 429) and simultaneous /status misses share one call.
import http from "node:http"
import type { AddressInfo } from "node:net"
import { cachedAccount, fetchAccount, forgetCachedAccounts } from "../helpers"

jest.setTimeout(20_000)

const ACCOUNT = {
  data: {
    plan: "Pro",
    plan_expires_at: null,
    limits: { requests_per_minute: 60, requests_per_day: 1000, page_size_max: 200, stock_batch_max: 200, max_concurrent: 3 },
    usage: { requests_today: 1, quota_enforced: true },
  },
}

type Script = (res: http.ServerResponse) => void

async function scriptedServer(script: Script) {
  const calls: string[] = []
  const server = http.createServer((req, res) => {
    calls.push(req.url ?? "")
    script(res)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const pricing = { price_calculation: "max" as const, markup_percent: null, discount_percent: null, old_price_markup_percent: null }
const settingsFor = (baseUrl: string) =>
  ({ baseUrl, apiKey: "route-key", apiKeyHash: "routekeyhash", pricing, enabled: true, revision: 1 }) as any

describe("admin /v1/me checks", () => {
  afterEach(() => forgetCachedAccounts())

  it("a 429 with a long Retry-After is answered at once, not waited out", async () => {
    const server = await scriptedServer((res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "600" })
      res.end(JSON.stringify({ error: { code: "rate_limited", message: "slow down" } }))
    })
    try {
      await expect(fetchAccount(settingsFor(server.baseUrl), { savedHost: false })).rejects.toMatchObject({ code: "rate_limited" })
      expect(server.calls).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it("a failing server is tried twice (one retry), not seven times", async () => {
    const server = await scriptedServer((res) => {
      res.writeHead(500, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { code: "internal_error", message: "boom" } }))
    })
    try {
      await expect(fetchAccount(settingsFor(server.baseUrl), { savedHost: false })).rejects.toMatchObject({ code: "internal_error" })
      expect(server.calls).toHaveLength(2)
    } finally {
      await server.close()
    }
  })

  it("simultaneous /status misses make one call; a settings save forgets the answer", async () => {
    const server = await scriptedServer((res) => {
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify(ACCOUNT))
      }, 100)
    })
    try {
      const settings = settingsFor(server.baseUrl)
      const answers = await Promise.all([cachedAccount(settings), cachedAccount(settings), cachedAccount(settings)])
      expect(answers.map((a) => a.account?.plan)).toEqual(["Pro", "Pro", "Pro"])
      expect(server.calls).toEqual(["/v1/me"])
      await cachedAccount(settings)
      expect(server.calls).toHaveLength(1)
      forgetCachedAccounts()
      await cachedAccount(settings)
      expect(server.calls).toHaveLength(2)
    } finally {
      await server.close()
    }
  })
})
