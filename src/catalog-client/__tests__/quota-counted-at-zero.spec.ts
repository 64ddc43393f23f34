// X-Quota-Remaining stops at 0, so "the quota was passed" can only be told by counting: the run's
// client counts the answers the catalog counted (2xx) that told 0 left. One is the quota reached
// (used up), unless 0 was told before it (this client, or the key's limiter): then, as with two,
// a request was counted past it (issue 43: "passed" was said at 22 of 22).
import { clientFor, sandbox } from "./sandbox-helpers"

jest.setTimeout(30_000)

describe("QuotaSnapshot.countedAtZero", () => {
  it("counts the counted answers at 0 left: 1 at the limit, 2 once past it", async () => {
    const sb = await sandbox({ products: 5, dailyQuota: 3 })
    const client = clientFor(sb)
    try {
      await client.me()
      await client.me()
      expect(client.quota).toMatchObject({ quotaRemaining: 1, countedAtZero: 0, quotaPassed: false })
      await client.me()
      expect(client.quota).toMatchObject({ quotaRemaining: 0, countedAtZero: 1, quotaPassed: false })
      await client.me()
      expect(client.quota).toMatchObject({ quotaRemaining: 0, countedAtZero: 2, quotaPassed: true })
    } finally {
      await client.close()
      await sb.close()
    }
  })

  it("a run's first request past a quota the key's limiter already saw at 0 is passed", async () => {
    const sb = await sandbox({ products: 5, dailyQuota: 1 })
    const first = clientFor(sb)
    try {
      await first.me()
      expect(first.quota).toMatchObject({ quotaRemaining: 0, countedAtZero: 1, quotaPassed: false })
      // Another client of the key (a later run), sharing its limiter: its first answer is the 2nd request of a quota of 1.
      const next = clientFor(sb, { limiter: first.limiter })
      try {
        await next.me()
        expect(next.quota).toMatchObject({ quotaRemaining: 0, countedAtZero: 1, quotaPassed: true })
      } finally {
        await next.close()
      }
    } finally {
      await first.close()
      await sb.close()
    }
  })
})
