// npm run demo: the whole thing on one machine. Checks PostgreSQL and Redis, starts the catalog
// sandbox, prepares a database and an admin user, starts the demo Medusa app with its admin on
// port 9000, configures the plugin through the admin API (30% markup), runs the first full sync
// while printing its progress, and prints where to log in. Ctrl-C stops everything.
//
// Environment (all optional):
//   DEMO_PRODUCTS=2000        catalog size            DEMO_DATABASE=medusa_catalog_sync_demo
//   DEMO_PORT=9000            app port                DEMO_SANDBOX_PORT=4010 (control: +1)
//   DEMO_SERVER=develop|start `medusa develop` (default) or `medusa build` then `medusa start`
//   DEMO_REBUILD=1            rebuild the plugin even when .medusa/server exists
//   REDIS_URL, DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import Redis from "ioredis"
import { Client } from "pg"
import { startSandbox, type Sandbox } from "../sandbox/server"

const ROOT = path.resolve(__dirname, "..")
const DEMO_DIR = path.join(ROOT, "demo")
const MEDUSA_BIN = path.join(ROOT, "node_modules", ".bin", "medusa")

const PRODUCTS = Number(process.env.DEMO_PRODUCTS || 2000)
const PORT = Number(process.env.DEMO_PORT || 9000)
const SANDBOX_PORT = Number(process.env.DEMO_SANDBOX_PORT || 4010)
const DATABASE = process.env.DEMO_DATABASE || "medusa_catalog_sync_demo"
const SERVER_MODE = process.env.DEMO_SERVER === "start" ? "start" : "develop"
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379"
const PG = {
  host: process.env.DB_HOST || "localhost",
  port: Number(process.env.DB_PORT || 5432),
  user: process.env.DB_USERNAME || "postgres",
  password: process.env.DB_PASSWORD || "",
}
const ADMIN_EMAIL = "admin@example.com"
const ADMIN_PASSWORD = "supersecret"
const API_KEY = "demo-sandbox-key-0001"

const auth = PG.password ? `${PG.user}:${encodeURIComponent(PG.password)}` : PG.user
const DATABASE_URL = `postgres://${auth}@${PG.host}:${PG.port}/${DATABASE}`
const APP_URL = `http://localhost:${PORT}`

const log = (message: string) => console.log(`[demo] ${message}`)
let sandbox: Sandbox | null = null
let app: ChildProcess | null = null
let stopping = false

async function main() {
  process.on("SIGINT", () => void stop(0))
  process.on("SIGTERM", () => void stop(0))

  await checkPostgres()
  await checkRedis()

  sandbox = await startSandbox({
    products: PRODUCTS,
    seed: 1,
    apiKey: API_KEY,
    port: SANDBOX_PORT,
    controlPort: SANDBOX_PORT + 1,
  })
  log(`catalog sandbox: ${sandbox.baseUrl} (control API ${sandbox.controlUrl}), ${PRODUCTS} products`)

  buildPlugin()
  await ensureDatabase()
  medusa(["db:migrate"], "migrating the database")
  ensureAdminUser()

  const env = appEnv()
  if (SERVER_MODE === "start") medusa(["build"], "building the app and its admin (medusa build)")
  const started = Date.now()
  const cwd = SERVER_MODE === "start" ? path.join(DEMO_DIR, ".medusa", "server") : DEMO_DIR
  if (SERVER_MODE === "start") ensureBuiltAppDeps(cwd)
  app = spawn(MEDUSA_BIN, [SERVER_MODE], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  const appLog = fs.createWriteStream(path.join(ROOT, "demo-app.log"))
  app.stdout!.pipe(appLog)
  app.stderr!.pipe(appLog)
  app.on("exit", (code) => {
    if (!stopping) {
      log(`the Medusa app exited (${code}); see demo-app.log`)
      void stop(1)
    }
  })
  log(`starting the Medusa app (medusa ${SERVER_MODE}) on ${APP_URL}; its output goes to demo-app.log`)
  await waitForHealth()
  log(`app ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)

  const token = await login()
  const admin = adminFetch(token)
  log("configuring the plugin through the admin API: sandbox address, key, 30% markup")
  const saved = await admin("POST", "/admin/catalog-sync/settings", {
    base_url: sandbox.baseUrl,
    api_key: API_KEY,
    markup_percent: "30",
    price_calculation: "max",
  })
  if (saved.status !== 200) throw new Error(`settings refused: ${saved.status} ${JSON.stringify(saved.body)}`)
  // A pricing change queues a full resync; on an already configured database ask for one.
  let run = saved.body.run
  if (!run) {
    const started = await admin("POST", "/admin/catalog-sync/runs", { mode: "full" })
    run = started.body.run
  }
  log(`first full sync: run ${run.id}`)
  await followRun(admin, run.id)

  log("")
  log(`Admin: ${APP_URL}/app   (login ${ADMIN_EMAIL} / ${ADMIN_PASSWORD})`)
  log(`Catalog sync settings: ${APP_URL}/app/settings/catalog-sync`)
  log(`Sandbox control (change products, revoke the key): ${sandbox.controlUrl}`)
  log(`  e.g. curl -X POST ${sandbox.controlUrl}/mutate -d '{"count":50}'   then "Sync now" in the admin`)
  log("Press Ctrl-C to stop everything.")
}

async function checkPostgres() {
  const client = new Client({ ...PG, password: PG.password || undefined, database: "postgres", connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query("select 1")
  } catch (e: any) {
    fail(
      `PostgreSQL is not reachable at ${PG.host}:${PG.port} as ${PG.user} (${e?.message ?? e}).\n` +
        "  Start it, for example:  sudo service postgresql start\n" +
        "  or with Docker:         docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16\n" +
        "  (set DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD for another server)"
    )
  } finally {
    await client.end().catch(() => undefined)
  }
}

async function checkRedis() {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 3000 })
  redis.on("error", () => undefined)
  try {
    await redis.connect()
    await redis.ping()
  } catch (e: any) {
    fail(
      `Redis is not reachable at ${REDIS_URL} (${e?.message ?? e}).\n` +
        "  Start it, for example:  redis-server --daemonize yes\n" +
        "  or:                     sudo service redis-server start\n" +
        "  or with Docker:         docker run -d -p 6379:6379 redis:7\n" +
        "  (set REDIS_URL for another server)"
    )
  } finally {
    redis.disconnect()
  }
}

function buildPlugin() {
  const built = fs.existsSync(path.join(ROOT, ".medusa", "server", "src", "modules", "catalog_sync", "index.js"))
  if (built && process.env.DEMO_REBUILD !== "1") {
    log("plugin already built (.medusa/server); DEMO_REBUILD=1 rebuilds it")
    return
  }
  run(MEDUSA_BIN, ["plugin:build"], ROOT, process.env, "building the plugin (medusa plugin:build)")
}

async function ensureDatabase() {
  const client = new Client({ ...PG, password: PG.password || undefined, database: "postgres" })
  await client.connect()
  try {
    const exists = await client.query("select 1 from pg_database where datname = $1", [DATABASE])
    if (!exists.rowCount) {
      await client.query(`create database "${DATABASE}"`)
      log(`created database ${DATABASE}`)
    } else log(`using database ${DATABASE}`)
  } finally {
    await client.end()
  }
}

function ensureAdminUser() {
  const result = spawnSync(MEDUSA_BIN, ["user", "-e", ADMIN_EMAIL, "-p", ADMIN_PASSWORD], {
    cwd: DEMO_DIR,
    env: appEnv(),
    encoding: "utf8",
  })
  const out = `${result.stdout}${result.stderr}`
  if (result.status === 0) log(`admin user ${ADMIN_EMAIL} created`)
  else if (/already exists/i.test(out)) log(`admin user ${ADMIN_EMAIL} exists`)
  else throw new Error(`medusa user failed:\n${out.slice(-2000)}`)
}

function appEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL,
    REDIS_URL,
    PORT: String(PORT),
    NODE_ENV: process.env.NODE_ENV || "development",
    MEDUSA_DISABLE_TELEMETRY: "true",
    DISABLE_ADMIN: "false",
    // Its own Redis key space, so the demo never meets another app's queue on the same Redis.
    CATALOG_SYNC_REDIS_PREFIX: process.env.CATALOG_SYNC_REDIS_PREFIX || "mcs-demo",
    // The plugin is configured through the admin API below, not from the environment.
    CATALOG_BASE_URL: "",
    CATALOG_API_KEY: "",
  }
}

/** `medusa build` puts the app in demo/.medusa/server; it needs the app's node_modules there. */
function ensureBuiltAppDeps(builtDir: string) {
  const link = path.join(builtDir, "node_modules")
  if (!fs.existsSync(link)) fs.symlinkSync(path.join(ROOT, "node_modules"), link, "dir")
}

function medusa(args: string[], what: string) {
  run(MEDUSA_BIN, args, DEMO_DIR, appEnv(), what)
}

function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, what: string) {
  log(`${what}...`)
  const started = Date.now()
  const result = spawnSync(bin, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status}):\n${`${result.stdout}${result.stderr}`.slice(-4000)}`)
  }
  log(`${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

async function waitForHealth(timeoutMs = 300_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if (stopping) throw new Error("stopped")
    try {
      const res = await fetch(`${APP_URL}/health`)
      if (res.ok) return
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`the app did not answer ${APP_URL}/health in ${timeoutMs / 1000} s (see demo-app.log)`)
}

async function login(): Promise<string> {
  const res = await fetch(`${APP_URL}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  const body: any = await res.json()
  if (!res.ok || !body.token) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(body)}`)
  return body.token
}

type Admin = (method: string, p: string, body?: unknown) => Promise<{ status: number; body: any }>

function adminFetch(token: string): Admin {
  return async (method, p, body) => {
    const res = await fetch(APP_URL + p, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
}

async function followRun(admin: Admin, runId: string) {
  const started = Date.now()
  let last = ""
  for (;;) {
    const { body } = await admin("GET", `/admin/catalog-sync/runs/${runId}`)
    const r = body.run
    const line =
      `${r.status.padEnd(11)} phase ${String(r.progress?.phase ?? "-").padEnd(11)} pages ${r.pages}  seen ${r.items_seen}/${PRODUCTS}` +
      `  created ${r.created}  updated ${r.updated}  unchanged ${r.unchanged}  skipped ${r.skipped}  requests ${r.requests_used}`
    if (line !== last) log(line)
    last = line
    if (["succeeded", "failed", "interrupted"].includes(r.status)) {
      const seconds = (Date.now() - started) / 1000
      if (r.status !== "succeeded") log(`the run ended ${r.status}: ${r.error_code} ${r.error_message}`)
      else log(`first sync done in ${seconds.toFixed(1)} s (${(r.items_seen / seconds).toFixed(0)} products/s)`)
      if (r.rejected_count) log(`${r.rejected_count} catalog items were rejected (see the run in the admin)`)
      return
    }
    await new Promise((res) => setTimeout(res, 1000))
  }
}

function fail(message: string): never {
  console.error(`[demo] ${message}`)
  process.exit(1)
}

async function stop(code: number) {
  if (stopping) return
  stopping = true
  log("stopping...")
  if (app && app.exitCode === null && app.pid) {
    const exited = new Promise((r) => app!.once("exit", r))
    try {
      process.kill(-app.pid, "SIGTERM") // the app's process group (develop forks a child)
    } catch {
      app.kill("SIGTERM")
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-app!.pid!, "SIGKILL")
      } catch {
        // already gone
      }
    }, 20_000)
    await exited
    clearTimeout(timer)
  }
  await sandbox?.close().catch(() => undefined)
  process.exit(code)
}

main().catch((e) => {
  console.error(`[demo] ${e?.message ?? e}`)
  void stop(1)
})
