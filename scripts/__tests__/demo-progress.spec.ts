import { bar, elapsed, followRun, lastLine, type FollowDeps } from "../demo-progress"

type Row = Record<string, any>

/** A fake admin API: each poll of a run answers the next row of its script (the last repeats). */
function harness(scripts: Record<string, Row[]>, runsAfter: (t: number) => Row[] = () => []) {
  let t = 0
  const polls: Record<string, number> = {}
  const logs: string[] = []
  const progress: string[] = []
  const deps: FollowDeps = {
    get: async (p) => {
      const m = /\/runs\/([^?]+)$/.exec(p)
      if (m) {
        const script = scripts[m[1]]
        const i = Math.min(polls[m[1]] ?? 0, script.length - 1)
        polls[m[1]] = (polls[m[1]] ?? 0) + 1
        return { run: { id: m[1], created_at: "2026-01-01T00:00:00.000Z", ...script[i] } }
      }
      return { runs: runsAfter(t) }
    },
    total: 300,
    progress: (l) => progress.push(l),
    log: (l) => logs.push(l),
    graceMs: 150_000,
    progressEveryMs: 0,
    pollMs: 1000,
    now: () => t,
    sleep: async (ms) => {
      t += ms
    },
  }
  return { deps, logs, progress, time: () => t }
}

describe("demo progress", () => {
  it("formats elapsed time, a bar and the latest output line", () => {
    expect(elapsed(9_500)).toBe("9 s")
    expect(elapsed(135_000)).toBe("2 min 15 s")
    expect(bar(150, 300, 10)).toBe("[#####-----]  50%")
    expect(bar(400, 300, 4)).toBe("[####] 100%")
    expect(lastLine("\x1b[32minfo\x1b[39m:    Compiling plugin source...\ninfo:\n\n")).toBe("info:    Compiling plugin source...")
  })

  it("shows products done of the total and ends with the run's success", async () => {
    const h = harness({
      a: [
        { status: "queued", items_seen: 0 },
        { status: "running", items_seen: 200, progress: { phase: "full_export" } },
        { status: "succeeded", items_seen: 300, created: 300, progress: { phase: "done" } },
      ],
    })
    expect(await followRun(h.deps, "a")).toBe("succeeded")
    expect(h.progress.some((l) => l.includes("200/300 products") && l.includes("full_export"))).toBe(true)
    expect(h.progress[h.progress.length - 1]).toContain("[########################] 100% 300/300 products")
    expect(h.logs[0]).toMatch(/^first sync done in \d+ s/)
  })

  it("does not call a run that is marked interrupted but goes on to succeed interrupted", async () => {
    const h = harness({
      a: [
        { status: "running", items_seen: 200, pages: 1 },
        { status: "interrupted", error_code: "process_stopped", items_seen: 200, pages: 1 },
        ...Array.from({ length: 100 }, () => ({ status: "interrupted", error_code: "process_stopped", items_seen: 200, pages: 1 })),
        { status: "interrupted", error_code: "process_stopped", items_seen: 300, pages: 2 },
        { status: "succeeded", items_seen: 300, pages: 2 },
      ],
    })
    expect(await followRun(h.deps, "a")).toBe("succeeded")
    expect(h.logs.join("\n")).not.toMatch(/ended interrupted/)
  })

  it("follows an interrupted run to its retry's end", async () => {
    const h = harness(
      {
        a: [
          { status: "running", items_seen: 200 },
          { status: "interrupted", error_code: "process_stopped", items_seen: 200 },
        ],
        b: [
          { status: "running", trigger: "retry", items_seen: 0 },
          { status: "succeeded", trigger: "retry", items_seen: 100 },
        ],
      },
      // The retry appears once the dead run's lock expired, a minute later.
      (t) => (t >= 60_000 ? [{ id: "b", trigger: "retry", created_at: "2026-01-01T00:01:00.000Z" }] : [])
    )
    expect(await followRun(h.deps, "a")).toBe("succeeded")
    expect(h.logs[0]).toBe("run a ended interrupted (process_stopped); the sync goes on as run b (retry)")
    expect(h.logs[1]).toMatch(/finished by retry run b$/)
    expect(h.progress[h.progress.length - 1]).toContain("300/300 products")
  })

  it("reports a transient failure that nothing retries once the grace period is over", async () => {
    const h = harness({ a: [{ status: "failed", error_code: "network_error", error_message: "socket hang up", items_seen: 0 }] })
    expect(await followRun(h.deps, "a")).toBe("failed")
    expect(h.time()).toBeGreaterThanOrEqual(150_000)
    expect(h.logs[h.logs.length - 1]).toBe("the first sync ended failed: network_error socket hang up (no retry within 2 min 30 s)")
  })

  it("reports a refused key at once (it is never retried)", async () => {
    const h = harness({ a: [{ status: "failed", error_code: "invalid_api_key", error_message: "refused", items_seen: 0 }] })
    expect(await followRun(h.deps, "a")).toBe("failed")
    expect(h.time()).toBe(0)
    expect(h.logs[h.logs.length - 1]).toBe("the first sync ended failed: invalid_api_key refused")
  })
  it("reports a weak encryption secret at once (no run retries it until the secret changes)", async () => {
    const h = harness({ a: [{ status: "failed", error_code: "weak_encryption_secret", error_message: "too short", items_seen: 0 }] })
    expect(await followRun(h.deps, "a")).toBe("failed")
    expect(h.time()).toBe(0)
  })
})
