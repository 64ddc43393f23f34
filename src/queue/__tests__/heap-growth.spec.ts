// V8's heap growth while syncing: when the flag is set and given back (a recorder in place of
// V8), and what V8 itself then does (a child process that prints V8's own limit decisions).
import { execFile } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { promisify } from "node:util"
import { readEnvironment } from "../../config/environment"
import { resolveRuntimeConfig } from "../../modules/catalog_sync_runtime/config"
import {
  DEFAULT_SYNC_HEAP_GROWTH_PERCENT,
  defaultSemiSpaceMb,
  ownerHeapGrowthFlag,
  HeapGrowthFlag,
  processHeapGrowthFlag,
  semiSpaceMbOf,
  SyncHeapGrowth,
  v8LargestGrowthFactor,
} from "../heap-growth"
import { limitFactorsByPhase } from "./v8-limit-factors"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function recorded(percent: number | null, lingerMs = 40) {
  const flags: string[] = []
  const flag = new HeapGrowthFlag({ lingerMs, setFlags: (f) => flags.push(f) })
  const growth = new SyncHeapGrowth({ percent, flag })
  return { growth, flags, flag }
}

describe("SyncHeapGrowth", () => {
  it("sets the growth on the first hold, keeps it through nested holds and gives V8's back a linger after the last", async () => {
    const { growth, flags } = recorded(100)
    const a = growth.hold()
    const b = growth.hold()
    expect(flags).toEqual(["--heap-growing-percent=100"])
    a()
    a() // a second release of one hold does nothing
    await sleep(80)
    expect(flags).toEqual(["--heap-growing-percent=100"])
    expect(growth.held).toBe(true)
    b()
    expect(growth.held).toBe(true)
    await sleep(80)
    expect(flags).toEqual(["--heap-growing-percent=100", "--heap-growing-percent=0"])
    expect(growth.held).toBe(false)
  })

  it("keeps the growth when a hold begins within the linger (pages of one run), and sets it again after a give-back", async () => {
    const { growth, flags } = recorded(100)
    growth.hold()()
    await sleep(10)
    const next = growth.hold()
    await sleep(80)
    expect(flags).toEqual(["--heap-growing-percent=100"])
    next()
    await sleep(80)
    growth.hold()
    expect(flags).toEqual(["--heap-growing-percent=100", "--heap-growing-percent=0", "--heap-growing-percent=100"])
  })

  it("never touches V8 when the percent is null or 0", async () => {
    for (const percent of [null, 0]) {
      const { growth, flags } = recorded(percent)
      growth.hold()()
      await sleep(60)
      growth.close()
      expect(flags).toEqual([])
    }
  })

  it("gives V8's growth back at close, even with a hold open, and holds nothing after", () => {
    const { growth, flags } = recorded(150, 60_000)
    growth.hold()
    growth.close()
    growth.hold()
    expect(flags).toEqual(["--heap-growing-percent=150", "--heap-growing-percent=0"])
  })
})

describe("two owners of the process's flag (two runtimes in one process)", () => {
  it("is one flag per process", () => {
    expect(processHeapGrowthFlag()).toBe(processHeapGrowthFlag())
  })

  it("count their holds together: one closing leaves the other's hold in force, whose release gives V8's policy back", async () => {
    const { growth: a, flags, flag } = recorded(100)
    const b = new SyncHeapGrowth({ percent: 100, flag })
    a.hold()
    const releaseB = b.hold()
    a.close() // a's open hold ends with it
    expect(flag.held).toBe(true)
    a.hold() // a closed owner holds nothing
    releaseB()
    await sleep(80)
    expect(flags).toEqual(["--heap-growing-percent=100", "--heap-growing-percent=0"])
    expect(b.held).toBe(false)
  })

  it("an owner whose percent is null holds nothing, even while another holds", async () => {
    const { growth: holding, flags, flag } = recorded(100)
    const off = new SyncHeapGrowth({ percent: null, flag })
    const release = holding.hold()
    off.hold()()
    release()
    await sleep(80)
    expect(flags).toEqual(["--heap-growing-percent=100", "--heap-growing-percent=0"])
  })
})

describe("the process's own heap growth flags", () => {
  it("are found among the process's options, with or without a value", () => {
    expect(ownerHeapGrowthFlag(["--enable-source-maps", "--heap-growing-percent=30"])).toBe("--heap-growing-percent=30")
    expect(ownerHeapGrowthFlag(["--optimize_for_size"])).toBe("--optimize_for_size")
    expect(ownerHeapGrowthFlag(["--max-old-space-size=4096", "--inspect"])).toBeNull()
  })

  const GB = 1024 ** 3
  const config = (options: object, vars: Record<string, string> = {}, execArgv: string[] = [], heapSizeLimit = 4 * GB) =>
    resolveRuntimeConfig({ options, env: readEnvironment(vars), execArgv, heapSizeLimit }).heapGrowth
  const held = (percent: number) => ({ percent, leftToV8: null, ownerFlag: null, v8Factor: 4 })

  it("leave V8 alone by default: the hold is opt-in", () => {
    expect(DEFAULT_SYNC_HEAP_GROWTH_PERCENT).toBe(0)
    expect(config({})).toEqual({ percent: null, leftToV8: "option", ownerFlag: null, v8Factor: 4 })
    expect(config({}, {}, ["--max-old-space-size=4096"], 4144 * 1024 ** 2)).toMatchObject({ percent: null, leftToV8: "option" })
  })

  it("win over the option and the environment; 0 leaves V8 alone; the option wins over the environment", () => {
    expect(config({ syncHeapGrowthPercent: 100 })).toEqual(held(100))
    expect(config({ syncHeapGrowthPercent: 50 }, { CATALOG_SYNC_HEAP_GROWTH_PERCENT: "200" })).toEqual(held(50))
    expect(config({}, { CATALOG_SYNC_HEAP_GROWTH_PERCENT: "200" })).toEqual(held(200))
    expect(config({ syncHeapGrowthPercent: 0 })).toMatchObject({ percent: null, leftToV8: "option" })
    expect(config({ syncHeapGrowthPercent: 0 }, { CATALOG_SYNC_HEAP_GROWTH_PERCENT: "100" })).toMatchObject({ percent: null, leftToV8: "option" })
    expect(config({ syncHeapGrowthPercent: 50 }, {}, ["--heap-growing-percent=30"])).toMatchObject({
      percent: null,
      leftToV8: "owner_flag",
      ownerFlag: "--heap-growing-percent=30",
    })
    expect(config({ syncHeapGrowthPercent: 100 }, {}, ["--optimize-for-size"])).toMatchObject({
      percent: null,
      leftToV8: "owner_flag",
      ownerFlag: "--optimize-for-size",
    })
    // 300 % is V8's own largest factor already: nothing to hold.
    expect(config({ syncHeapGrowthPercent: 300 })).toMatchObject({ percent: null, leftToV8: "v8_no_higher", v8Factor: 4 })
  })

  it("hold nothing where V8's own largest factor is no more than the one asked for (a heap under 2 GB: a cap, a small machine)", () => {
    const MB = 1024 ** 2
    // Node 20's and 22's heap size limit is the old generation's plus 48 MB of young generation.
    expect(v8LargestGrowthFactor(4144 * MB, 16)).toBe(4)
    expect(v8LargestGrowthFactor(2096 * MB, 16)).toBe(4)
    expect(v8LargestGrowthFactor(2095 * MB, 16)).toBeCloseTo(2, 2)
    expect(v8LargestGrowthFactor(560 * MB, 16)).toBeCloseTo(1.3 + (256 * 0.7) / 1792, 5)
    expect(v8LargestGrowthFactor(100 * MB, 16)).toBe(1.3)
    expect(config({ syncHeapGrowthPercent: 100 }, {}, [], 560 * MB)).toMatchObject({ percent: null, leftToV8: "v8_no_higher" })
    expect(config({ syncHeapGrowthPercent: 20 }, {}, [], 560 * MB)).toMatchObject({ percent: 20, leftToV8: null })
    expect(config({ syncHeapGrowthPercent: 100 }, {}, ["--max-old-space-size=4096"], 4144 * MB)).toEqual(held(100))
    // The young generation is three semi-spaces of the limit: --max-semi-space-size moves the line.
    expect(semiSpaceMbOf(["--max-semi-space-size=64"])).toBe(64)
    expect(semiSpaceMbOf(["--max_semi_space_size=1", "--inspect"])).toBe(1)
    expect(semiSpaceMbOf([], NODE_22_V8)).toBe(16)
    expect(semiSpaceMbOf(["--max-semi-space-size", "32", "app.js"])).toBe(32)
    expect(config({ syncHeapGrowthPercent: 100 }, { NODE_OPTIONS: "--max-old-space-size=2000 --max-semi-space-size=64" }, [], (2000 + 192) * MB)).toMatchObject(
      { leftToV8: "v8_no_higher" }
    )
    expect(config({ syncHeapGrowthPercent: 100 }, {}, ["--max-old-space-size=2060", "--max-semi-space-size=1"], (2060 + 3) * MB)).toEqual(held(100))
  })

  // V8 as Node 22 and Node 24 ship it (process.versions.v8).
  const NODE_22_V8 = "12.4.254.21-node.57"
  const NODE_24_V8 = "13.6.233.17-node.53"

  it("size the young generation per V8 version: 3 × 16 MB up to V8 12 (Node 20, 22), 3 × 64 MB from V8 13 (Node 24)", () => {
    const MB = 1024 ** 2
    expect(defaultSemiSpaceMb("11.3.244.8-node.38")).toBe(16)
    expect(defaultSemiSpaceMb(NODE_22_V8)).toBe(16)
    expect(defaultSemiSpaceMb(NODE_24_V8)).toBe(64)
    expect(semiSpaceMbOf([], NODE_24_V8)).toBe(64)
    expect(semiSpaceMbOf(["--max-semi-space-size=16"], NODE_24_V8)).toBe(16)
    // Node 24 with --max-old-space-size=2000: its limit is 2,192 MB, its old generation under
    // 2 GB, so V8's own largest factor is just under 2 (V8 printed "factor 2.0"), not 4.
    const node24 = (heapSizeLimit: number) =>
      resolveRuntimeConfig({ options: { syncHeapGrowthPercent: 100 }, env: readEnvironment({}), execArgv: [], heapSizeLimit, v8Version: NODE_24_V8 }).heapGrowth
    expect(v8LargestGrowthFactor((2000 + 192) * MB, 64)).toBeCloseTo(1.3 + (1744 * 0.7) / 1792, 5)
    expect(node24((2000 + 192) * MB)).toMatchObject({ percent: null, leftToV8: "v8_no_higher" })
    expect(node24((2000 + 192) * MB).v8Factor).toBeLessThan(2)
    // At 2,048 MB of old generation V8 24 takes 4 (it printed "factor 4.0"), as do 20 and 22.
    expect(node24((2048 + 192) * MB)).toEqual({ percent: 100, leftToV8: null, ownerFlag: null, v8Factor: 4 })
    expect(node24(4288 * MB)).toMatchObject({ percent: 100, v8Factor: 4 })
    // The same limit read as Node 22's is an old generation of 2,144 MB: V8 22 takes 4 there.
    const node22 = resolveRuntimeConfig({
      options: { syncHeapGrowthPercent: 100 },
      env: readEnvironment({}),
      execArgv: [],
      heapSizeLimit: (2000 + 192) * MB,
      v8Version: NODE_22_V8,
    })
    expect(node22.heapGrowth).toMatchObject({ percent: 100, v8Factor: 4 })
  })

  it("refuses a value out of range, naming it, and keeps the default (or the environment's value)", () => {
    for (const bad of [-1, 301, 2.5, "100"]) {
      const config = resolveRuntimeConfig({ options: { syncHeapGrowthPercent: bad as any }, env: readEnvironment({}), execArgv: [], heapSizeLimit: 4 * GB })
      expect(config.heapGrowth).toMatchObject({ percent: null, leftToV8: "option" })
      expect(config.problems).toEqual([expect.stringContaining(`syncHeapGrowthPercent=${JSON.stringify(bad)} is not valid`)])
      const overEnv = resolveRuntimeConfig({
        options: { syncHeapGrowthPercent: bad as any },
        env: readEnvironment({ CATALOG_SYNC_HEAP_GROWTH_PERCENT: "150" }),
        execArgv: [],
        heapSizeLimit: 4 * GB,
      })
      expect(overEnv.heapGrowth.percent).toBe(150)
    }
    const fromEnv = resolveRuntimeConfig({ env: readEnvironment({ CATALOG_SYNC_HEAP_GROWTH_PERCENT: "lots" }), execArgv: [], heapSizeLimit: 4 * GB })
    expect(fromEnv.heapGrowth).toMatchObject({ percent: null, leftToV8: "option" })
    expect(fromEnv.problems).toEqual([expect.stringContaining("CATALOG_SYNC_HEAP_GROWTH_PERCENT")])
  })
})

// A child process promotes objects quickly (as a sync's pages do) while a hold is open, then
// after it is given back; V8 prints each limit it sets with its factor (--trace-gc-verbose).
// The child's young generation is pinned to Node 20's and 22's (16 MB semi-spaces): in Node 24's
// (64 MB) this workload's objects die young and it runs no full collection. The old generation's
// limits, which the hold sets, are each version's own.
describe("V8 under a hold (a child process)", () => {
  const run = promisify(execFile)
  const STDBUF = ["/usr/bin/stdbuf", "/bin/stdbuf"].find((f) => fs.existsSync(f))
  const script = (dir: string) => {
    const file = path.join(dir, "churn.ts")
    fs.writeFileSync(
      file,
      `
import { resolveRuntimeConfig } from ${JSON.stringify(path.resolve(__dirname, "../../modules/catalog_sync_runtime/config"))}
import { readEnvironment } from ${JSON.stringify(path.resolve(__dirname, "../../config/environment"))}
import { HeapGrowthFlag, SyncHeapGrowth } from ${JSON.stringify(path.resolve(__dirname, "../heap-growth"))}
const { percent } = resolveRuntimeConfig({ env: readEnvironment(process.env) }).heapGrowth
const growth = new SyncHeapGrowth({ percent, flag: new HeapGrowthFlag({ lingerMs: 0 }) })
const kept: unknown[] = []
for (let i = 0; i < 200_000; i++) kept.push({ i, s: "k" + i, a: [i, i] })
function churn(rounds: number) {
  for (let r = 0; r < rounds; r++) {
    const o = { r, a: [r, r, r], s: "c" + r }
    if (r % 2 === 0) kept[r % kept.length] = o
  }
}
async function main() {
  // Each marker goes out inside the state it names: a collection that V8 finishes while a marker
  // is written (incremental marking started in the phase before) sets its limit with the factor
  // in force then, and must not count in the next phase.
  const release = growth.hold()
  console.log("PHASE held")
  // Long enough for several full collections on every supported Node (one run on Node 22 saw
  // only one in half this work).
  churn(6_000_000)
  console.log("PHASE releasing")
  release()
  await new Promise((r) => setTimeout(r, 20))
  console.log("PHASE given-back")
  churn(6_000_000)
  console.log("PHASE end")
}
main()
`
    )
    return file
  }

  /** The factor of each old-generation limit V8 set, by phase. */
  async function factorsOf(nodeFlags: string[], heapGrowthPercent: string | null = "100"): Promise<Record<string, number[]>> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "heap-growth-"))
    try {
      const args = [...nodeFlags, "--max-semi-space-size=16", "--trace-gc-verbose", "--import", "tsx", script(dir)]
      // V8 prints its trace through C's stdout, block-buffered into a pipe, while console.log
      // writes at once: a limit set before a PHASE line could come out after it and count in the
      // wrong phase. Line-buffered (coreutils' stdbuf), the two come out in the order they happened.
      const [command, commandArgs] = STDBUF ? [STDBUF, ["-oL", process.execPath, ...args]] : [process.execPath, args]
      const { stdout } = await run(command, commandArgs, {
        cwd: path.resolve(__dirname, "../../.."),
        env: { ...process.env, NODE_OPTIONS: "", CATALOG_SYNC_HEAP_GROWTH_PERCENT: heapGrowthPercent ?? "" },
        maxBuffer: 64 * 1024 * 1024,
      })
      return limitFactorsByPhase(stdout)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }

  it("sets every limit at 2× the live heap while held, and V8's own factor once given back (a 4 GB heap, as on a large machine)", async () => {
    const factors = await factorsOf(["--max-old-space-size=4096"])
    expect(factors.held?.length).toBeGreaterThanOrEqual(2)
    expect(new Set(factors.held)).toEqual(new Set([2]))
    expect(factors["given-back"]?.length).toBeGreaterThanOrEqual(2)
    expect(factors["given-back"].some((f) => f !== 2)).toBe(true)
  }, 300_000)

  it("leaves V8's own factor in place by default (the hold is opt-in)", async () => {
    const factors = await factorsOf(["--max-old-space-size=4096"], null)
    // V8's own factor lets the heap grow further, so fewer limits are set than under a hold.
    expect(factors.held?.length).toBeGreaterThanOrEqual(1)
    expect(factors.held.some((f) => f !== 2)).toBe(true)
  }, 300_000)

  it("leaves a process given a heap under 2 GB to V8, whose own factor is then lower", async () => {
    const factors = await factorsOf(["--max-old-space-size=512"])
    expect(factors.held?.length).toBeGreaterThanOrEqual(2)
    expect(Math.max(...factors.held)).toBeLessThan(2)
  }, 300_000)

  it("leaves a process started with its own --heap-growing-percent as it set it", async () => {
    const factors = await factorsOf(["--heap-growing-percent=30"])
    expect(factors.held?.length).toBeGreaterThanOrEqual(2)
    expect(new Set([...factors.held, ...factors["given-back"]])).toEqual(new Set([1.3]))
  }, 300_000)
})
