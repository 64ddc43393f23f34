import { spawn } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { ARTIFACTS_DIR, DEMO_DIR, MEDUSA_BIN } from "./paths"
import { followCpu } from "./app-cpu"

/**
 * The encryption secret of every app this test process starts: random at run time, so no
 * secret is written in the repository (the plugin refuses any string found there).
 */
export const TEST_ENCRYPTION_SECRET = randomBytes(32).toString("base64url")

/**
 * A config home whose Medusa config has telemetry off. MEDUSA_DISABLE_TELEMETRY only drops the
 * events: Medusa 2.21 still forks a Node process (`@medusajs/telemetry`'s send.js) every few
 * events and on a timer, in every app, unless its config store says `telemetry.enabled: false`.
 * The machine id is set too, so no app writes the file.
 */
function telemetryOffConfigHome(): string {
  const home = path.join(ARTIFACTS_DIR, "medusa-config-home")
  const file = path.join(home, "medusa", "config.json")
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const temp = `${file}.${process.pid}.tmp`
    fs.writeFileSync(temp, JSON.stringify({ telemetry: { enabled: false, machine_id: randomUUID() } }))
    fs.renameSync(temp, file)
  }
  return home
}

/** The environment every Medusa process of the tests gets (no admin build, no telemetry). */
export function baseMedusaEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "development",
    DISABLE_ADMIN: "true",
    MEDUSA_DISABLE_TELEMETRY: "true",
    DO_NOT_TRACK: "1",
    XDG_CONFIG_HOME: telemetryOffConfigHome(),
    // test-utils' NODE_OPTIONS (vm modules) must not leak into the app processes.
    NODE_OPTIONS: "",
    // The sandboxes run with raised limits (6000/min and more); the plugin adopts at most
    // 60/min unless this ceiling is raised.
    CATALOG_SYNC_MAX_RPM: "100000000",
    CATALOG_SYNC_MAX_CONCURRENT: "1000",
    // The sandbox and the scripted servers listen on loopback, which the plugin refuses by default.
    CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS: "true",
    CATALOG_SYNC_ENCRYPTION_KEY: TEST_ENCRYPTION_SECRET,
    ...extra,
  }
}

/** Runs `medusa <args>` in demo/ and resolves with its output; rejects on a non-zero exit. */
export function runMedusaCommand(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 180_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(MEDUSA_BIN, args, { cwd: DEMO_DIR, env: baseMedusaEnv(env), stdio: "pipe" })
    const cpu = followCpu(`medusa ${args[0]}${args[0] === "exec" && args[1] ? ` ${path.basename(args[1])}` : ""}`, child.pid, { sampleUntilExit: true })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (out += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("error", reject)
    child.on("exit", (code) => {
      cpu.ending()
      clearTimeout(timer)
      if (code === 0) resolve(out)
      else reject(new Error(`medusa ${args[0]} exited with ${code}:\n${out.slice(-4000)}`))
    })
  })
}
