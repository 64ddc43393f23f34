// Sandbox benchmark: `npm run sandbox -- --products 100000` startup time, and latency of
// 200-product pages of the changes feed (full export, then changes after 20,000 mutations).
// The sandbox runs in its own process, as in real use. Run alone: npx tsx bench/sandbox.ts

import { spawn, type ChildProcess } from "node:child_process"
import { Agent, request } from "node:http"
import { join } from "node:path"

export interface LatencySummary {
  requests: number
  /** Median time the sandbox spent building the answer (its Server-Timing header). */
  serverMedianMs: number
  medianMs: number
  p95Ms: number
  maxMs: number
  kibPerPage: number
}

export interface SandboxBenchResult {
  products: number
  startupMs: number
  exportPage: LatencySummary
  changesPage: LatencySummary
}

const PRODUCTS = 100_000
const REQUESTS = 100
const MUTATIONS = 20_000
const PRICING = "price_calculation=avg&markup_percent=30&discount_percent=20"
const ROOT = join(__dirname, "..")

export async function benchSandbox(): Promise<SandboxBenchResult> {
  const { child, baseUrl, controlUrl, startupMs } = await startCli([
    "--products",
    String(PRODUCTS),
    "--port",
    "0",
    "--control-port",
    "0",
    "--rpm",
    "100000000",
    "--concurrency",
    "1000",
    "--daily-quota",
    "100000000",
  ])
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const key = "sandbox-key"
    const exportTimes: number[] = []
    const exportServer: number[] = []
    let bytes = 0
    let cursor: string | null = null
    for (let i = 0; i < REQUESTS; i++) {
      const page = await timedGet(agent, `${baseUrl}/v1/products/changes?limit=200&${PRICING}${cursor ? `&cursor=${cursor}` : ""}`, key)
      exportTimes.push(page.ms)
      exportServer.push(page.serverMs)
      bytes += page.body.length
      cursor = JSON.parse(page.body).meta.next_cursor
    }
    const exportPage = summarise(exportTimes, exportServer, bytes)

    const start = await post(controlUrl + "/changes-cursor", { query: PRICING })
    await post(controlUrl + "/mutate", { count: MUTATIONS })
    const changeTimes: number[] = []
    const changeServer: number[] = []
    bytes = 0
    cursor = start.cursor as string
    for (let i = 0; i < REQUESTS; i++) {
      const page = await timedGet(agent, `${baseUrl}/v1/products/changes?limit=200&${PRICING}&cursor=${cursor}`, key)
      changeTimes.push(page.ms)
      changeServer.push(page.serverMs)
      bytes += page.body.length
      const json = JSON.parse(page.body)
      cursor = json.meta.next_cursor
      if (!json.meta.has_more) break
    }
    const changesPage = summarise(changeTimes, changeServer, bytes)
    const result: SandboxBenchResult = { products: PRODUCTS, startupMs: Math.round(startupMs), exportPage, changesPage }
    console.log(`sandbox: npm run sandbox -- --products ${PRODUCTS}: listening after ${result.startupMs} ms (goal < 15000)`)
    console.log(`sandbox: export page of 200 (${PRICING}): ${describe(exportPage)} (goal: median < 20 ms)`)
    console.log(`sandbox: changes page of 200 after ${MUTATIONS} mutations: ${describe(changesPage)}`)
    return result
  } finally {
    agent.destroy()
    child.kill("SIGTERM")
  }
}

function describe(s: LatencySummary): string {
  return (
    `median ${s.medianMs} ms, p95 ${s.p95Ms} ms, max ${s.maxMs} ms over ${s.requests} requests ` +
    `(sandbox's own work: median ${s.serverMedianMs} ms), ~${s.kibPerPage} KiB a page`
  )
}

/** Starts the CLI as `npm run sandbox` does (tsx sandbox/cli.ts) and waits for its address lines. */
function startCli(args: string[]): Promise<{ child: ChildProcess; baseUrl: string; controlUrl: string; startupMs: number }> {
  const started = process.hrtime.bigint()
  const child = spawn(join(ROOT, "node_modules/.bin/tsx"), [join(ROOT, "sandbox/cli.ts"), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  })
  return new Promise((resolve, reject) => {
    let output = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error("sandbox did not start within 60 s"))
    }, 60_000)
    child.on("exit", (code) => reject(new Error(`sandbox exited with ${code}: ${output}`)))
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const api = /listening on (http:\/\/\S+)/.exec(output)
      const ctl = /Control API on (http:\/\/\S+)/.exec(output)
      if (api && ctl) {
        clearTimeout(timer)
        resolve({ child, baseUrl: api[1], controlUrl: ctl[1], startupMs: Number(process.hrtime.bigint() - started) / 1e6 })
      }
    })
  })
}

function timedGet(agent: Agent, url: string, apiKey: string): Promise<{ ms: number; serverMs: number; body: string }> {
  const started = process.hrtime.bigint()
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { "X-API-Key": apiKey } }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6
        const body = Buffer.concat(chunks).toString("utf8")
        const timing = /dur=([0-9.]+)/.exec(String(res.headers["server-timing"] ?? ""))
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${body.slice(0, 300)}`))
        else resolve({ ms, serverMs: timing ? Number(timing[1]) : NaN, body })
      })
    })
    req.on("error", reject)
    req.end()
  })
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) })
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as Record<string, unknown>
}

function summarise(times: number[], serverTimes: number[], bytes: number): LatencySummary {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  const round = (ms: number) => Math.round(ms * 100) / 100
  const server = [...serverTimes].sort((a, b) => a - b)
  return {
    requests: times.length,
    serverMedianMs: round(server[Math.floor(server.length / 2)]),
    medianMs: round(at(0.5)),
    p95Ms: round(at(0.95)),
    maxMs: round(sorted[sorted.length - 1]),
    kibPerPage: Math.round(bytes / times.length / 1024),
  }
}

if (require.main === module) {
  benchSandbox().catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
