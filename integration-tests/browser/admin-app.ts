// The demo app with its admin dashboard, for browser tests. The harness's apps run with
// the admin disabled; here the dashboard (with the plugin's extensions compiled in) is
// built once with `medusa build` in demo/ and served by `medusa start` from the build
// output, demo/.medusa/server, which is where Medusa serves a built admin from.
import { execFileSync, spawn } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { ARTIFACTS_DIR, DEMO_DIR, MEDUSA_BIN, PLUGIN_BUILD_DIR, baseMedusaEnv, freePort } from "../harness"
import { followCpu } from "../harness/app-cpu"

export const DEMO_BUILD_DIR = path.join(DEMO_DIR, ".medusa", "server")
const ADMIN_INDEX = path.join(DEMO_BUILD_DIR, "public", "admin", "index.html")
const PLUGIN_ADMIN = path.join(PLUGIN_BUILD_DIR, "src", "admin", "index.mjs")

/**
 * Builds the demo app and its dashboard unless a build newer than the plugin's
 * admin extensions exists (MCS_REBUILD_ADMIN=1 forces it). About 60 s and 1.8 GB.
 */
export function ensureAdminBuilt(): void {
  const built = fs.existsSync(ADMIN_INDEX) ? fs.statSync(ADMIN_INDEX).mtimeMs : 0
  const plugin = fs.existsSync(PLUGIN_ADMIN) ? fs.statSync(PLUGIN_ADMIN).mtimeMs : Infinity
  if (process.env.MCS_REBUILD_ADMIN !== "1" && built > plugin) return
  // Another engineer's `plugin:build` may be rewriting .medusa/server: wait for a whole
  // build and retry a build that lost the race.
  for (let attempt = 1; ; attempt++) {
    waitForCompletePluginBuild()
    try {
      execFileSync(MEDUSA_BIN, ["build"], {
        cwd: DEMO_DIR,
        env: baseMedusaEnv({ DISABLE_ADMIN: "false" }),
        stdio: "inherit",
      })
      return
    } catch (error) {
      if (attempt >= 3) throw error
    }
  }
}

function missingPluginFiles(root: string): string[] {
  return REQUIRED_FILES.filter((file) => !fs.existsSync(path.join(root, file)))
}

function waitForCompletePluginBuild(): void {
  for (let waited = 0; missingPluginFiles(PLUGIN_BUILD_DIR).length > 0; waited += 3) {
    if (waited > 120) throw new Error(`plugin build incomplete: ${missingPluginFiles(PLUGIN_BUILD_DIR).join(", ")}`)
    execFileSync("sleep", ["3"])
  }
}

const SNAPSHOT_DIR = path.join(DEMO_BUILD_DIR, "node_modules", "medusa-catalog-sync")
const REQUIRED_FILES = [
  "src/modules/catalog_sync/index.js",
  "src/modules/catalog_sync_runtime/index.js",
  "src/sync-run/run-sync.js",
  "src/api/admin/catalog-sync/status/route.js",
  "src/admin/index.mjs",
]

/**
 * Freezes the plugin build the app runs on. The app started from demo/.medusa/server
 * resolves "medusa-catalog-sync" from its own node_modules first, so a copy there keeps
 * a run from breaking when someone rebuilds .medusa/server (which deletes it first)
 * while the test runs. Dependencies still resolve from the root node_modules.
 */
export function snapshotPluginBuild(): void {
  for (let attempt = 1; ; attempt++) {
    fs.rmSync(SNAPSHOT_DIR, { recursive: true, force: true })
    fs.mkdirSync(SNAPSHOT_DIR, { recursive: true })
    fs.copyFileSync(path.join(PLUGIN_BUILD_DIR, "..", "..", "package.json"), path.join(SNAPSHOT_DIR, "package.json"))
    try {
      fs.cpSync(PLUGIN_BUILD_DIR, path.join(SNAPSHOT_DIR, ".medusa", "server"), { recursive: true })
    } catch {
      // a rebuild deleted files while copying: try again
    }
    const missing = missingPluginFiles(path.join(SNAPSHOT_DIR, ".medusa", "server"))
    if (missing.length === 0) return
    if (attempt >= 20) throw new Error(`plugin build incomplete, missing ${missing.join(", ")}; run npx medusa plugin:build`)
    execFileSync("sleep", ["3"])
  }
}

export type AdminApp = { url: string; logs: () => string; stop: () => Promise<void> }

/**
 * `medusa start` from the demo build with the dashboard on. NODE_ENV=test: anything
 * but "development" makes Medusa serve the built dashboard instead of Vite, and
 * anything but "production" keeps the session cookie usable over plain http.
 */
export async function startAdminApp(opts: { databaseUrl: string; env?: Record<string, string | undefined>; label?: string }): Promise<AdminApp> {
  const port = await freePort()
  const child = spawn(MEDUSA_BIN, ["start"], {
    cwd: DEMO_BUILD_DIR,
    env: baseMedusaEnv({
      DATABASE_URL: opts.databaseUrl,
      PORT: String(port),
      NODE_ENV: "test",
      DISABLE_ADMIN: "false",
      ADMIN_CORS: `http://localhost:${port}`,
      AUTH_CORS: `http://localhost:${port}`,
      ...opts.env,
    }),
    stdio: "pipe",
  })
  const cpu = followCpu(`admin app ${opts.label ?? "admin"}`, child.pid)
  let buffer = ""
  const logFile = path.join(ARTIFACTS_DIR, "logs", `medusa-${opts.label ?? "admin"}-${port}.log`)
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  const sink = fs.createWriteStream(logFile)
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString()
    sink.write(chunk)
  }
  child.stdout!.on("data", onData)
  child.stderr!.on("data", onData)
  const exited = new Promise<void>((resolve) => child.on("exit", () => (sink.end(), resolve())))
  const url = `http://localhost:${port}`
  const started = Date.now()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`medusa start exited with ${child.exitCode}:\n${buffer.slice(-4000)}`)
    try {
      if ((await fetch(`${url}/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 120_000) {
      cpu.ending()
      child.kill("SIGKILL")
      throw new Error(`medusa start did not answer /health in 120 s:\n${buffer.slice(-4000)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
  cpu.booted()
  return {
    url,
    logs: () => buffer,
    stop: async () => {
      cpu.ending()
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
      await exited
      clearTimeout(timer)
    },
  }
}
