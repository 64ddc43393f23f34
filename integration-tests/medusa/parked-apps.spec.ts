// The parked app a spec file hands to the next (integration-tests/harness/parked-apps.ts, on in
// npm test's parallel medusa pass): the next file must meet a shop as new as a fresh boot gives
// it, with nothing of the last file's shop, settings, schedule, Redis keys or log; an app with a
// run going is never handed on.
import Redis from "ioredis"
import { keysMatching } from "../harness/redis-keys"
import { compareShop, configureAndWait, readCatalog, readShop, runAndWait, startSyncEnv, PRICING, type SyncEnv } from "./sync-helpers"
import { sql, waitFor } from "./poll-and-query"

jest.setTimeout(600_000)

async function keysUnder(prefix: string): Promise<string[]> {
  const redis = new Redis(process.env.REDIS_URL || "redis://127.0.0.1:6379")
  try {
    return await keysMatching(redis, `${prefix}:*`)
  } finally {
    redis.disconnect()
  }
}

describe("an app handed from one spec file to the next", () => {
  const parkingBefore = process.env.MCS_PARK_APPS
  let env: SyncEnv | null = null
  beforeAll(() => {
    process.env.MCS_PARK_APPS = "1"
  })
  afterAll(async () => {
    await env?.close()
    if (parkingBefore === undefined) delete process.env.MCS_PARK_APPS
    else process.env.MCS_PARK_APPS = parkingBefore
  })

  it("is made new: an empty shop, no settings, schedule or keys of the last file, its own log; then it syncs its own catalog exactly", async () => {
    const first = await startSyncEnv("parked-first", { products: 30, seed: 3 })
    const { run: firstRun } = await configureAndWait(first, { base_url: first.sb.baseUrl, api_key: first.sb.apiKey, ...PRICING })
    expect(firstRun).toMatchObject({ status: "succeeded", created: 30 })
    expect((await first.app.admin("/admin/catalog-sync/status")).body.next_run_at).not.toBeNull()
    expect((await keysUnder(first.redisPrefix)).length).toBeGreaterThan(0)
    const firstPid = first.app.pid
    const firstUrl = first.sb.baseUrl
    await first.close()

    env = await startSyncEnv("parked-second", { products: 12, seed: 4 })
    expect(env.app.pid).toBe(firstPid)
    expect(env.redisPrefix).toBe(first.redisPrefix)
    expect((await sql(env.db.url, "select count(*)::int as n from product"))[0].n).toBe(0)
    expect((await sql(env.db.url, "select count(*)::int as n from mcs_sync_run"))[0].n).toBe(0)
    const status = await env.app.admin("/admin/catalog-sync/status")
    expect(status.status).toBe(200)
    expect(status.body).toMatchObject({ state: "not_configured", next_run_at: null, last_run: null })
    expect(JSON.stringify(status.body)).not.toContain(firstUrl)
    // Nothing of the last file's queue, schedule or limiter is left under the prefix.
    expect((await keysUnder(env.redisPrefix)).filter((k) => /:repeat|:delayed|:completed|ratelimit/.test(k))).toEqual([])
    expect(env.app.logs()).not.toContain(firstUrl)

    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING })
    expect(run).toMatchObject({ status: "succeeded", created: 12 })
    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    expect(compareShop(cards, await readShop(env.db.url))).toEqual([])
    expect((await env.app.admin("/admin/catalog-sync/status")).body.next_run_at).not.toBeNull()
  })

  it("is not handed on while a run of its sync is going: the next file gets a new process", async () => {
    const busy = env!
    env = null
    // Every catalog answer 3 s late: the run is still going when the file ends.
    busy.sb.control.faults({ latency_ms: 3_000 })
    const started = await busy.app.admin("/admin/catalog-sync/runs", { body: { mode: "full" } })
    expect(started.status).toBe(202)
    await waitFor("the run to be going", async () => (await busy.app.admin("/admin/catalog-sync/status")).body.running_run)
    const busyPid = busy.app.pid
    await busy.close()
    expect(busy.app.child.exitCode !== null || busy.app.child.signalCode !== null).toBe(true)
    env = await startSyncEnv("parked-third", { products: 5, seed: 5 })
    expect(env.app.pid).not.toBe(busyPid)
  })

  it("keeps the secret it was started with: restarted under the next file (whose own secret differs), it still reads the saved key", async () => {
    // The helpers loaded anew, as jest loads them for another spec file: another random encryption secret.
    let isolated: typeof import("./sync-helpers") | null = null
    jest.isolateModules(() => {
      isolated = require("./sync-helpers")
    })
    const before = env
    env = null
    await before?.close()
    const other = await isolated!.startSyncEnv("parked-other-file", { products: 6, seed: 6 })
    const otherPid = other.app.pid
    await configureAndWait(other, { base_url: other.sb.baseUrl, api_key: other.sb.apiKey, ...PRICING })
    await other.close()

    env = await startSyncEnv("parked-restarted", { products: 8, seed: 7 })
    expect(env.app.pid).toBe(otherPid)
    await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING })
    await env.crashAndRestart()
    const run = await runAndWait(env, "full")
    expect(run).toMatchObject({ status: "succeeded" })
    expect(env.app.logs()).not.toContain("cannot be decrypted")
    expect(compareShop(await readCatalog(env.sb.baseUrl, env.sb.apiKey), await readShop(env.db.url))).toEqual([])
  })
})
