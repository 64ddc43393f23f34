// The whole demo, as the README runs it (`npm run demo`): one poll of its first-sync follower fails
// on a real reset connection, the demo goes on and reports the sync done, and a Ctrl-C to the npm
// process leaves no process of it and no port behind (issue 42). Knobs fit it to the test machine:
// its own ports, a copy of the migrated template as its database (the demo's migration then finds
// nothing to do), the worker's Redis database and its own key prefix, a small catalog, and
// DEMO_FOLLOW_URL pointing the follower through a TCP forwarder the test controls.
import { spawn, type ChildProcess } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import fs from "node:fs"
import net from "node:net"
import { createTestDatabase, freePort, REPO_ROOT } from "../harness"
import { startTcpForwarder, type TcpForwarder } from "../harness/tcp-forwarder"
import { sql, waitFor } from "./poll-and-query"
import { compareShop, readCatalog, readShop } from "./sync-helpers"

jest.setTimeout(900_000)

const PRODUCTS = 60
/** The demo's sandbox key (scripts/demo.ts). */
const DEMO_API_KEY = "demo-sandbox-key-0001"
/** How long the demo gives its children after SIGTERM before SIGKILL (its DEMO_STOP_GRACE_MS). */
const STOP_GRACE_MS = 15_000

type Proc = { pid: number; ppid: number; pgid: number; sid: number; start: string; cmd: string }

/** Every process on the machine, from /proc (a process gone while read is skipped). */
function processes(): Proc[] {
  const out: Proc[] = []
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8")
      // The command name is in parentheses and may hold spaces: the fields start after the last ")".
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ").trim()
      out.push({ pid: Number(name), ppid: Number(f[1]), pgid: Number(f[2]), sid: Number(f[3]), start: f[19], cmd })
    } catch {
      // gone
    }
  }
  return out
}

/** The process and all its descendants. */
function treeOf(root: number): Proc[] {
  const all = processes()
  const tree = all.filter((p) => p.pid === root)
  for (let i = 0; i < tree.length; i++) tree.push(...all.filter((p) => p.ppid === tree[i].pid))
  return tree
}

/** Processes whose environment holds `marker` (every process the demo started inherits it, wherever it was reparented). */
function markedProcesses(marker: string): Proc[] {
  return processes().filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p.pid}/environ`, "utf8").includes(marker)
    } catch {
      return false
    }
  })
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)))
    socket.on("error", () => resolve(false))
  })
}

/** A free port whose next one is free too (the sandbox's control API listens on port + 1). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort()
    if (port < 65535 && !(await portOpen(port + 1))) return port
  }
}

describe("npm run demo", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let forwarder: TcpForwarder
  let demo: ChildProcess | null = null
  let output = ""
  const marker = `MCS_DEMO_TEST_MARK=${randomUUID()}`

  afterAll(async () => {
    // Whatever failed above: nothing of the demo outlives the test.
    for (const p of markedProcesses(marker)) {
      try {
        process.kill(p.pid, "SIGKILL")
      } catch {
        // gone
      }
    }
    await forwarder?.close()
    await db?.drop().catch(() => undefined)
  })

  it("a follower poll reset once: the demo goes on to the synced shop; Ctrl-C to npm leaves no process and no port", async () => {
    db = await createTestDatabase("demo_whole")
    const appPort = await freePort()
    const sandboxPort = await freePortPair()
    forwarder = await startTcpForwarder({ host: "127.0.0.1", port: appPort })
    const [markName, markValue] = marker.split("=")
    // Its own process group (as in a terminal): the test's own group is never among what it checks.
    demo = spawn("npm", ["run", "demo"], {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        [markName]: markValue,
        DEMO_PORT: String(appPort),
        DEMO_SANDBOX_PORT: String(sandboxPort),
        DEMO_DATABASE: db.name,
        DEMO_PRODUCTS: String(PRODUCTS),
        DEMO_SERVER: "develop",
        DEMO_FOLLOW_URL: forwarder.url,
        DEMO_STOP_GRACE_MS: String(STOP_GRACE_MS),
        // The worker's Redis database (worker-isolation.ts) and a key space of its own.
        REDIS_URL: process.env.REDIS_URL,
        CATALOG_SYNC_REDIS_PREFIX: `mcs-demo-test-${randomUUID()}`,
        // In the environment, so the demo writes no demo/.env of its own.
        CATALOG_SYNC_ENCRYPTION_KEY: randomBytes(48).toString("base64url"),
      },
    })
    const npmPid = demo.pid!
    const exited = new Promise<number | null>((resolve) => demo!.once("exit", (code) => resolve(code)))
    demo.stdout!.on("data", (d) => (output += d))
    demo.stderr!.on("data", (d) => (output += d))
    const said = (what: RegExp, timeoutMs: number) =>
      waitFor(
        `the demo to print ${what}`,
        async () => {
          if (demo!.exitCode !== null) throw new Error(`the demo exited (${demo!.exitCode}):\n${output.slice(-4000)}`)
          return what.test(output)
        },
        timeoutMs,
        200
      )

    // The first sync is being followed: its next poll meets a reset connection (the app itself answers on).
    await said(/first full sync: run \S+/, 600_000)
    forwarder.resetNext(1)
    await said(/polling the app failed \([^)]*\); trying again/, 60_000)
    await said(/first sync done in/, 600_000)
    await said(/Press Ctrl-C to stop everything\./, 30_000)
    expect(forwarder.resets()).toBe(1)
    expect(output).not.toMatch(/the first sync ended|stopping\.\.\./)
    // The sync really happened: the shop (SQL on Medusa's tables) equals the sandbox's catalog.
    const shop = await readShop(db.url)
    expect(shop.size).toBe(PRODUCTS)
    expect(compareShop(await readCatalog(`http://127.0.0.1:${sandboxPort}`, DEMO_API_KEY), shop)).toEqual([])
    const [run] = await sql(db.url, "select status from mcs_sync_run where mode = 'full' order by created_at desc limit 1")
    expect(run.status).toBe("succeeded")

    // What runs now: npm, the shell, tsx, the demo, the app's process group (develop forks its server).
    const running = treeOf(npmPid)
    expect(markedProcesses(marker).length).toBeGreaterThanOrEqual(running.length)
    expect(running.some((p) => /medusa/.test(p.cmd) && p.pgid !== p.pid && p.pgid !== running[0].pgid)).toBe(true)
    for (const port of [appPort, sandboxPort, sandboxPort + 1]) expect(await portOpen(port)).toBe(true)

    // Stopped as a user does: SIGINT to the npm process.
    const stoppedAt = Date.now()
    process.kill(npmPid, "SIGINT")
    const code = await Promise.race([exited, new Promise<"still running">((r) => setTimeout(() => r("still running"), STOP_GRACE_MS + 60_000))])
    expect(code).not.toBe("still running")
    // Children reparented on the way out may die a moment after npm: bounded wait, then none may be left.
    const left = await waitFor(
      "no process of the demo left",
      async () => {
        const alive = [
          ...markedProcesses(marker),
          ...processes().filter((p) => running.some((r) => (r.pid === p.pid && r.start === p.start) || r.pgid === p.pgid)),
        ]
        return alive.length ? null : []
      },
      10_000,
      200
    ).catch(() => [...markedProcesses(marker)].map((p) => `${p.pid} ${p.cmd}`))
    expect(left).toEqual([])
    for (const port of [appPort, sandboxPort, sandboxPort + 1]) expect(await portOpen(port)).toBe(false)
    expect(output).toMatch(/stopping\.\.\./)
    console.log(`demo stopped in ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s after SIGINT (exit ${code}); output:\n${output.slice(-3000)}`)
  })
})
