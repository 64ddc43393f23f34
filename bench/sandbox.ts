// Sandbox benchmark: startup with 100,000 products, and latency of 200-product pages of the
// changes feed (full export and changes after mutations). Run alone: npx tsx bench/sandbox.ts

import { Agent, request } from "node:http"
import { startSandbox } from "../sandbox/server"

export interface SandboxBenchResult {
  products: number
  startupMs: number
  exportPage: LatencySummary
  changesPage: LatencySummary
}

interface LatencySummary {
  requests: number
  medianMs: number
  p95Ms: number
  bytesPerPage: number
}

const PRODUCTS = 100_000
const REQUESTS = 100

export async function benchSandbox(): Promise<SandboxBenchResult> {
  const started = process.hrtime.bigint()
  const sandbox = await startSandbox({ products: PRODUCTS, rpm: 1_000_000, concurrency: 100, dailyQuota: 1_000_000_000 })
  const startupMs = Number(process.hrtime.bigint() - started) / 1e6
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const pricing = "markup_percent=30&discount_percent=20&price_calculation=avg"
    // Full export: the first REQUESTS pages of 200.
    const exportTimes: number[] = []
    let cursor: string | null = null
    let bytes = 0
    for (let i = 0; i < REQUESTS; i++) {
      const query: string = `limit=200&${pricing}` + (cursor ? `&cursor=${cursor}` : "")
      const { ms, body } = await timedGet(agent, `${sandbox.baseUrl}/v1/products/changes?${query}`, sandbox.apiKey)
      exportTimes.push(ms)
      bytes += body.length
      cursor = JSON.parse(body).meta.next_cursor
    }
    const exportSummary = summarise(exportTimes, bytes)

    // Changes feed: 20,000 product changes, then pages of 200 from a cursor taken before them.
    const start = await timedGet(agent, `${sandbox.baseUrl}/v1/products/changes?limit=1&${pricing}`, sandbox.apiKey)
    let changesCursor: string = JSON.parse(start.body).meta.next_cursor
    while (JSON.parse((await timedGet(agent, `${sandbox.baseUrl}/v1/products/changes?limit=200&${pricing}&cursor=${changesCursor}`, sandbox.apiKey)).body).meta.has_more) {
      break
    }
    // Walk to the end of the export cheaply is not needed: take a changes cursor from the live log position.
    changesCursor = sandbox.state.cursors.encode({
      mode: "changes",
      position: BigInt(sandbox.state.catalog.log.length),
      logStart: 0,
      pricingHash: JSON.parse(start.body).meta.next_cursor ? pricingHashOf(sandbox, start.body) : "",
      filterHash: "00000000",
    })
    sandbox.control.mutate({ count: 20_000 })
    const changeTimes: number[] = []
    bytes = 0
    for (let i = 0; i < REQUESTS; i++) {
      const { ms, body } = await timedGet(agent, `${sandbox.baseUrl}/v1/products/changes?limit=200&${pricing}&cursor=${changesCursor}`, sandbox.apiKey)
      changeTimes.push(ms)
      bytes += body.length
      const page = JSON.parse(body)
      changesCursor = page.meta.next_cursor
      if (!page.meta.has_more) break
    }
    const changesSummary = summarise(changeTimes, bytes)
    const result = { products: PRODUCTS, startupMs: round(startupMs), exportPage: exportSummary, changesPage: changesSummary }
    console.log(
      `sandbox: ${PRODUCTS} products started in ${result.startupMs} ms; ` +
        `export page of 200: median ${exportSummary.medianMs} ms, p95 ${exportSummary.p95Ms} ms (${exportSummary.requests} requests, ~${Math.round(exportSummary.bytesPerPage / 1024)} KiB); ` +
        `changes page of 200: median ${changesSummary.medianMs} ms, p95 ${changesSummary.p95Ms} ms (${changesSummary.requests} requests)`,
    )
    return result
  } finally {
    agent.destroy()
    await sandbox.close()
  }
}

function pricingHashOf(sandbox: Awaited<ReturnType<typeof startSandbox>>, body: string): string {
  const decoded = sandbox.state.cursors.decode(JSON.parse(body).meta.next_cursor)
  return decoded.ok ? decoded.cursor.pricingHash : ""
}

function timedGet(agent: Agent, url: string, apiKey: string): Promise<{ ms: number; body: string }> {
  const started = process.hrtime.bigint()
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { "X-API-Key": apiKey } }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8")
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${body.slice(0, 300)}`))
        else resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, body })
      })
    })
    req.on("error", reject)
    req.end()
  })
}

function summarise(times: number[], bytes: number): LatencySummary {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  return { requests: times.length, medianMs: round(at(0.5)), p95Ms: round(at(0.95)), bytesPerPage: Math.round(bytes / times.length) }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

if (require.main === module) {
  benchSandbox().catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
