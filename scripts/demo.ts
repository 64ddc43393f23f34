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
//   DEMO_RETRY_GRACE_MS=150000 how long a sync run that ended interrupted/failed is watched for its retry
//   DEMO_FOLLOW_URL           where the first sync's follower polls the app (default the app itself; a
//                             proxy in front of it, such as a test's fault-injecting forwarder)
//   REDIS_URL, DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD
import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import Redis from "ioredis"
import { Client } from "pg"
import { startSandbox, type Sandbox } from "../sandbox/server"
import { elapsed, followRun as followSync, lastLine, retryingGet } from "./demo-progress"
import { killGroupsNow, stopGroup } from "./process-group"

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
const FOLLOW_URL = process.env.DEMO_FOLLOW_URL || APP_URL

let transientLine = false // a progress line a terminal rewrites in place is on screen
const log = (message: string) => {
  if (transientLine) process.stdout.write("\n")
  transientLine = false
  console.log(`[demo] ${message}`)
}
let sandbox: Sandbox | null = null
let app: ChildProcess | null = null
let stopping = false
/** Every child process group started (the app, migrations, builds): stopped on every exit path. */
const children = new Set<ChildProcess>()

async function main() {
  process.on("SIGINT", () => void stop(0))
  process.on("SIGTERM", () => void stop(0))
  process.on("SIGHUP", () => void stop(0))
  process.on("uncaughtException", (e) => {
    console.error(`[demo] ${e?.message ?? e}`)
    void stop(1)
  })
  // Last resort, synchronous: whatever way this process ends, no child group outlives it.
  process.on("exit", () => killGroupsNow([...children].map((c) => c.pid!).filter(Boolean)))
  // The launcher (tsx, under npm) gone without passing a signal on: the demo is an orphan; it stops.
  const launcher = process.ppid
  setInterval(() => {
    if (process.ppid !== launcher) {
      log(`the process that started the demo (${launcher}) is gone`)
      void stop(1)
    }
  }, 1000).unref()

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

  await buildPlugin()
  await ensureDatabase()
  await medusa(["db:migrate"], "migrating the database")
  await ensureAdminUser()

  const env = appEnv()
  if (SERVER_MODE === "start") await medusa(["build"], "building the app and its admin (medusa build)")
  const started = Date.now()
  const cwd = SERVER_MODE === "start" ? path.join(DEMO_DIR, ".medusa", "server") : DEMO_DIR
  if (SERVER_MODE === "start") ensureBuiltAppDeps(cwd)
  app = spawn(MEDUSA_BIN, [SERVER_MODE], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  children.add(app)
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
  const outcome = await followRun(adminFetch(token, FOLLOW_URL), run.id)

  log("")
  log(`Admin: ${APP_URL}/app   (login ${ADMIN_EMAIL} / ${ADMIN_PASSWORD})`)
  log(`Catalog sync settings: ${APP_URL}/app/settings/catalog-sync`)
  log(`Sandbox control (change products, revoke the key): ${sandbox.controlUrl}`)
  log(`  e.g. curl -X POST ${sandbox.controlUrl}/mutate -d '{"count":50}'   then "Sync now" in the admin`)
  log("Press Ctrl-C to stop everything.")
  if (outcome !== "succeeded") log(`Note: the first sync ended ${outcome}; see the run in the admin (Settings → Catalog sync).`)
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

async function buildPlugin() {
  const built = fs.existsSync(path.join(ROOT, ".medusa", "server", "src", "modules", "catalog_sync", "index.js"))
  if (built && process.env.DEMO_REBUILD !== "1") {
    log("plugin already built (.medusa/server); DEMO_REBUILD=1 rebuilds it")
    return
  }
  log("the plugin build takes about 1 to 2 minutes")
  await run(MEDUSA_BIN, ["plugin:build"], ROOT, process.env, "building the plugin (medusa plugin:build)")
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

async function ensureAdminUser() {
  try {
    await run(MEDUSA_BIN, ["user", "-e", ADMIN_EMAIL, "-p", ADMIN_PASSWORD], DEMO_DIR, appEnv(), `creating the admin user ${ADMIN_EMAIL}`)
  } catch (e: any) {
    if (/already exists/i.test(String(e?.message))) log(`admin user ${ADMIN_EMAIL} exists`)
    else throw e
  }
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

function medusa(args: string[], what: string): Promise<void> {
  return run(MEDUSA_BIN, args, DEMO_DIR, appEnv(), what)
}

const TTY = !!process.stdout.isTTY

/** Rewrites the current terminal line (a terminal), or prints a new line (a log file, CI). */
function status(line: string) {
  if (!TTY) return console.log(`[demo] ${line}`)
  process.stdout.write(`\r\x1b[2K[demo] ${line}`)
  transientLine = true
}

/**
 * Runs a command to its end while showing that it is alive: the elapsed time and its latest
 * output line, every second on a terminal, every 10 s otherwise. Its output is kept and shown
 * when it fails.
 */
function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, what: string): Promise<void> {
  log(`${what}...`)
  const started = Date.now()
  let output = ""
  const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  children.add(child)
  child.once("exit", () => children.delete(child))
  child.stdout!.on("data", (d) => (output += d))
  child.stderr!.on("data", (d) => (output += d))
  const stopTicking = ticker(what, () => lastLine(output))
  return new Promise((resolve, reject) => {
    child.on("error", (e) => {
      stopTicking()
      reject(e)
    })
    child.on("exit", (code) => {
      stopTicking()
      if (code !== 0) return reject(new Error(`${what} failed (exit ${code}):\n${output.slice(-4000)}`))
      log(`${what}: done in ${elapsed(Date.now() - started)}`)
      resolve()
    })
  })
}

/** Prints "what: elapsed (detail)" every second on a terminal, every 10 s otherwise, until stopped. */
function ticker(what: string, detail: () => string = () => ""): () => void {
  const started = Date.now()
  const tick = setInterval(
    () => {
      const more = detail()
      status(`  ${what}: ${elapsed(Date.now() - started)}${more ? `  (${more})` : ""}`)
    },
    TTY ? 1000 : 10_000
  )
  return () => {
    clearInterval(tick)
    if (TTY && transientLine) process.stdout.write("\r\x1b[2K")
    transientLine = false
  }
}

async function waitForHealth(timeoutMs = 300_000) {
  const stopTicking = ticker("waiting for the app to answer /health")
  try {
    await pollHealth(timeoutMs)
  } finally {
    stopTicking()
  }
}

async function pollHealth(timeoutMs: number) {
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

function adminFetch(token: string, base = APP_URL): Admin {
  return async (method, p, body) => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    // A 5xx is thrown with its status, so the follower's poll retries it like a reset connection.
    if (res.status >= 500) throw Object.assign(new Error(`${method} ${p}: ${res.status}`), { status: res.status, requestId: null })
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
}

/** How long the app's process group has to stop after SIGTERM before it is killed. */
const STOP_GRACE_MS = Number(process.env.DEMO_STOP_GRACE_MS || 15_000)

/** How long a first-sync run that ended interrupted or failed is watched for going on or a retry. */
const RETRY_GRACE_MS = Number(process.env.DEMO_RETRY_GRACE_MS || 150_000)

function followRun(admin: Admin, runId: string) {
  return followSync(
    {
      get: retryingGet(async (p) => (await admin("GET", p)).body, { log }),
      total: PRODUCTS,
      progress: (line) => status(line),
      log,
      graceMs: RETRY_GRACE_MS,
      progressEveryMs: TTY ? 0 : 5000,
    },
    runId
  )
}

function fail(message: string): never {
  console.error(`[demo] ${message}`)
  process.exit(1)
}

async function stop(code: number) {
  if (stopping) return
  stopping = true
  log("stopping...")
  // Every child's process group (the app forks workers): SIGTERM, then SIGKILL after the grace.
  await Promise.all([...children].map((child) => stopGroup(child, { graceMs: STOP_GRACE_MS })))
  await sandbox?.close().catch(() => undefined)
  process.exit(code)
}

main().catch((e) => {
  console.error(`[demo] ${e?.message ?? e}`)
  void stop(1)
})
