// @runs-alone: reads the heap limits V8 sets each second through a run and its linger, by time
// V8's heap growth in a real app (src/queue/heap-growth.ts), switched on (it is opt-in:
// CATALOG_SYNC_HEAP_GROWTH_PERCENT=100): held to 2× the live heap while a run is in progress,
// V8's own policy before it and again once the hold's linger has passed.
// The app prints every old-generation limit V8 sets, with its factor, and runs a full
// collection every second so a limit is set that often (scripts/gc-limits-hook.cjs). Its heap
// is given 4 GB, as on a large machine, where V8's own largest factor is 4.
import path from "node:path"
import { limitFactorsByPhase } from "../../src/queue/__tests__/v8-limit-factors"
import { configureAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(600_000)

const HOOK = path.join(__dirname, "scripts", "gc-limits-hook.cjs")
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The factor of each limit V8 set in this part of the app's log. */
const factorsIn = (log: string) => limitFactorsByPhase(log).before ?? []

describe("V8's heap growth while syncing (a real app)", () => {
  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv(
      "heap-growth",
      { products: 400, seed: 23 },
      {
        NODE_OPTIONS: `--max-old-space-size=4096 --require ${HOOK}`,
        CATALOG_SYNC_HEAP_GROWTH_PERCENT: "100",
      }
    )
  })
  afterAll(async () => {
    await env?.close()
  })

  it("says at start what it will do", () => {
    expect(env.app.logs()).toContain("while syncing, V8's heap grows by 100 % between full collections, in place of V8's own factor of up to 4.0×")
  })

  it("is V8's own before a run, 2× through a run, and V8's own again after the linger", async () => {
    await sleep(3_000)
    const beforeRun = env.app.logs().length
    expect(factorsIn(env.app.logs()).some((f) => f !== 2)).toBe(true)

    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey })
    expect(run).toMatchObject({ status: "succeeded", created: 400 })
    // Well within the 30 s linger: a quick run may end before two of the once-a-second collections.
    await sleep(3_000)
    const runLog = env.app.logs().slice(beforeRun)
    const from = runLog.indexOf(`run ${run.id} (full`)
    expect(from).toBeGreaterThanOrEqual(0)
    const during = factorsIn(runLog.slice(from))
    expect(during.length).toBeGreaterThanOrEqual(2)
    expect(new Set(during)).toEqual(new Set([2]))

    // The hold lingers 30 s after the run (pages of a run come seconds apart), then V8's policy is back.
    await sleep(36_000)
    const afterLinger = factorsIn(env.app.logs().slice(env.app.logs().length - 20_000))
    // V8's own factor may print as 2.0 now and then; held, every one would.
    expect(afterLinger.slice(-5).some((f) => f !== 2)).toBe(true)
  })
})
