// The demo on a busy machine: its follower's poll that fails once (a reset connection, "fetch
// failed", a 5xx) does not stop it, and stopping it leaves no process of its children and no
// port behind, even when a child ignores SIGTERM.
import { spawn } from "node:child_process"
import net from "node:net"
import { followRun, retryingGet, type FollowDeps } from "../demo-progress"
import { groupAlive, stopGroup } from "../process-group"

jest.setTimeout(60_000)

const fetchFailed = () => Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) })

describe("the demo's run follower", () => {
  it("a poll that fails once with a reset connection: the follow goes on to the run's success", async () => {
    let t = 0
    let polls = 0
    const logs: string[] = []
    const rows = [
      { status: "running", items_seen: 100 },
      { status: "succeeded", items_seen: 300 },
    ]
    const get = async (p: string) => {
      polls++
      if (polls === 2) throw fetchFailed()
      const row = rows[Math.min(polls > 2 ? polls - 2 : 0, rows.length - 1)]
      return { run: { id: "a", created_at: "2026-01-01T00:00:00.000Z", ...row }, p }
    }
    const sleep = async (ms: number) => void (t += ms)
    const deps: FollowDeps = {
      get: retryingGet(get, { log: (l) => logs.push(l), now: () => t, sleep }),
      total: 300,
      progress: () => undefined,
      log: (l) => logs.push(l),
      graceMs: 150_000,
      progressEveryMs: 0,
      now: () => t,
      sleep,
    }
    expect(await followRun(deps, "a")).toBe("succeeded")
    expect(logs.some((l) => /polling the app failed \(fetch failed\); trying again/.test(l))).toBe(true)
  })

  it("a 5xx is retried; a failure that is not transient, or one that outlasts the retry window, is thrown", async () => {
    let t = 0
    const sleep = async (ms: number) => void (t += ms)
    let calls = 0
    const flaky = retryingGet(
      async () => {
        if (++calls === 1) throw Object.assign(new Error("GET /x: 502"), { status: 502, requestId: null })
        return "ok"
      },
      { now: () => t, sleep }
    )
    expect(await flaky("/x")).toBe("ok")
    const bug = retryingGet(async () => {
      throw new SyntaxError("Unexpected token < in JSON")
    })
    await expect(bug("/x")).rejects.toThrow(SyntaxError)
    const down = retryingGet(
      async () => {
        throw fetchFailed()
      },
      { forMs: 5_000, now: () => t, sleep }
    )
    await expect(down("/x")).rejects.toThrow("fetch failed")
  })
})

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)))
    socket.on("error", () => resolve(false))
  })
}

describe("stopping the demo's children", () => {
  it("a process group that ignores SIGTERM and holds a port is killed: no process of it and no port left", async () => {
    // A leader ignoring SIGTERM that forks a child ignoring it too and listening on a port (what
    // `medusa start` with its forked server looked like when it outlived the demo).
    const script = `
      process.on("SIGTERM", () => {})
      const { spawn } = require("node:child_process")
      const child = spawn(process.execPath, ["-e", \`
        process.on("SIGTERM", () => {})
        const s = require("node:net").createServer().listen(0, "127.0.0.1", () => console.log(s.address().port))
      \`], { stdio: ["ignore", "inherit", "ignore"] })
      setInterval(() => {}, 1000)
    `
    const leader = spawn(process.execPath, ["-e", script], { detached: true, stdio: ["ignore", "pipe", "ignore"] })
    const port = await new Promise<number>((resolve) => leader.stdout!.once("data", (d) => resolve(Number(String(d).trim()))))
    expect(await portOpen(port)).toBe(true)
    const pgid = leader.pid!
    expect(groupAlive(pgid)).toBe(true)

    const started = Date.now()
    await stopGroup(leader, { graceMs: 1_000 })
    expect(groupAlive(pgid)).toBe(false)
    expect(await portOpen(port)).toBe(false)
    // SIGTERM was ignored: the group went only with the SIGKILL after the grace.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000)
  })
})
