// Issue #10 over real HTTP: one limit per key whatever the host is called (parallel admin
// checks under two names plus a running sync never push the sandbox past 3 in flight or 60 a
// minute for the key), no connection to a non-public address without allowPrivateNetworks,
// one fixed sentence for every unreachable or unexpected answer, and no redirect followed.
import { randomUUID } from "node:crypto"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, waitFor, waitForRun } from "./poll-and-query"

jest.setTimeout(600_000)

const UNREACHABLE = { code: "unreachable", message: "Could not reach the catalog at this address.", request_id: null }

async function stats(sandbox: Sandbox) {
  const res = await fetch(`${sandbox.controlUrl}/stats`)
  return (await res.json()) as { requests: number; by_status: Record<string, number>; rate_limited: { total: number; per_minute: number; concurrency: number } }
}

/** A loopback server counting the connections it accepts. */
async function countingServer(handler: http.RequestListener = (_req, res) => res.end("{}")) {
  const server = http.createServer(handler)
  let accepted = 0
  server.on("connection", () => accepted++)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

async function closedPort(): Promise<number> {
  const s = await countingServer()
  await s.close()
  return s.port
}

describe("outbound security: allowPrivateNetworks on (the sandbox is on loopback)", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp
  let sandbox: Sandbox
  const apiKey = `sec-${randomUUID()}`

  beforeAll(async () => {
    // The real service's limits, enforced by the sandbox: an excess would be answered 429.
    sandbox = await startSandbox({ products: 400, seed: 7, apiKey, rpm: 60, concurrency: 3, port: 0, controlPort: 0 })
    // Answers take 300 ms, so requests overlap and a fourth one in flight would be seen (429).
    const faults = await fetch(`${sandbox.controlUrl}/faults`, { method: "POST", body: JSON.stringify({ latency_ms: 300 }) })
    expect(faults.status).toBe(200)
    db = await createTestDatabase("outbound-security")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "outbound-security",
      env: {
        CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`,
        CATALOG_BASE_URL: "",
        CATALOG_API_KEY: "",
        // The plugin's own defaults (60/min, 3 at once), not the raised test ceiling.
        CATALOG_SYNC_MAX_RPM: "60",
        CATALOG_SYNC_MAX_CONCURRENT: "3",
      },
    })
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
    await sandbox?.close()
  })

  it("keeps one key under 3 in flight and 60 a minute across a sync and parallel checks under two host names", async () => {
    const port = new URL(sandbox.baseUrl).port
    // Saving the key and a markup starts a full sync.
    await configure(app, { base_url: sandbox.baseUrl, api_key: apiKey, markup_percent: "30" })
    const aliases = [{}, { base_url: `http://localhost:${port}`, api_key: apiKey }]
    const answers: { alias: number; ok: boolean; code?: string }[] = []
    const calls: Promise<void>[] = []
    const fire = (count: number) => {
      for (let i = 0; i < count; i++) {
        for (const [alias, body] of aliases.entries()) {
          calls.push(
            app.admin("/admin/catalog-sync/test-connection", { body }).then((res) => {
              expect(res.status).toBe(200)
              answers.push({ alias, ok: res.body.ok, code: res.body.error?.code })
            })
          )
        }
      }
    }
    // 30 parallel calls under two names at once, then 3 a second for 70 s more (3 times what
    // the key may send), while the sync runs.
    fire(15)
    const started = Date.now()
    while (Date.now() - started < 70_000) {
      await new Promise((r) => setTimeout(r, 2000))
      fire(3)
    }
    await Promise.all(calls)

    const seen = await stats(sandbox)
    const ok = answers.filter((a) => a.ok).length
    console.log(
      `security: ${answers.length} checks (${ok} ok), sandbox saw ${seen.requests} requests in ${Math.round((Date.now() - started) / 1000) + 0} s, ${seen.rate_limited.total} answered 429`
    )
    expect(seen.rate_limited).toMatchObject({ total: 0, per_minute: 0, concurrency: 0 })
    expect(seen.by_status["429"]).toBeUndefined()
    // The demand was real: the key's budget was used, and both names got through.
    expect(seen.requests).toBeGreaterThan(60)
    expect(answers.filter((a) => a.alias === 0 && a.ok).length).toBeGreaterThan(0)
    expect(answers.filter((a) => a.alias === 1 && a.ok).length).toBeGreaterThan(0)
    // A check that waited too long for the key's turn says the one sentence, nothing remote.
    for (const a of answers.filter((x) => !x.ok)) expect(a.code).toBe("unreachable")
  })

  it("answers a closed port, a non-catalog server and a catalog alike with the one sentence", async () => {
    const html = await countingServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" })
      res.end("<title>router admin</title>")
    })
    const chatty = await countingServer((_req, res) => {
      res.writeHead(418, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { code: "teapot", message: "INTERNAL-HOST-DETAIL db01.corp" } }))
    })
    try {
      const bodies = []
      for (const base_url of [`http://127.0.0.1:${await closedPort()}`, html.url, chatty.url, sandbox.controlUrl]) {
        const res = await app.admin("/admin/catalog-sync/test-connection", { body: { base_url, api_key: `other-${randomUUID()}` } })
        expect(res.status).toBe(200)
        bodies.push(res.body)
      }
      for (const body of bodies) expect(body).toEqual({ ok: false, error: UNREACHABLE })
      expect(JSON.stringify(bodies)).not.toMatch(/ECONNREFUSED|INTERNAL-HOST-DETAIL|router|http_/)
      // Saving such an address says the same, naming the field.
      const save = await app.admin("/admin/catalog-sync/settings", { body: { base_url: chatty.url, api_key: `other-${randomUUID()}` } })
      expect(save.status).toBe(400)
      expect(save.body.field).toBe("api_key")
      expect(save.body.errors[0]).toEqual({ field: "api_key", message: "Could not reach the catalog at this address.", code: "unreachable", request_id: null })
      // The detail is in the server log, without the key.
      await waitFor("the detail in the log", async () => /test connection failed: .*ECONNREFUSED/.test(app.logs()))
    } finally {
      await Promise.all([html.close(), chatty.close()])
    }
  })

  it("does not follow a redirect, not even to an allowed address", async () => {
    const target = await countingServer()
    const redirect = await countingServer((_req, res) => {
      res.writeHead(302, { location: `${target.url}/v1/me` })
      res.end()
    })
    try {
      const res = await app.admin("/admin/catalog-sync/test-connection", { body: { base_url: redirect.url, api_key: `other-${randomUUID()}` } })
      expect(res.body).toEqual({ ok: false, error: UNREACHABLE })
      expect(redirect.accepted()).toBeGreaterThan(0)
      expect(target.accepted()).toBe(0)
    } finally {
      await Promise.all([target.close(), redirect.close()])
    }
  })
})

describe("outbound security: allowPrivateNetworks off (the default)", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp
  let sandbox: Sandbox
  const apiKey = `sec-${randomUUID()}`

  beforeAll(async () => {
    sandbox = await startSandbox({ products: 20, seed: 8, apiKey, rpm: 6000, port: 0, controlPort: 0 })
    db = await createTestDatabase("outbound-security-off")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "outbound-security-off",
      env: {
        CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`,
        CATALOG_BASE_URL: "",
        CATALOG_API_KEY: "",
        CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS: "false",
      },
    })
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
    await sandbox?.close()
  })

  it("refuses loopback addresses with the one sentence and never connects", async () => {
    const port = new URL(sandbox.baseUrl).port
    const other = await countingServer()
    try {
      // Loopback only (names, literals, IPv4-mapped IPv6): other ranges are covered by the unit tests.
      for (const base_url of [
        sandbox.baseUrl,
        `http://localhost:${port}`,
        `http://[::1]:${port}`,
        `http://[::ffff:127.0.0.1]:${port}`,
        `http://127.0.0.2:${port}`,
        other.url,
      ]) {
        const res = await app.admin("/admin/catalog-sync/test-connection", { body: { base_url, api_key: apiKey } })
        expect(res.status).toBe(200)
        expect(res.body).toEqual({ ok: false, error: UNREACHABLE })
      }
      const save = await app.admin("/admin/catalog-sync/settings", { body: { base_url: sandbox.baseUrl, api_key: apiKey } })
      expect(save.status).toBe(400)
      expect(save.body.errors[0]).toEqual({ field: "api_key", message: "Could not reach the catalog at this address.", code: "unreachable", request_id: null })
      expect((await stats(sandbox)).requests).toBe(0)
      expect(other.accepted()).toBe(0)
      expect(app.logs()).toMatch(/address_not_allowed: Refusing to connect to/)
      expect(app.logs()).not.toContain(apiKey)
    } finally {
      await other.close()
    }
  })
})

describe("outbound security: a weak encryption secret", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp
  let sandbox: Sandbox
  const apiKey = `sec-${randomUUID()}`

  beforeAll(async () => {
    sandbox = await startSandbox({ products: 10, seed: 9, apiKey, rpm: 6000, port: 0, controlPort: 0 })
    db = await createTestDatabase("outbound-security-weak")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "outbound-security-weak",
      env: {
        CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`,
        // Configured from the options (no key saved), with the demo's old fallback secret.
        CATALOG_BASE_URL: sandbox.baseUrl,
        CATALOG_API_KEY: apiKey,
        CATALOG_SYNC_ENCRYPTION_KEY: "demo-only-encryption-key-change-me",
      },
    })
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
    await sandbox?.close()
  })

  it("starts no sync, says why in the run and the status, and refuses to store a key", async () => {
    const started = await app.admin("/admin/catalog-sync/runs", { body: { mode: "full" } })
    expect(started.status).toBe(202)
    const run = await waitForRun(app, started.body.run.id)
    expect(run).toMatchObject({ status: "failed", error_code: "weak_encryption_secret" })
    expect(run.error_message).toMatch(/encryption secret .* published with this plugin/)
    const status = await app.admin("/admin/catalog-sync/status")
    expect(status.body.account_error).toMatchObject({ code: "weak_encryption_secret" })
    const save = await app.admin("/admin/catalog-sync/settings", { body: { api_key: `new-${randomUUID()}` } })
    expect(save.status).toBe(400)
    expect(save.body.field).toBe("api_key")
    expect(save.body.errors[0].message).toMatch(/published with this plugin/)
    expect((await stats(sandbox)).requests).toBe(0)
  })
})
