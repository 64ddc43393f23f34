// The command-line tool, in-process (runCli) and once as a real process for its exit code.
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PassThrough } from "node:stream"
import type { Sandbox } from "../../../sandbox/server"
import { runCli } from "../cli/run-cli"
import { CatalogClient } from "../index"
import { control, productIdsOnSale, sandbox, TEST_KEY } from "./sandbox-helpers"

// Generous limits for a shared 2-core machine; nothing here asserts on speed.
jest.setTimeout(30_000)

function capture() {
  const stream = new PassThrough()
  let text = ""
  stream.on("data", (chunk) => (text += chunk.toString()))
  return { stream, text: () => text }
}

async function run(argv: string[], env: Record<string, string> = {}) {
  const stdout = capture()
  const stderr = capture()
  const code = await runCli(argv, { stdout: stdout.stream, stderr: stderr.stream, env })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}

describe("catalog CLI", () => {
  let sb: Sandbox
  let dir: string
  beforeAll(async () => {
    sb = await sandbox({ products: 1000 })
    dir = await mkdtemp(join(tmpdir(), "catalog-cli-"))
  })
  afterAll(async () => {
    await sb.close()
    await rm(dir, { recursive: true, force: true })
  })
  const conn = () => ["--base-url", sb.baseUrl, "--api-key", sb.apiKey]

  it.each([
    [[], /missing command/],
    [["frobnicate", "--base-url", "http://x", "--api-key", "k"], /unknown command "frobnicate"/],
    [["me", "--api-key", "k"], /missing --base-url/],
    [["me", "--base-url", "ftp://x", "--api-key", "k"], /http\(s\)/],
    [["me", "--base-url", "http://x"], /missing --api-key/],
    [["me", "--base-url", "http://x", "--api-key", "k", "--bogus"], /bogus/],
    [["product", "--base-url", "http://x", "--api-key", "k"], /exactly one of --id N or --sku S/],
    [["product", "--id", "9223372036854775808", "--base-url", "http://x", "--api-key", "k"], /--id must be an integer/],
    [["stock", "--ids", "1,x", "--base-url", "http://x", "--api-key", "k"], /"x" is not an id/],
    [["export", "--base-url", "http://x", "--api-key", "k"], /export needs --out/],
    [["export", "--out", "f", "--limit", "500", "--base-url", "http://x", "--api-key", "k"], /--limit/],
    [["me", "--markup-percent", "-1", "--base-url", "http://x", "--api-key", "k"], /markup-percent/],
    [["me", "--price-calculation", "median", "--base-url", "http://x", "--api-key", "k"], /min, avg or max/],
    [["me", "--id", "1", "--base-url", "http://x", "--api-key", "k"], /--id does not apply to "me"/],
  ])("bad arguments %j exit 2 with a clear message", async (argv, message) => {
    const result = await run(argv as string[])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr).toContain("Usage: npm run catalog")
    expect(result.stdout).toBe("")
  })

  it("me prints plan, limits, usage and access, never the key (key from env works too)", async () => {
    const result = await run(["me", "--base-url", sb.baseUrl], { CATALOG_API_KEY: sb.apiKey })
    expect(result.code).toBe(0)
    const info = JSON.parse(result.stdout)
    expect(info).toMatchObject({ plan: "Ultra", limits: { requests_per_minute: 6000 }, access: { ok: true } })
    expect(result.stdout + result.stderr).not.toContain(TEST_KEY)
  })

  it("product by id and by sku; stock by ids; API errors exit 1 with request_id", async () => {
    const byId = await run(["product", "--id", "9223372036854775807", "--markup-percent", "30", ...conn()])
    expect(byId.code).toBe(0)
    const card = JSON.parse(byId.stdout)
    expect(card.id).toBe("9223372036854775807")
    expect(card.price).toMatch(/^[0-9]+\.[0-9]{2}$/)

    const bySku = await run(["product", "--sku", card.sku, "--markup-percent", "30", ...conn()])
    expect(JSON.parse(bySku.stdout)).toEqual(card)

    const stock = await run(["stock", "--ids", "9223372036854775807,1,42", ...conn()])
    expect(stock.code).toBe(0)
    const parsed = JSON.parse(stock.stdout)
    expect(parsed.items.map((i: { id: string }) => i.id).sort()).toEqual(["1", "9223372036854775807"])
    expect(parsed.missing).toEqual(["42"])

    const missing = await run(["product", "--id", "42", ...conn()])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/not_found/)
    expect(missing.stderr).toMatch(/request_id: \S+/)

    const wrongKey = await run(["me", "--base-url", sb.baseUrl, "--api-key", "wrong-SECRET-key"])
    expect(wrongKey.code).toBe(1)
    expect(wrongKey.stderr).toMatch(/invalid_api_key/)
    expect(wrongKey.stdout + wrongKey.stderr).not.toContain("wrong-SECRET-key")
  })

  it("export under a 20% fault rate writes every product exactly once and prints the final cursor", async () => {
    await control(sb, "/faults", { fail_rate: 0.2, slow_ms: 100 })
    try {
      const out = join(dir, "catalog.ndjson")
      const result = await run(["export", "--out", out, "--limit", "100", ...conn()])
      expect(result.code).toBe(0)
      const lines = (await readFile(out, "utf8")).trim().split("\n")
      const ids = lines.map((line) => JSON.parse(line).id as string)
      expect(ids.length).toBe(1000)
      expect(new Set(ids).size).toBe(1000)
      expect([...ids].sort()).toEqual(productIdsOnSale(sb).sort())
      expect(ids).toContain("9223372036854775807")
      expect(result.stdout.trim()).toMatch(/^\S+$/)
      expect(result.stderr).toMatch(/page 10: 1000 products/)
      expect(result.stderr).toMatch(/retrying/) // the faults did happen
      expect(result.stdout + result.stderr).not.toContain(TEST_KEY)
      await expect(stat(`${out}.partial`)).rejects.toThrow()
      const stats = await control(sb, "/stats")
      expect(stats.faults.total).toBeGreaterThan(0)

      // The printed cursor continues the feed: nothing changed since, so the next page is empty.
      await control(sb, "/faults", { fail_rate: 0 })
      const client = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey })
      const next = await client.getChangesPage({ cursor: result.stdout.trim() })
      expect(next.items).toEqual([])
      await client.close()
    } finally {
      await control(sb, "/faults", { fail_rate: 0 })
    }
  }, 60_000)

  it("the real entry point exits 2 on bad arguments", async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [require.resolve("tsx/cli"), join(__dirname, "..", "cli.ts"), "product", "--base-url", "http://127.0.0.1:1"],
        { env: { ...process.env, CATALOG_API_KEY: TEST_KEY } },
        (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr })
      )
      child.stdin?.end()
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/product needs exactly one of --id N or --sku S/)
    expect(result.stderr).not.toContain(TEST_KEY)
  }, 30_000)
})
