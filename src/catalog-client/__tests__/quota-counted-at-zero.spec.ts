// X-Quota-Remaining stops at 0, so "the quota was passed" can only be told by counting: the run's
// client counts the answers the catalog counted (2xx) that told 0 left. One is the quota reached
// (used up), two a request counted past it (issue 43: "passed" was said at 22 of 22).
import { clientFor, sandbox } from "./sandbox-helpers"

jest.setTimeout(30_000)

describe("QuotaSnapshot.countedAtZero", () => {
  it("counts the counted answers at 0 left: 1 at the limit, 2 once past it", async () => {
    const sb = await sandbox({ products: 5, dailyQuota: 3 })
    const client = clientFor(sb)
    try {
      await client.me()
      await client.me()
      expect(client.quota).toMatchObject({ quotaRemaining: 1, countedAtZero: 0 })
      await client.me()
      expect(client.quota).toMatchObject({ quotaRemaining: 0, countedAtZero: 1 })
      await client.me()
      expect(client.quota).toMatchObject({ quotaRemaining: 0, countedAtZero: 2 })
    } finally {
      await client.close()
      await sb.close()
    }
  })
})
