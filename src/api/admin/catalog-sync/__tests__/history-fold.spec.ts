import { changesPerDay, dayKey, foldHistory, hadChanges, quietLabel, type HistoryRun } from "../history/fold"
import { historyQuerySchema } from "../history/route"

let n = 0
const run = (at: string, over: Partial<HistoryRun> = {}): HistoryRun => ({
  id: `r${++n}`,
  status: "succeeded",
  trigger: "schedule",
  mode: "changes",
  started_at: at,
  created_at: at,
  created: 0,
  updated: 0,
  stock_only: 0,
  removed: 0,
  swept: 0,
  skipped: 0,
  ...over,
})

describe("foldHistory", () => {
  it("keeps the run that carried out a discard on its own row, though it changed nothing", () => {
    const after = run("2026-11-23T08:10:00Z", { trigger: "retry", progress: { after_brake: "r_paused", brake_answer: "discarded", phase: "done" } })
    const rows = foldHistory([run("2026-11-23T08:20:00Z"), after, run("2026-11-23T08:00:00Z")], "UTC")
    expect(rows.map((r) => (r.type === "run" ? r.run.id : `quiet:${r.count}`))).toEqual(["quiet:2", after.id])
  })

  it("folds a day's quiet polls into one row and keeps every run with changes", () => {
    const runs = [
      run("2026-11-23T12:00:00Z"),
      run("2026-11-23T11:50:00Z", { updated: 3 }),
      run("2026-11-23T11:40:00Z"),
      run("2026-11-23T11:30:00Z", { trigger: "retry" }),
      run("2026-11-22T23:50:00Z"),
    ]
    const rows = foldHistory(runs, "UTC")
    expect(rows.map((r) => (r.type === "run" ? r.run.id : `${r.day}:${r.count}`))).toEqual(["2026-11-23:3", runs[1].id, "2026-11-22:1"])
    const first = rows[0] as Extract<(typeof rows)[0], { type: "quiet" }>
    expect(first.triggers).toEqual({ schedule: 2, retry: 1 })
    expect(first.first_at).toBe("2026-11-23T11:30:00.000Z")
    expect(first.last_at).toBe("2026-11-23T12:00:00.000Z")
  })
  it("days follow the given time zone: 22:30 UTC is already the next day in Kyiv (UTC+2)", () => {
    const runs = [run("2026-11-22T22:30:00Z"), run("2026-11-22T21:30:00Z")]
    expect(foldHistory(runs, "UTC").map((r) => (r.type === "quiet" ? r.count : -1))).toEqual([2])
    expect(foldHistory(runs, "Europe/Kyiv").map((r) => (r.type === "quiet" ? r.day : ""))).toEqual(["2026-11-23", "2026-11-22"])
  })
  it("a run spanning midnight belongs to the day it started", () => {
    const spanning = run("2026-11-22T23:58:00Z", { finished_at: "2026-11-23T00:03:00Z", created_at: "2026-11-22T23:57:00Z" })
    const rows = foldHistory([run("2026-11-23T00:10:00Z"), spanning], "UTC")
    expect(rows.map((r) => (r.type === "quiet" ? r.day : ""))).toEqual(["2026-11-23", "2026-11-22"])
  })
  it("never folds failed, interrupted, running or rejecting runs, even with zero changes", () => {
    const runs = [
      run("2026-11-23T10:00:00Z", { status: "failed" }),
      run("2026-11-23T09:50:00Z", { status: "interrupted" }),
      run("2026-11-23T09:45:00Z", { status: "running" }),
      run("2026-11-23T09:40:00Z", { skipped: 1 }),
      run("2026-11-23T09:30:00Z"),
    ]
    expect(foldHistory(runs, "UTC").map((r) => r.type)).toEqual(["run", "run", "run", "run", "quiet"])
    expect(hadChanges(runs[3])).toBe(true)
  })
  it("144 polls a day over two days are two rows", () => {
    const runs: HistoryRun[] = []
    for (let i = 0; i < 288; i++) runs.push(run(new Date(Date.parse("2026-11-23T23:55:00Z") - i * 600_000).toISOString()))
    const rows = foldHistory(runs, "UTC")
    expect(rows).toHaveLength(2)
    expect(rows.map((r) => (r.type === "quiet" ? quietLabel(r.count) : ""))).toEqual(["144 polls, no changes", "144 polls, no changes"])
  })
  it("a run an admin started keeps its row even when it changed nothing", () => {
    const runs = [
      run("2026-11-23T10:00:00Z", { trigger: "manual", mode: "full" }),
      run("2026-11-23T09:00:00Z", { trigger: "settings" }),
      run("2026-11-23T08:00:00Z"),
    ]
    expect(foldHistory(runs, "UTC").map((r) => r.type)).toEqual(["run", "run", "quiet"])
  })
  it("quietLabel is singular for one poll", () => {
    expect(quietLabel(1)).toBe("1 poll, no changes")
  })
})

describe("changesPerDay", () => {
  it("sums products changed per day over the window, oldest first, with zero days", () => {
    const now = new Date("2026-11-23T12:00:00Z")
    const days = changesPerDay(
      [
        run("2026-11-23T10:00:00Z", { created: 5, removed: 1 }),
        run("2026-11-21T08:00:00Z", { updated: 2, stock_only: 3, swept: 1 }),
        run("2026-10-01T08:00:00Z", { created: 99 }),
      ],
      { days: 3, now, timeZone: "UTC" }
    )
    expect(days).toEqual([
      { day: "2026-11-21", changed: 6, runs: 1 },
      { day: "2026-11-22", changed: 0, runs: 0 },
      { day: "2026-11-23", changed: 6, runs: 1 },
    ])
  })
  it("30 days give 30 distinct days across the end of daylight saving time", () => {
    const days = changesPerDay([], { days: 30, now: new Date("2026-11-10T00:30:00Z"), timeZone: "Europe/Kyiv" })
    expect(new Set(days.map((d) => d.day)).size).toBe(days.length)
    expect(days.length).toBeGreaterThanOrEqual(29)
    expect(dayKey(new Date("2026-11-10T00:30:00Z"), "Europe/Kyiv")).toBe(days[days.length - 1].day)
  })
})

describe("history query", () => {
  it("parses comma lists and refuses a bad zone naming the field", () => {
    expect(historyQuerySchema.parse({ status: "failed,succeeded", had_changes: "true", tz: "Europe/Kyiv" })).toMatchObject({
      status: ["failed", "succeeded"],
      had_changes: "true",
      tz: "Europe/Kyiv",
      days: 30,
    })
    expect(historyQuerySchema.safeParse({ tz: "Mars/Olympus" }).error!.issues[0].path).toEqual(["tz"])
    expect(historyQuerySchema.safeParse({ status: "exploded" }).error!.issues[0].path[0]).toBe("status")
  })
})
