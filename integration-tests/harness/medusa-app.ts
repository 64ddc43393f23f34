import { ChildProcess, spawn } from "node:child_process"
import fs from "node:fs"
import net from "node:net"
import os from "node:os"
import path from "node:path"
import { ARTIFACTS_DIR, DEMO_DIR, MEDUSA_BIN } from "./paths"
import { baseMedusaEnv } from "./medusa-cli"
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./database"
import { followCpu } from "./app-cpu"

export type MedusaApp = {
  url: string
  port: number
  pid: number
  /** Everything the process printed so far (stdout and stderr). */
  logs: () => string
  /** Authenticated admin fetch: JSON in, { status, body } out. */
  admin: AdminFetch
  /** Store API fetch with a publishable key created on demand. */
  store: (path: string, init?: { headers?: Record<string, string> }) => Promise<{ status: number; body: any }>
  /** SIGTERM and wait (graceful shutdown). */
  stop: () => Promise<number | null>
  /** SIGKILL at once (a crash). */
  kill: () => Promise<number | null>
  exited: Promise<number | null>
  /** The `medusa start` process and its admin token (parked-apps.ts hands both to the next spec file). */
  child: ChildProcess
  token: string | null
  /** Ends this holder's CPU line and log without signalling the process (parked for the next spec file). */
  detach: () => void
}

export type AdminFetch = (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) => Promise<{ status: number; body: any }>

/** Ports handed out by freePort in any test process on this machine, one file per port. */
const PORT_CLAIMS_DIR = path.join(os.tmpdir(), "mcs-port-claims")
/** Longer than any app takes to boot and listen on its port, however loaded the machine. */
const PORT_CLAIM_MS = 15 * 60_000

/**
 * A port for a server that will listen on it later (an app still to boot, a redis-server or
 * PostgreSQL still to start). The kernel's free port is free only until someone binds it, and
 * the test processes running side by side (the medusa workers, the browser and install passes)
 * each ask for ports while their apps boot: two of them were once handed the same one, and the
 * second app's spec talked to the first one's. So each port handed out is also claimed, with a
 * file only one process can create, and a port claimed in the last PORT_CLAIM_MS is not handed
 * out again.
 */
export async function freePort(): Promise<number> {
  if (!claimsPruned) pruneOldClaims()
  for (let attempt = 1; ; attempt++) {
    const port = await unboundPort()
    const claim = path.join(PORT_CLAIMS_DIR, String(port))
    try {
      fs.writeFileSync(claim, String(process.pid), { flag: "wx" })
      return port
    } catch (e: any) {
      if (e.code !== "EEXIST") throw e
    }
    // An old claim's server has long been listening (the kernel would not have offered the port)
    // or is gone: the port is free, the claim renewed.
    try {
      if (Date.now() - fs.statSync(claim).mtimeMs > PORT_CLAIM_MS) {
        fs.writeFileSync(claim, String(process.pid))
        return port
      }
    } catch {
      // removed meanwhile: ask again
    }
    if (attempt >= 100) throw new Error(`no unclaimed free port after ${attempt} tries (claims in ${PORT_CLAIMS_DIR})`)
  }
}

let claimsPruned = false

/** Once per process: the claims of ports whose servers have long been listening, or are gone. */
function pruneOldClaims() {
  claimsPruned = true
  fs.mkdirSync(PORT_CLAIMS_DIR, { recursive: true })
  for (const name of fs.readdirSync(PORT_CLAIMS_DIR)) {
    const file = path.join(PORT_CLAIMS_DIR, name)
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > PORT_CLAIM_MS) fs.rmSync(file, { force: true })
    } catch {
      // another process pruned it first
    }
  }
}

function unboundPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.on("error", reject)
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

/**
 * Spawns `medusa start` from demo/ (the demo app loads the built plugin) against the
 * given database, waits for /health and logs in as the admin user of the template.
 */
export async function startMedusaApp(opts: {
  databaseUrl: string
  env?: Record<string, string | undefined>
  workerMode?: "shared" | "worker" | "server"
  port?: number
  label?: string
  bootTimeoutMs?: number
}): Promise<MedusaApp> {
  const port = opts.port ?? (await freePort())
  const env = baseMedusaEnv({
    DATABASE_URL: opts.databaseUrl,
    PORT: String(port),
    MEDUSA_WORKER_MODE: opts.workerMode ?? "shared",
    ...opts.env,
  })
  const child = spawn(MEDUSA_BIN, ["start"], { cwd: DEMO_DIR, env, stdio: "pipe", detached: false })
  const cpu = followCpu(`app ${opts.label ?? "app"}${opts.workerMode && opts.workerMode !== "shared" ? ` (${opts.workerMode})` : ""}`, child.pid)
  const output = followOutput(child, opts.label ?? "app", port)
  const url = `http://localhost:${port}`
  try {
    // MCS_TEST_BOOT_TIMEOUT_MS (or MCS_BOOT_TIMEOUT_MS): a loaded shared machine can take minutes to boot an app.
    const bootTimeoutEnv = Number(process.env.MCS_TEST_BOOT_TIMEOUT_MS || process.env.MCS_BOOT_TIMEOUT_MS) || 120_000
    await waitForHealth(url, child, opts.bootTimeoutMs ?? bootTimeoutEnv, output.logs)
  } catch (e) {
    cpu.ending()
    child.kill("SIGKILL")
    throw e
  }
  cpu.booted()
  // A worker-mode instance serves no API routes (only /health): nothing to log in to.
  const token = opts.workerMode === "worker" ? null : await login(url)
  return appOf(child, port, token, opts.label ?? "app", output, cpu)
}

/**
 * A running app another spec file of this jest worker started (parked-apps.ts): its output from
 * now on goes to this spec's log file and logs(), its CPU from now on to this spec's line.
 */
export function adoptMedusaApp(child: ChildProcess, port: number, token: string | null, label: string): MedusaApp {
  const cpu = followCpu(`reused app ${label}`, child.pid, { fromNow: true })
  return appOf(child, port, token, label, followOutput(child, label, port), cpu)
}

type Output = { logs: () => string; exited: Promise<number | null>; close: () => void }

const EXITED = Symbol.for("medusa-catalog-sync.exited")

/** One promise of the child's exit for every holder of it (a handed-on app has several in turn). */
function exitOf(child: ChildProcess): Promise<number | null> {
  const holder = child as unknown as Record<symbol, Promise<number | null> | undefined>
  return (holder[EXITED] ??=
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve(child.exitCode ?? 128)
      : new Promise<number | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null)))))
}

/** The child's output, kept for logs() and written to artifacts/logs until close() (the next holder's takes over). */
function followOutput(child: ChildProcess, label: string, port: number): Output {
  let buffer = ""
  const logFile = path.join(ARTIFACTS_DIR, "logs", `medusa-${label}-${port}.log`)
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  const sink = fs.createWriteStream(logFile)
  const onData = (d: Buffer) => {
    buffer += d.toString()
    sink.write(d)
  }
  for (const stream of [child.stdout!, child.stderr!]) stream.on("data", onData)
  const exited = exitOf(child)
  let closed = false
  const close = () => {
    if (closed) return
    closed = true
    for (const stream of [child.stdout!, child.stderr!]) stream.off("data", onData)
    sink.end()
  }
  void exited.then(close)
  return { logs: () => buffer, exited, close }
}

function appOf(child: ChildProcess, port: number, token: string | null, label: string, output: Output, cpu: ReturnType<typeof followCpu>): MedusaApp {
  const url = `http://localhost:${port}`
  const admin: AdminFetch = async (p, init = {}) => {
    if (token === null) throw new Error(`${label} runs in worker mode: it serves no admin routes`)
    const res = await fetch(url + p, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? safeJson(text) : null }
  }
  let publishableKey: string | null = null
  const store = async (p: string, init: { headers?: Record<string, string> } = {}) => {
    if (!publishableKey) publishableKey = await ensurePublishableKey(admin)
    const res = await fetch(url + p, {
      headers: { "x-publishable-api-key": publishableKey, ...init.headers },
    })
    const text = await res.text()
    return { status: res.status, body: text ? safeJson(text) : null }
  }
  const signalAndWait = async (sig: NodeJS.Signals) => {
    cpu.ending()
    if (child.exitCode === null && child.signalCode === null) child.kill(sig)
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    const code = await output.exited
    clearTimeout(timer)
    return code
  }
  return {
    url,
    port,
    pid: child.pid!,
    logs: output.logs,
    admin,
    store,
    stop: () => signalAndWait("SIGTERM"),
    kill: () => signalAndWait("SIGKILL"),
    exited: output.exited,
    child,
    token,
    detach: () => {
      cpu.ending()
      output.close()
    },
  }
}

const HEALTH_POLL_MS = 50

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number, logs: () => string) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) {
      throw new Error(`medusa start exited with ${child.exitCode}:\n${logs().slice(-4000)}`)
    }
    try {
      const res = await fetch(`${url}/health`)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    // A refused connection costs next to nothing: poll often, so no boot waits long on the poll.
    await new Promise((r) => setTimeout(r, HEALTH_POLL_MS))
  }
  throw new Error(`medusa start did not answer /health within ${timeoutMs} ms:\n${logs().slice(-4000)}`)
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  const body: any = await res.json()
  if (!res.ok || !body.token) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(body)}`)
  return body.token
}

async function ensurePublishableKey(admin: AdminFetch): Promise<string> {
  const list = await admin("/admin/api-keys?type=publishable&limit=1")
  let key = list.body?.api_keys?.[0]
  if (!key) {
    const created = await admin("/admin/api-keys", { body: { title: "tests", type: "publishable" } })
    key = created.body.api_key
  }
  // The store API only shows products in the key's sales channels: add them all.
  const channels = await admin("/admin/sales-channels?limit=100")
  const ids = (channels.body?.sales_channels ?? []).map((c: any) => c.id)
  if (ids.length) {
    await admin(`/admin/api-keys/${key.id}/sales-channels`, { body: { add: ids } })
  }
  return key.token
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
