// From `npm pack` to products on the storefront, in a Medusa app this test makes from nothing
// (not the repo's demo): its own package.json, medusa-config.ts, tsconfig.json and .env. It does
// what the README's "Install into an existing Medusa app" says, step by step:
//   1. npm install the plugin (here: the tarball `npm pack` made; prepack builds it)
//   2. register it in medusa-config.ts with the README's snippet (read from the README itself)
//   3. set CATALOG_SYNC_ENCRYPTION_KEY in the app's .env
//   4. npx medusa db:migrate
//   5. create an admin user (`npx medusa user`) and start the app (here `medusa start` with the
//      admin disabled, to save time and memory)
//   6. save the base URL and the key through the admin API (what the settings page does)
// and then reads the products through the store API with the app's default publishable key.
// Nothing else is set up: no region, no sales channel, no key made by the test.
//
// It packs once and does all of that on each Medusa version of MCS_INSTALL_MEDUSA_VERSIONS
// (comma-separated; default "2.21.0,2.21.2": the lowest version the peer range accepts and the
// newest 2.x published). MCS_INSTALL_KEEP=1 keeps the app directories and databases for a look.
// Skips, saying so, when the npm registry cannot be reached.
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import Decimal from "decimal.js"
import Redis from "ioredis"
import { createDatabase, databaseUrl, dropDatabase } from "../harness/database"
import { freePort } from "../harness/medusa-app"
import { ARTIFACTS_DIR, REPO_ROOT } from "../harness/paths"
import { deleteKeysMatching } from "../harness/redis-keys"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { CatalogClient, type ProductCard } from "../../src/catalog-client"

const MEDUSA_VERSIONS = (process.env.MCS_INSTALL_MEDUSA_VERSIONS || "2.21.0,2.21.2")
  .split(",")
  .map((v) => v.trim())
  .filter(Boolean)
const KEEP = process.env.MCS_INSTALL_KEEP === "1"
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379"
const ADMIN_EMAIL = "admin@example.com"
const ADMIN_PASSWORD = "supersecret"
const PRODUCTS = 40
// The pricing of the README's snippet; the catalog is read with it to know the expected prices.
const README_PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: "20" } as const

jest.setTimeout(40 * 60_000)

/** npm without the variables of the npm process running the tests (they would point at this repo). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_(lifecycle|package|command|config_workspaces?|config_local_prefix)/i.test(k) || k === "INIT_CWD") continue
    env[k] = v
  }
  return env
}

function registryProblem(): string | null {
  const r = spawnSync("npm", ["view", "@medusajs/medusa", "versions", "--json"], {
    encoding: "utf8",
    timeout: 60_000,
    env: npmEnv(),
    cwd: os.tmpdir(),
    maxBuffer: 64 * 1024 * 1024,
  })
  if (r.status === 0) {
    const published: string[] = JSON.parse(r.stdout)
    const missing = MEDUSA_VERSIONS.filter((v) => !published.includes(v))
    if (!missing.length) return null
    throw new Error(`@medusajs/medusa ${missing.join(", ")} is not published (MCS_INSTALL_MEDUSA_VERSIONS)`)
  }
  return `${r.error?.message ?? ""}${r.stderr ?? ""}`.trim().split("\n").slice(-3).join(" ") || `exit ${r.status}`
}

const unreachable = registryProblem()
if (unreachable) {
  console.warn(`[install] SKIPPED: the npm registry cannot be reached (${unreachable}); the pack-and-install test needs it`)
}
const describeIfRegistry = unreachable ? describe.skip : describe

/** The plugin entry of the README's install section, exactly as printed there. */
function readmePluginSnippet(readme: string): string {
  const section = readme.split(/^## Install into an existing Medusa app$/m)[1]?.split(/^## /m)[0]
  if (!section) throw new Error("README has no section '## Install into an existing Medusa app'")
  const block = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('resolve: "medusa-catalog-sync"'))
  if (!block) throw new Error("README's install section has no ts block registering medusa-catalog-sync")
  const lines = block.split("\n").map((l) => l.replace(/^ {3}/, ""))
  const start = lines.findIndex((l) => /^\s*plugins:\s*\[/.test(l))
  if (start < 0) throw new Error("README's install snippet has no `plugins: [`")
  return lines.slice(start).join("\n").trim()
}

function step(what: string) {
  const started = Date.now()
  console.log(`[install] ${what}...`)
  return () => console.log(`[install] ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

/** Runs a command to its end; its stdout, or an error with the end of its output. */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 15 * 60_000): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 })
  if (r.status !== 0) {
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status}${r.error ? `, ${r.error.message}` : ""}):\n${out.slice(-6000)}`)
  }
  return r.stdout ?? ""
}

/** Like run, without blocking this process (for commands that talk to the in-process sandbox). */
function runAsync(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("error", reject)
    child.on("exit", (code) => {
      clearTimeout(timer)
      if (code === 0) resolve(stdout)
      else reject(new Error(`${cmd} ${args.join(" ")} failed (exit ${code}):\n${(stdout + stderr).slice(-4000)}`))
    })
  })
}

/** The plugin's keys of this test's app (its own prefix) on the shared Redis. */
async function dropRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    await deleteKeysMatching(redis, `${prefix}:*`)
  } finally {
    redis.disconnect()
  }
}

async function readCatalog(baseUrl: string, apiKey: string): Promise<ProductCard[]> {
  const client = new CatalogClient({
    baseUrl,
    apiKey,
    pricing: README_PRICING as never,
    limitCeiling: { requestsPerMinute: 100_000_000, maxConcurrent: 1000 },
  })
  const cards: ProductCard[] = []
  try {
    for await (const page of client.listProducts({ limit: 200 } as never)) cards.push(...(page as { items: ProductCard[] }).items)
  } finally {
    await client.close()
  }
  return cards
}

describeIfRegistry("install: npm pack → a fresh Medusa app → storefront", () => {
  let work: string
  let tarball: string
  let packedFiles: string[] = []
  const timings: Record<string, number> = {}
  const suiteStarted = Date.now()

  const timed = async <T>(name: string, fn: () => Promise<T> | T): Promise<T> => {
    const done = step(name)
    const started = Date.now()
    try {
      return await fn()
    } finally {
      timings[name] = Math.round((Date.now() - started) / 100) / 10
      done()
    }
  }

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "mcs-install-"))
  })

  afterAll(() => {
    if (!KEEP && work) fs.rmSync(work, { recursive: true, force: true })
    console.log(`[install] step timings (s): ${JSON.stringify(timings)}; total ${((Date.now() - suiteStarted) / 1000).toFixed(0)} s`)
  })

  it("npm pack builds the plugin and ships the build, types, the CLI, README and LICENSE only", async () => {
    // prepack builds the plugin (npm test has just built it and sets MCS_PACK_CURRENT_BUILD=1: then a
    // current build is packed as it is; scripts/prepack.sh).
    const out = await timed("npm pack (prepack builds the plugin)", () => run("npm", ["pack", "--json", "--pack-destination", work], REPO_ROOT, npmEnv()))
    // stdout also carries the prepack build's lines; the JSON is the array at the end.
    const info = JSON.parse(out.slice(out.search(/^\[\s*\{/m)))[0]
    tarball = path.join(work, info.filename)
    expect(fs.existsSync(tarball)).toBe(true)
    packedFiles = info.files.map((f: { path: string }) => f.path)
    for (const f of [
      "package.json",
      "README.md",
      "LICENSE",
      ".medusa/server/src/modules/catalog_sync/index.js",
      ".medusa/server/src/modules/catalog_sync/index.d.ts",
      // The runtime module (queue, worker): registered with the plugin like catalog_sync.
      ".medusa/server/src/modules/catalog_sync_runtime/index.js",
      ".medusa/server/src/workflows/index.js",
      ".medusa/server/src/workflows/index.d.ts",
      ".medusa/server/src/catalog-client/index.d.ts",
      ".medusa/server/src/catalog-client/cli.js",
      ".medusa/server/src/admin/index.mjs",
      ".medusa/server/src/api/admin/catalog-sync/settings/route.js",
    ]) {
      expect(packedFiles).toContain(f)
    }
    expect(packedFiles.some((f) => f.includes("migrations/") && f.endsWith(".js"))).toBe(true)
    // Nothing of this checkout's own: the test build's stamp, or a dev build's options naming the
    // repository's src/ (an app would load the admin from there, not from the tarball).
    expect(packedFiles).not.toContain(".medusa/server/.built-from-src")
    expect(packedFiles).not.toContain(".medusa/server/medusa-plugin-options.json")
    // Nothing from the repo beyond the build: no sources, tests, demo, sandbox or bench.
    expect(packedFiles.filter((f) => !/^(package\.json|README\.md|LICENSE|\.medusa\/server\/)/.test(f))).toEqual([])
    expect(packedFiles.filter((f) => /__tests__|\.spec\./.test(f))).toEqual([])
    expect(fs.readFileSync(path.join(REPO_ROOT, ".medusa/server/src/catalog-client/cli.js"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true)
  })

  describe.each(MEDUSA_VERSIONS)("on Medusa %s", (MEDUSA_VERSION) => {
    const tag = randomUUID().slice(0, 8)
    const dbName = `mcs_install_${tag}`
    const apiKey = `install-${randomUUID()}`
    let appDir: string
    let sandbox: Sandbox
    let app: ChildProcess | null = null
    let appLogs = ""
    let appUrl = ""
    let token = ""
    let publishableKey = ""
    let cards: ProductCard[] = []
    const vtimed = <T>(name: string, fn: () => Promise<T> | T) => timed(`${MEDUSA_VERSION} ${name}`, fn)

    const admin = async (p: string, body?: unknown) => {
      const res = await fetch(appUrl + p, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      return { status: res.status, body: text ? JSON.parse(text) : null }
    }
    const store = async (p: string) => {
      const res = await fetch(appUrl + p, { headers: { "x-publishable-api-key": publishableKey } })
      const text = await res.text()
      return { status: res.status, body: text ? JSON.parse(text) : null }
    }

    beforeAll(async () => {
      appDir = path.join(work, `shop-${MEDUSA_VERSION}`)
      fs.mkdirSync(appDir)
      sandbox = await startSandbox({ products: PRODUCTS, seed: 21, apiKey, rpm: 6000, port: 0, controlPort: 0 })
      cards = await readCatalog(sandbox.baseUrl, apiKey)
    })

    afterAll(async () => {
      if (app && app.exitCode === null) {
        const exited = new Promise((r) => app!.once("exit", r))
        app.kill("SIGTERM")
        const timer = setTimeout(() => app?.kill("SIGKILL"), 30_000)
        await exited
        clearTimeout(timer)
      }
      if (appLogs) {
        fs.mkdirSync(path.join(ARTIFACTS_DIR, "logs"), { recursive: true })
        fs.writeFileSync(path.join(ARTIFACTS_DIR, "logs", `install-app-${MEDUSA_VERSION}.log`), appLogs)
      }
      await sandbox?.close()
      if (!KEEP) {
        await dropDatabase(dbName).catch(() => undefined)
        await dropRedisKeys(`mcs-install-${tag}`).catch(() => undefined)
        // The app's node_modules go now, not at the end: each version's install is large.
        if (appDir) fs.rmSync(appDir, { recursive: true, force: true })
      } else console.log(`[install] kept ${appDir} and database ${dbName}`)
    })

    it("installs into a fresh Medusa app: no test tools pulled in, every export resolves with types, the CLI runs", async () => {
      expect(tarball).toBeDefined()
      fs.writeFileSync(
        path.join(appDir, "package.json"),
        JSON.stringify(
          {
            name: "fresh-shop",
            version: "0.0.1",
            private: true,
            scripts: { build: "medusa build", start: "medusa start", dev: "medusa develop" },
            dependencies: {
              "@medusajs/admin-sdk": MEDUSA_VERSION,
              "@medusajs/cli": MEDUSA_VERSION,
              "@medusajs/framework": MEDUSA_VERSION,
              "@medusajs/medusa": MEDUSA_VERSION,
            },
            devDependencies: {
              "@swc/core": "^1.7.28",
              "@types/node": "^20.12.11",
              "ts-node": "^10.9.2",
              typescript: "^5.6.2",
            },
            engines: { node: ">=20" },
          },
          null,
          2
        )
      )
      fs.writeFileSync(
        path.join(appDir, "tsconfig.json"),
        JSON.stringify(
          {
            compilerOptions: {
              target: "ES2021",
              esModuleInterop: true,
              module: "Node16",
              moduleResolution: "Node16",
              emitDecoratorMetadata: true,
              experimentalDecorators: true,
              skipLibCheck: true,
              declaration: false,
              sourceMap: false,
              inlineSourceMap: true,
              outDir: "./.medusa/server",
              rootDir: "./",
              jsx: "react-jsx",
              resolveJsonModule: true,
              checkJs: false,
              strictNullChecks: true,
            },
            "ts-node": { swc: true },
            include: ["**/*", ".medusa/types/*"],
            exclude: ["node_modules", ".medusa/server", ".medusa/admin", ".cache"],
          },
          null,
          2
        )
      )
      // Step 1 of the README: install the package (the tarball stands in for the registry).
      await vtimed("npm install (Medusa + the packed plugin)", () =>
        run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], appDir, npmEnv(), 20 * 60_000)
      )
      const pkg = JSON.parse(fs.readFileSync(path.join(appDir, "package.json"), "utf8"))
      expect(pkg.dependencies["medusa-catalog-sync"]).toBeDefined()
      // Test tools are not peers: a production install does not get them.
      expect(fs.existsSync(path.join(appDir, "node_modules/@medusajs/test-utils"))).toBe(false)
      expect(fs.existsSync(path.join(appDir, "node_modules/jest"))).toBe(false)
      const installed = JSON.parse(fs.readFileSync(path.join(appDir, "node_modules/medusa-catalog-sync/package.json"), "utf8"))
      for (const [name, range] of Object.entries(installed.peerDependencies as Record<string, string>)) {
        expect(name).not.toMatch(/test-utils/)
        expect(range).not.toMatch(/^\d+\.\d+\.\d+$/) // a range, not one pinned version
      }

      // Every export resolves (a wildcard through one real file) and loads; those with code have types.
      const probe = `
        const fs = require("fs"), out = {}
        const subpaths = ["package.json", "workflows", "modules/catalog_sync", ".medusa/server/src/modules/catalog_sync", "catalog-client", "admin", "sync/settings"]
        for (const s of subpaths) {
          const file = require.resolve("medusa-catalog-sync/" + s)
          out[s] = { file, types: fs.existsSync(file.replace(/\\.js$/, ".d.ts")) }
        }
        out.workflowExports = Object.keys(require("medusa-catalog-sync/workflows")).sort()
        out.moduleService = typeof require("medusa-catalog-sync/modules/catalog_sync").default?.service
        out.client = typeof require("medusa-catalog-sync/catalog-client").CatalogClient
        console.log(JSON.stringify(out))
      `
      const resolved = JSON.parse(
        run(process.execPath, ["-e", probe], appDir, { ...npmEnv(), NODE_ENV: "development" })
          .trim()
          .split("\n")
          .pop()!
      )
      for (const s of ["workflows", "modules/catalog_sync", ".medusa/server/src/modules/catalog_sync", "catalog-client", "sync/settings"]) {
        expect(resolved[s].file).toContain(path.join("node_modules", "medusa-catalog-sync", ".medusa", "server"))
        expect(resolved[s].types).toBe(true)
      }
      expect(resolved.admin.file).toMatch(/admin[\\/]index\.js$/)
      expect(resolved.workflowExports).toEqual(
        expect.arrayContaining(["createProductsThroughCoreFlowsWorkflow", "updateProductsThroughCoreFlowsWorkflow", "setCatalogStockWorkflow"])
      )
      expect(resolved.moduleService).toBe("function")
      expect(resolved.client).toBe("function")

      // The types of the exports compile in the app (Node16 resolution, through "exports").
      fs.writeFileSync(
        path.join(appDir, "uses-plugin-types.ts"),
        [
          'import { createProductsThroughCoreFlowsWorkflow } from "medusa-catalog-sync/workflows"',
          'import { CatalogClient } from "medusa-catalog-sync/catalog-client"',
          'import type { CatalogSyncPluginOptions } from "medusa-catalog-sync/sync/settings"',
          'const options: CatalogSyncPluginOptions = { baseUrl: "https://catalog.example.com", pollIntervalMinutes: 10 }',
          "export const used = [createProductsThroughCoreFlowsWorkflow, CatalogClient, options]",
          "",
        ].join("\n")
      )
      await vtimed("tsc on a file using the plugin's types", () =>
        run(
          path.join(appDir, "node_modules/.bin/tsc"),
          ["--noEmit", "--strict", "--skipLibCheck", "--module", "node16", "--moduleResolution", "node16", "--target", "es2021", "uses-plugin-types.ts"],
          appDir,
          npmEnv()
        )
      )
      fs.rmSync(path.join(appDir, "uses-plugin-types.ts"))

      // The support CLI is a bin of the package (run asynchronously: the sandbox lives in this process).
      const me = await runAsync(path.join(appDir, "node_modules/.bin/medusa-catalog-sync"), ["me", "--base-url", sandbox.baseUrl], appDir, {
        ...npmEnv(),
        CATALOG_API_KEY: apiKey,
      })
      expect(JSON.parse(me)).toMatchObject({ limits: expect.any(Object) })
      expect(me).not.toContain(apiKey)
    })

    it("registered as the README says, it migrates and starts; saving the key starts the first full sync at once", async () => {
      expect(fs.existsSync(path.join(appDir, "node_modules/medusa-catalog-sync"))).toBe(true)
      // Step 2: the README's snippet, verbatim, in a minimal config.
      const snippet = readmePluginSnippet(fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8"))
      fs.writeFileSync(
        path.join(appDir, "medusa-config.ts"),
        [
          'import { defineConfig, loadEnv } from "@medusajs/framework/utils"',
          "",
          'loadEnv(process.env.NODE_ENV || "development", process.cwd())',
          "",
          "module.exports = defineConfig({",
          "  projectConfig: {",
          "    databaseUrl: process.env.DATABASE_URL,",
          "    redisUrl: process.env.REDIS_URL,",
          "    http: {",
          "      storeCors: process.env.STORE_CORS!,",
          "      adminCors: process.env.ADMIN_CORS!,",
          "      authCors: process.env.AUTH_CORS!,",
          '      jwtSecret: process.env.JWT_SECRET || "supersecret",',
          '      cookieSecret: process.env.COOKIE_SECRET || "supersecret",',
          "    },",
          "  },",
          "  // This test runs the app without its admin UI (time and memory); the admin API is there.",
          "  admin: { disable: true },",
          snippet.replace(/^/gm, "  ") + (snippet.endsWith(",") ? "" : ","),
          "})",
          "",
        ].join("\n")
      )
      // Step 3: the app's .env (the encryption secret is the plugin's; the rest any Medusa app has).
      const port = await freePort()
      appUrl = `http://localhost:${port}`
      fs.writeFileSync(
        path.join(appDir, ".env"),
        [
          `DATABASE_URL=${databaseUrl(dbName)}`,
          `REDIS_URL=${REDIS_URL}`,
          `STORE_CORS=http://localhost:8000`,
          `ADMIN_CORS=http://localhost:9000`,
          `AUTH_CORS=http://localhost:9000`,
          `JWT_SECRET=${randomUUID()}`,
          `COOKIE_SECRET=${randomUUID()}`,
          // The README's `openssl rand -base64 48`.
          `CATALOG_SYNC_ENCRYPTION_KEY=${randomBytes(48).toString("base64")}`,
          // The README's step 3 for a catalog on the shop's own network: the sandbox is on loopback.
          "CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS=true",
          // Only so this test never meets another app's queue on a shared Redis.
          `CATALOG_SYNC_REDIS_PREFIX=mcs-install-${tag}`,
          "",
        ].join("\n")
      )
      const appEnv: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "development",
        MEDUSA_DISABLE_TELEMETRY: "true",
        DO_NOT_TRACK: "1",
        PORT: String(port),
      }
      const medusa = path.join(appDir, "node_modules/.bin/medusa")
      await createDatabase(dbName)
      // Step 4.
      await vtimed("medusa db:migrate", () => run(medusa, ["db:migrate"], appDir, appEnv))
      // Step 5.
      await vtimed("medusa user", () => run(medusa, ["user", "-e", ADMIN_EMAIL, "-p", ADMIN_PASSWORD], appDir, appEnv))
      await vtimed("medusa start (until /health answers)", async () => {
        app = spawn(medusa, ["start"], { cwd: appDir, env: appEnv, stdio: ["ignore", "pipe", "pipe"] })
        app.stdout!.on("data", (d) => (appLogs += d))
        app.stderr!.on("data", (d) => (appLogs += d))
        const started = Date.now()
        for (;;) {
          if (app.exitCode !== null) throw new Error(`medusa start exited (${app.exitCode}):\n${appLogs.slice(-6000)}`)
          if (Date.now() - started > 300_000) throw new Error(`no /health in 300 s:\n${appLogs.slice(-6000)}`)
          const ok = await fetch(`${appUrl}/health`).then(
            (r) => r.ok,
            () => false
          )
          if (ok) break
          await new Promise((r) => setTimeout(r, 500))
        }
      })
      const login = await fetch(`${appUrl}/auth/user/emailpass`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
      })
      token = ((await login.json()) as { token: string }).token
      expect(token).toBeTruthy()

      // Step 6: the settings page's save. The options already hold the pricing, so nothing
      // about pricing changes: the first sync starts anyway, because the shop never synced.
      const saved = await admin("/admin/catalog-sync/settings", { base_url: sandbox.baseUrl, api_key: apiKey })
      expect(saved.status).toBe(200)
      // The options' markup and discount are the shop's pricing rules (the catalog is asked for costs only).
      expect(saved.body.settings).toMatchObject({
        base_url: sandbox.baseUrl,
        api_key_set: true,
        price_calculation: "max",
        pricing_rules: { base_markup_percent: "30", crossed_out: { type: "discount", discount_percent: "20" } },
      })
      expect(saved.body.settings).not.toHaveProperty("markup_percent")
      expect(saved.body.run).toMatchObject({ mode: "full" })
      const run_ = await vtimed("first full sync", async () => {
        const started = Date.now()
        for (;;) {
          const res = await admin(`/admin/catalog-sync/runs/${saved.body.run.id}`)
          const r = res.body?.run
          if (r && ["succeeded", "failed", "interrupted"].includes(r.status)) return r
          if (Date.now() - started > 600_000) throw new Error(`the first sync did not end in 600 s: ${JSON.stringify(r)}`)
          await new Promise((res) => setTimeout(res, 1000))
        }
      })
      expect({ status: run_.status, error: run_.error_message }).toEqual({ status: "succeeded", error: null })
    })

    it("the store API, with the app's default publishable key, shows the products", async () => {
      expect(token).toBeTruthy()
      const keys = await admin("/admin/api-keys?type=publishable&limit=20")
      expect(keys.status).toBe(200)
      const key = keys.body.api_keys.find((k: any) => !k.revoked_at)
      expect(key).toBeDefined()
      publishableKey = key.token
      const synced = await admin("/admin/products?limit=1&fields=id")
      expect(synced.body.count).toBeGreaterThan(0)
      const listed = await store("/store/products?limit=1&fields=id")
      expect(listed.status).toBe(200)
      expect(listed.body.count).toBe(synced.body.count)
    })

    it("prices in UAH with crossed-out prices and Ukrainian titles, in the app's UAH region", async () => {
      expect(publishableKey).toBeTruthy()
      const regions = await store("/store/regions?limit=50")
      expect(regions.status).toBe(200)
      const uah = regions.body.regions.find((r: any) => r.currency_code === "uah")
      expect(uah).toBeDefined()
      const fields = encodeURIComponent("id,title,external_id,*variants,*variants.calculated_price")
      const res = await store(`/store/products?region_id=${uah.id}&limit=200&fields=${fields}`)
      expect(res.status).toBe(200)
      const products: any[] = res.body.products
      expect(products.length).toBeGreaterThan(0)
      const byId = new Map(cards.map((c) => [String(c.id), c]))
      let crossedOut = 0
      for (const p of products) {
        const card = byId.get(String(p.external_id))
        expect(card).toBeDefined()
        expect(p.title).toBe(card!.name_uk || card!.name_ru || card!.name)
        for (const v of p.variants) {
          const cp = v.calculated_price
          expect(cp).toBeTruthy()
          expect(cp.currency_code).toBe("uah")
          expect(new Decimal(cp.calculated_amount).gt(0)).toBe(true)
          if (cp.original_amount !== null && new Decimal(cp.original_amount).gt(cp.calculated_amount)) {
            crossedOut++
            expect(cp.calculated_price.price_list_type).toBe("sale")
            const size = v.metadata?.catalog_size ?? null
            const entry: any = size === null ? card : card!.sizes.find((s) => s.size.trim() === size)
            expect(entry).toBeDefined()
            expect(new Decimal(cp.calculated_amount).equals(new Decimal(entry.price))).toBe(true)
            expect(new Decimal(cp.original_amount).equals(new Decimal(entry.old_price))).toBe(true)
          }
        }
      }
      expect(products.some((p) => /[іїєґІЇЄҐ]/.test(p.title))).toBe(true)
      expect(crossedOut).toBeGreaterThan(0)
    })
  })
})
