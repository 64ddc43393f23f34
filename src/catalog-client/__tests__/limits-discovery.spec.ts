// Idle polls: a run's client skips /v1/me while the key's limiter holds limits adopted within
// the interval, and those limits still govern every request it makes.
import { MemoryRateLimiter, type LimitsDiscovery } from "../index"
import { clientFor, control, sandbox } from "./sandbox-helpers"

jest.setTimeout(20_000)

function sharedDiscovery() {
  let adoptedAt: number | null = null
  const discovery: LimitsDiscovery & { expire(): void } = {
    due: async () => adoptedAt === null,
    adopted: async () => {
      adoptedAt = Date.now()
    },
    expire: () => {
      adoptedAt = null
    },
  }
  return discovery
}

describe("shared limits discovery", () => {
  it("asks /v1/me once per interval for all clients of a key; the adopted limits stay in force", async () => {
    const sb = await sandbox({ products: 5, rpm: 30, concurrency: 2 })
    const limiter = new MemoryRateLimiter()
    const discovery = sharedDiscovery()
    const requests = async () => (await control(sb, "/stats")).requests as number
    try {
      const first = clientFor(sb, { limiter, limitsDiscovery: discovery })
      let before = await requests()
      await first.getChangesPage({ limit: 1 })
      expect((await requests()) - before).toBe(2) // /v1/me, then the page
      expect(limiter.limits).toEqual({ requestsPerMinute: 30, maxConcurrent: 2 })
      await first.close()

      const second = clientFor(sb, { limiter, limitsDiscovery: discovery })
      before = await requests()
      await second.getChangesPage({ limit: 1 })
      await second.getChangesPage({ limit: 1 })
      expect((await requests()) - before).toBe(2) // the pages only
      expect(second.limiter.limits).toEqual({ requestsPerMinute: 30, maxConcurrent: 2 })
      await second.close()

      discovery.expire()
      const third = clientFor(sb, { limiter, limitsDiscovery: discovery })
      before = await requests()
      await third.getChangesPage({ limit: 1 })
      expect((await requests()) - before).toBe(2) // due again: /v1/me, then the page
      await third.close()
    } finally {
      await sb.close()
    }
  })

  it("a failing check counts as due (asks /v1/me rather than guess)", async () => {
    const sb = await sandbox({ products: 5 })
    try {
      const client = clientFor(sb, {
        limitsDiscovery: { due: () => Promise.reject(new Error("redis down")), adopted: () => Promise.resolve() },
      })
      const before = (await control(sb, "/stats")).requests
      await client.getChangesPage({ limit: 1 })
      expect((await control(sb, "/stats")).requests - before).toBe(2)
      await client.close()
    } finally {
      await sb.close()
    }
  })
})
