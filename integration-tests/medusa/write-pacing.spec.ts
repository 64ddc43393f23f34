// A run's page writes are paced over the time the API leaves between pages (src/sync/write-pace.ts,
// src/bulk-write/write-pace.ts): with the catalog faster than the writer there is no pause at all;
// with a slow catalog the writer pauses between a page's statements, using part of the wait for
// the next page. What is asserted is the mechanism (the pauses each page's log line reports, where
// they were taken) and the data (the shop by SQL against the sandbox), not timings, which the
// machine's load would skew.
import { compareShop, readCatalog, readShop, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { configureAndWait } from "./sync-helpers"
import { sql, waitFor } from "./poll-and-query"

jest.setTimeout(900_000)

/** The app's log from `from` on, once the run's last line (its page writes' summary, logged as it ends) is in. */
async function runLog(env: SyncEnv, from: number): Promise<string> {
  return waitFor("the run's page writes summary", async () => {
    const logs = env.app.logs().slice(from)
    return /catalog sync: page writes here/.test(logs) && logs
  })
}

/** Each page's log line of the run started after `since` chars of the app's log: its timings object. */
function pageTimings(logs: string): Record<string, number>[] {
  return [...logs.matchAll(/catalog sync page \d+: [^\n]*?wrote in \d+ ms (\{[^\n]*\})/g)].map((m) => JSON.parse(m[1]))
}

describe("sync: page writes paced over the time between pages", () => {
  let env: SyncEnv
  beforeAll(async () => {
    // Three pages of 200 for the first sync.
    env = await startSyncEnv("pacing", { products: 600, seed: 61 })
  })
  afterAll(async () => {
    await env?.close()
  })

  const shopEqualsCatalog = async () => {
    expect(compareShop(await readCatalog(env.sb.baseUrl, env.sb.apiKey), await readShop(env.db.url))).toEqual([])
    expect(await sql(env.db.url, "select external_id from product where deleted_at is null group by external_id having count(*) > 1")).toEqual([])
  }

  it("with the catalog faster than the writer, a first sync is not paced at all and the shop equals the catalog", async () => {
    const logFrom = env.app.logs().length
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" }, 600_000)
    expect([run?.status, run?.error_message, run?.created]).toEqual(["succeeded", null, 600])
    const logs = await runLog(env, logFrom)
    const pages = pageTimings(logs).filter((t) => "pace_points" in t)
    expect(pages.length).toBeGreaterThanOrEqual(3)
    // The writes went past their pause points (one per statement, more per page than pages of products)…
    for (const t of pages) expect(t.pace_points).toBeGreaterThan(10)
    // …and took none: the next page was always there, or the previous page left no slack.
    expect(pages.map((t) => [t.pauses, t.paced])).toEqual(pages.map(() => [0, 0]))
    expect(logs).toMatch(/catalog sync: page writes here \d+, busy [\d.]+ s \(\d+ % of the run's [\d.]+ s\); paced 0 of them, 0\.0 s in 0 pauses/)
    await shopEqualsCatalog()
  })

  it("with a slow catalog, each page after the first spreads its statements over part of the wait for the next one; the shop equals the catalog", async () => {
    // 600 new products: a changes run of three pages of creates, each answer of the catalog taking
    // 4 s, so the run waits for every page; the writes need far less than that on any machine here.
    env.sb.control.mutate({ count: 600, kinds: ["add"] })
    env.sb.control.faults({ latency_ms: 4_000 })
    const requestsBefore = env.sb.state.stats.requests
    const logFrom = env.app.logs().length
    let run
    try {
      run = await runAndWait(env, "changes", 600_000)
    } finally {
      env.sb.control.faults({ latency_ms: 0 })
    }
    expect([run.status, run.error_message, run.created]).toEqual(["succeeded", null, 600])
    const logs = await runLog(env, logFrom)
    const pages = pageTimings(logs).filter((t) => "pace_points" in t && (t.write ?? 0) > 0)
    expect(pages.length).toBeGreaterThanOrEqual(3)
    // The run's first page has no previous page to budget from: written at full speed.
    expect([pages[0].pauses, pages[0].paced]).toEqual([0, 0])
    // The next ones pause, several times each (spread between statements, not one wait at the end),
    // and never longer in all than the wait the catalog imposes between pages.
    const paced = pages.slice(1).filter((t) => t.pauses > 0)
    expect(paced.length).toBeGreaterThanOrEqual(1)
    for (const t of paced) {
      expect(t.pauses).toBeGreaterThanOrEqual(2)
      expect(t.pauses).toBeLessThan(t.pace_points)
      expect(t.paced).toBeGreaterThan(0)
      // Steps written side by side pause together: the pauses are within the write's own time.
      expect(t.paced).toBeLessThanOrEqual(t.write)
      expect(t.paced).toBeLessThan(4_000)
    }
    expect(logs).toMatch(/catalog sync: page writes here \d+, busy [\d.]+ s \(\d+ % of the run's [\d.]+ s\); paced [1-9]\d* of them/)
    // Pacing asks the catalog for nothing more: one request per page, besides the run's own few.
    expect(env.sb.state.stats.requests - requestsBefore).toBeLessThanOrEqual(run.requests_used + 4)
    await shopEqualsCatalog()
  })
})
