// The command line: `npm run sandbox -- [options]` (tsx sandbox/cli.ts) prints its URLs and honours every option.

import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { get } from "./http"

const ROOT = join(__dirname, "..", "..")
const TSX = join(ROOT, "node_modules/.bin/tsx")
const CLI = join(ROOT, "sandbox/cli.ts")

function start(args: string[]): Promise<{ child: ChildProcess; baseUrl: string; controlUrl: string }> {
  const child = spawn(TSX, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] })
  return new Promise((resolve, reject) => {
    let output = ""
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${output}`)))
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const api = /listening on (http:\/\/\S+)/.exec(output)
      const ctl = /Control API on (http:\/\/\S+)/.exec(output)
      if (api && ctl) resolve({ child, baseUrl: api[1], controlUrl: ctl[1] })
    })
  })
}

describe("sandbox CLI", () => {
  it("starts with every option applied and prints the base URL", async () => {
    const { child, baseUrl, controlUrl } = await start([
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--control-port",
      "0",
      "--products",
      "25",
      "--seed",
      "4",
      "--api-key",
      "cli-key",
      "--rpm",
      "7",
      "--concurrency",
      "2",
      "--daily-quota",
      "50",
      "--quota-enforced",
      "--latency-ms",
      "1",
      "--fail-rate",
      "0",
    ])
    try {
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect((await get(baseUrl, "/v1/me", { key: "sandbox-key" })).status).toBe(401)
      const me = await get(baseUrl, "/v1/me", { key: "cli-key" })
      expect(me.json.data.limits).toMatchObject({ requests_per_minute: 7, max_concurrent: 2, requests_per_day: 50 })
      expect(me.json.data.usage.quota_enforced).toBe(true)
      const list = await get(baseUrl, "/v1/products?limit=200", { key: "cli-key" })
      expect(list.json.data.length).toBe(25)
      const state = await (await fetch(controlUrl + "/state")).json()
      expect(state.faults).toMatchObject({ fail_rate: 0, latency_ms: 1 })
    } finally {
      child.kill("SIGTERM")
    }
  }, 30_000)

  it("refuses a bad option value with exit code 2 and the usage text", () => {
    const result = spawnSync(TSX, [CLI, "--products", "many"], { cwd: ROOT, encoding: "utf8", timeout: 20_000 })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain("--products must be an integer")
    expect(result.stderr).toContain("Usage: npm run sandbox")
    const unknown = spawnSync(TSX, [CLI, "--bogus"], { cwd: ROOT, encoding: "utf8", timeout: 20_000 })
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain("Unknown option '--bogus'")
  }, 30_000)
})
