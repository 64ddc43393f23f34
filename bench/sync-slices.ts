/**
 * The long synchronous slices of a first sync on the app's event loop (issue 44):
 * `npx tsx bench/sync-slices.ts`. A fresh shop syncs BENCH_PRODUCTS products (default 2,000) from a
 * sandbox at BENCH_RPM requests a minute (default 60, the API's), with a V8 CPU profile of the app
 * (bench/cpu-profile-hook.js). A busy period is a run of profile samples with no idle sample between
 * them. It is an upper bound of a synchronous slice: the event loop may have turned inside it (a turn
 * with work waiting shows no idle sample), so a shopper's request arriving then waited at most that
 * long; the run's event-loop delay line (which this prints first) is the true measure. Prints the
 * busy periods over BENCH_SLICE_MS (default 20), longest first, each with the plugin's and other
 * functions on its stacks (share of its samples). On a loaded machine a period's wall time is
 * several times its CPU time (its sample count, at one sample a millisecond, is nearer the CPU).
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import path from "node:path"
import { configure, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop } from "./bench-shop"

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number }

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

const IDLE = new Set(["(idle)", "(program)", "(garbage collector)"])

export interface Slice {
  ms: number
  /** Sample count per node id. */
  nodes: Map<number, number>
}

/** Runs of non-idle samples (garbage collection counts as work of the slice it interrupts). */
export function slicesOf(profile: CpuProfile): Slice[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const slices: Slice[] = []
  let current: Slice | null = null
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i])!
    const name = node.callFrame.functionName
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000
    if (name === "(idle)" || name === "(program)") {
      if (current) slices.push(current)
      current = null
      continue
    }
    current ??= { ms: 0, nodes: new Map() }
    current.ms += dt
    current.nodes.set(node.id, (current.nodes.get(node.id) ?? 0) + 1)
  }
  if (current) slices.push(current)
  return slices
}

function label(n: ProfileNode): string {
  const file = n.callFrame.url.replace(/^.*\/(node_modules\/)/, "$1").replace(/^.*\/\.medusa\/server\//, "plugin:")
  return `${n.callFrame.functionName || "(anonymous)"} ${file}:${n.callFrame.lineNumber + 1}`
}

export function describeSlices(profile: CpuProfile, minMs: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  void IDLE
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const stack = (id: number) => {
    const out: ProfileNode[] = []
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) out.push(byId.get(at)!)
    return out // leaf first
  }
  const isPlugin = (n: ProfileNode) => /\.medusa\/server\/src\//.test(n.callFrame.url)
  const long = slicesOf(profile)
    .filter((s) => s.ms >= minMs)
    .sort((a, b) => b.ms - a.ms)
  const lines = [`${long.length} busy periods of ${minMs} ms or more (longest ${Math.max(0, ...long.map((s) => s.ms)).toFixed(0)} ms), longest first:`]
  for (const s of long.slice(0, Number(process.env.BENCH_SLICES ?? 25))) {
    // Samples on whose stack each function was (inclusive), the plugin's and the rest apart.
    const inclusive = new Map<string, { count: number; plugin: boolean }>()
    let total = 0
    for (const [id, count] of s.nodes) {
      total += count
      for (const f of new Set(stack(id).map((n) => n))) {
        const key = label(f)
        const entry = inclusive.get(key) ?? { count: 0, plugin: isPlugin(f) }
        entry.count += count
        inclusive.set(key, entry)
      }
    }
    const top = (plugin: boolean) =>
      [...inclusive]
        .filter(([k, e]) => e.plugin === plugin && !/^\((root|program|idle)\)/.test(k))
        .sort((a, b) => b[1].count - a[1].count)
        .slice(0, 3)
        .map(([k, e]) => `${((e.count / total) * 100).toFixed(0)}% ${k}`)
    lines.push(`  ${s.ms.toFixed(0)} ms (${total} samples)`)
    lines.push(`      plugin: ${top(true).join(" | ") || "none"}`)
    lines.push(`      other:  ${top(false).join(" | ")}`)
  }
  return lines
}

async function main() {
  // BENCH_SLICES_PROFILE=<file>: only the analysis, of a profile written before (the whole profile).
  if (process.env.BENCH_SLICES_PROFILE) {
    const profile = JSON.parse(readFileSync(process.env.BENCH_SLICES_PROFILE, "utf8")) as CpuProfile
    for (const l of describeSlices(profile, Number(process.env.BENCH_SLICE_MS ?? 20))) console.log(l)
    return
  }
  const dir = mkdtempSync(path.join(tmpdir(), "sync-slices-"))
  const products = Number(process.env.BENCH_PRODUCTS ?? 2_000)
  const minMs = Number(process.env.BENCH_SLICE_MS ?? 20)
  const shop = await startBenchShop("bench-sync-slices", 7, products, {
    rpm: Number(process.env.BENCH_RPM ?? 60),
    env: { CPU_PROF_DIR: dir },
    nodeOptions: `--require ${path.join(__dirname, "cpu-profile-hook.js")}`,
  })
  try {
    const from = shop.app.logs().length
    const saved = await configure(shop.app, { base_url: shop.sb.baseUrl, api_key: shop.sb.apiKey, markup_percent: "30" })
    const run = await waitForRun(shop.app, saved.run.id, undefined, 3600_000)
    if (run.status !== "succeeded") throw new Error(`first sync ${run.status}: ${run.error_message}`)
    process.kill(shop.app.pid, "SIGUSR2")
    await new Promise((r) => setTimeout(r, 5000))
    const s = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
    const logs = shop.app.logs().slice(from)
    console.log(`first sync of ${run.created} products in ${s.toFixed(1)} s, ${run.requests_used} requests; load ${load()}`)
    for (const l of logs.match(/catalog sync: (event loop during run|page writes here)[^\n]*/g) ?? []) console.log(`  ${l}`)
    const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))
    if (!file) throw new Error(`no CPU profile in ${dir}`)
    // The profile covers the app's start too: only the samples from the run's start on count.
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile
    for (const l of describeSlices(sinceRun(profile, Date.parse(run.started_at)), minMs)) console.log(l)
    console.log(`  (profile: ${path.join(dir, file)})`)
  } finally {
    await shop.stop()
  }
}

/** The profile's samples from `fromMs` (wall clock) on. */
function sinceRun(profile: CpuProfile, fromMs: number): CpuProfile {
  // startTime is in µs of a monotonic clock; the profile ends at "now" (written at SIGUSR2).
  const total = profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000
  const endWall = Date.now() - 5000
  const startWall = endWall - total
  let t = startWall
  let first = 0
  for (; first < profile.samples.length; first++) {
    t += profile.timeDeltas[first] / 1000
    if (t >= fromMs) break
  }
  return { ...profile, samples: profile.samples.slice(first), timeDeltas: profile.timeDeltas.slice(first) }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
