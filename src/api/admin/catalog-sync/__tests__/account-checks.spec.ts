// The admin routes' /v1/me calls against a scripted HTTP server on loopback: they give up fast
// (one retry, no waiting out a 429) and simultaneous /status misses share one call.
import http from "node:http"
import type { AddressInfo } from "node:net"
import { randomUUID } from "node:crypto"
import { apiErrorBody, cachedAccount, fetchAccount, forgetCachedAccounts, UNREACHABLE_MESSAGE } from "../helpers"
import { allowLoopbackCatalog } from "../../../../__tests__/allow-loopback-catalog"

jest.setTimeout(20_000)

// The scripted servers are on loopback: allowed here, refused by default (see the last tests).
allowLoopbackCatalog()

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
// A key per test: limits are per key, so a 429 one test provokes must not pause another's.
const settingsFor = (baseUrl: string, apiKey = `route-key-${randomUUID()}`) =>
  ({ baseUrl, apiKey, apiKeyHash: "routekeyhash", pricing, enabled: true, revision: 1 }) as any

describe("admin /v1/me checks", () => {
  afterEach(() => forgetCachedAccounts())

  it("a 429 with a long Retry-After is answered at once, not waited out", async () => {
    const server = await scriptedServer((res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "600" })
      res.end(JSON.stringify({ error: { code: "rate_limited", message: "slow down" } }))
    })
    try {
      await expect(fetchAccount(settingsFor(server.baseUrl))).rejects.toMatchObject({ code: "rate_limited" })
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
      await expect(fetchAccount(settingsFor(server.baseUrl))).rejects.toMatchObject({ code: "internal_error" })
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

  it("refuses a loopback address without allowPrivateNetworks, making no connection, and says only that it could not reach it", async () => {
    delete process.env.CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS
    const server = await scriptedServer((res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify(ACCOUNT))
    })
    let accepted = 0
    const port = Number(new URL(server.baseUrl).port)
    try {
      for (const baseUrl of [server.baseUrl, `http://localhost:${port}`, `http://[::ffff:127.0.0.1]:${port}`]) {
        const error = await fetchAccount(settingsFor(baseUrl)).then(
          () => null,
          (e) => e
        )
        expect(error).toMatchObject({ code: "address_not_allowed" })
        expect(apiErrorBody(error)).toEqual({ code: "unreachable", message: UNREACHABLE_MESSAGE, request_id: null })
      }
      accepted = server.calls.length
      expect(accepted).toBe(0)
    } finally {
      await server.close()
    }
  })

  it("tells a closed port, an open port, a login page, a redirect and a remote error text apart for nobody", async () => {
    const notFound = await scriptedServer((res) => {
      res.writeHead(404, { "content-type": "text/html" })
      res.end("<h1>internal admin panel v1.2</h1>")
    })
    const login = await scriptedServer((res) => {
      res.writeHead(401, { "content-type": "text/html", "www-authenticate": "Basic" })
      res.end("<h1>intranet login</h1>")
    })
    const chatty = await scriptedServer((res) => {
      res.writeHead(422, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { code: "validation_error", message: "SECRET-INTERNAL-DETAIL" } }))
    })
    const redirect = await scriptedServer((res) => {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" })
      res.end()
    })
    // The closed port is taken after the others listen: the kernel may hand a just-closed port to
    // the next listener, and the redirect server then answered the closed port's request too.
    const closed = await scriptedServer(() => undefined)
    const closedUrl = closed.baseUrl
    await closed.close()
    try {
      const bodies = []
      for (const url of [closedUrl, notFound.baseUrl, login.baseUrl, chatty.baseUrl, redirect.baseUrl]) {
        bodies.push(
          apiErrorBody(
            await fetchAccount(settingsFor(url)).then(
              () => null,
              (e) => e
            )
          )
        )
      }
      for (const body of bodies) expect(body).toEqual({ code: "unreachable", message: UNREACHABLE_MESSAGE, request_id: null })
      expect(redirect.calls).toEqual(["/v1/me"])
    } finally {
      await Promise.all([notFound.close(), login.close(), chatty.close(), redirect.close()])
    }
  })

  it("names the documented refusals of a reached catalog in fixed words, without its text", async () => {
    const server = await scriptedServer((res) => {
      res.writeHead(401, { "content-type": "application/json", "x-trace-id": "abc-123" })
      res.end(JSON.stringify({ error: { code: "invalid_api_key", message: "REMOTE TEXT", request_id: "abc-123" } }))
    })
    try {
      const body = apiErrorBody(
        await fetchAccount(settingsFor(server.baseUrl)).then(
          () => null,
          (e) => e
        )
      )
      expect(body).toEqual({ code: "invalid_api_key", message: "The catalog refused the API key.", request_id: "abc-123" })
    } finally {
      await server.close()
    }
  })
})
