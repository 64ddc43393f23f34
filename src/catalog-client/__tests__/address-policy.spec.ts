// The transport with an address policy: a refused host costs no limiter slot, is never
// retried and never connected; a DNS answer that turns private between the check and the
// connect is refused at the connect; a redirect is an error without a second request.
import { countingLoopbackServer } from "./sandbox-helpers"
import { MemoryRateLimiter } from "../memory-rate-limiter"
import type { RateLimiter } from "../rate-limiter"
import { resolveRetryOptions } from "../retry-policy"
import { CatalogTransport } from "../transport"
import type { LookupFunction } from "../address-guard"

jest.setTimeout(20_000)

function countingLimiter() {
  const inner = new MemoryRateLimiter()
  let acquired = 0
  const limiter: RateLimiter = {
    acquire: (signal) => {
      acquired++
      return inner.acquire(signal)
    },
    updateLimits: (limits) => inner.updateLimits(limits),
    observe: (headers) => inner.observe(headers),
    pauseFor: (ms) => inner.pauseFor(ms),
    get limits() {
      return inner.limits
    },
  }
  return { limiter, acquired: () => acquired }
}

describe("CatalogTransport with an address policy", () => {
  const paths: string[] = []
  const served = countingLoopbackServer((req, res) => {
    paths.push(req.url ?? "")
    if (req.url?.startsWith("/redirect")) {
      res.writeHead(301, { location: `http://127.0.0.1:${served.port}/v1/me` })
      return res.end()
    }
    res.writeHead(200, { "content-type": "application/json" })
    res.end("{}")
  })
  beforeEach(() => {
    served.accepted = 0
    paths.length = 0
  })

  const transport = (baseUrl: string, limiter: RateLimiter, lookup?: LookupFunction, allowPrivateNetworks = false) =>
    new CatalogTransport({
      baseUrl,
      apiKey: "policy-key",
      limiter,
      retry: resolveRetryOptions({ maxRetries: 3, baseDelayMs: 10, maxDelayMs: 20 }),
      addressPolicy: { allowPrivateNetworks },
      lookup,
    })

  it("refuses a loopback base URL before taking a slot, once, without connecting", async () => {
    const { limiter, acquired } = countingLimiter()
    const t = transport(`http://127.0.0.1:${served.port}`, limiter)
    try {
      await expect(t.get("/v1/me", {})).rejects.toMatchObject({ code: "address_not_allowed" })
      expect(acquired()).toBe(0)
      expect(served.accepted).toBe(0)
    } finally {
      await t.close()
    }
  })

  it("refuses at the connect a name whose answer turned private after the check, and does not retry", async () => {
    const { limiter, acquired } = countingLimiter()
    const answers = ["93.184.216.34", "127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"]
    let lookups = 0
    const lookup: LookupFunction = (_h, _o, cb) => cb(null, [{ address: answers[lookups++], family: 4 }])
    const t = transport(`http://rebind.test:${served.port}`, limiter, lookup)
    try {
      await expect(t.get("/v1/me", {})).rejects.toMatchObject({ code: "address_not_allowed" })
      expect(lookups).toBe(2) // the check, then the connect; no retry
      expect(acquired()).toBe(1)
      expect(served.accepted).toBe(0)
    } finally {
      await t.close()
    }
  })

  it("does not follow a redirect: one request, an error", async () => {
    const { limiter } = countingLimiter()
    const t = transport(`http://127.0.0.1:${served.port}/redirect`, limiter, undefined, true)
    try {
      await expect(t.get("/v1/me", {})).rejects.toMatchObject({ code: "redirect_not_followed", status: 301 })
      expect(paths).toEqual(["/redirect/v1/me"])
    } finally {
      await t.close()
    }
  })

  it("gives up on a DNS lookup that hangs when the call is aborted, without a slot or a connection", async () => {
    const { limiter, acquired } = countingLimiter()
    const hanging: LookupFunction = () => {} // a resolver that never answers
    const t = transport(`http://slow-dns.test:${served.port}`, limiter, hanging)
    try {
      const started = Date.now()
      await expect(t.get("/v1/me", {}, { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: "AbortedError" })
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(acquired()).toBe(0)
      expect(served.accepted).toBe(0)
    } finally {
      await t.close()
    }
  })

  it("connects to a name resolving to loopback when private networks are allowed", async () => {
    const { limiter } = countingLimiter()
    const lookup: LookupFunction = (_h, _o, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }])
    const t = transport(`http://catalog.test:${served.port}`, limiter, lookup, true)
    try {
      await expect(t.get("/v1/me", {})).resolves.toMatchObject({ status: 200 })
      expect(served.accepted).toBe(1)
    } finally {
      await t.close()
    }
  })
})
