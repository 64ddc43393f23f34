import { lowerProcessPriority } from "../worker-priority"

describe("a worker instance's priority", () => {
  it("sets every thread below the niceness asked for, and none it would raise", () => {
    const nice = new Map([
      [100, 0],
      [101, 0],
      [102, 15],
    ])
    const outcome = lowerProcessPriority(10, {
      tasks: () => [...nice.keys()],
      getPriority: (tid) => nice.get(tid)!,
      setPriority: (tid, n) => void nice.set(tid, n),
    })
    expect(outcome).toEqual({ nice: 10, threads: 2 })
    expect([...nice.values()]).toEqual([10, 10, 15])
  })

  it("leaves the process alone at 0, and goes on past a thread that ended meanwhile", () => {
    const set = jest.fn()
    expect(lowerProcessPriority(0, { tasks: () => [1], getPriority: () => 0, setPriority: set })).toEqual({ left: "workerNice 0" })
    expect(set).not.toHaveBeenCalled()
    const outcome = lowerProcessPriority(10, {
      tasks: () => [1, 2],
      getPriority: (tid) => {
        if (tid === 1) throw new Error("ESRCH")
        return 0
      },
      setPriority: set,
    })
    expect(outcome).toEqual({ nice: 10, threads: 1 })
    expect(set).toHaveBeenCalledWith(2, 10)
  })

  it("on this machine: a child process's threads all end at the niceness asked for", async () => {
    const { execFileSync } = await import("node:child_process")
    const { getPriority } = await import("node:os")
    // Above this process's own niceness (the suite may run niced: a child starts where it does).
    const want = Math.min(19, getPriority() + 3)
    const script = `
      const { lowerProcessPriority } = require(${JSON.stringify(require.resolve("../worker-priority"))});
      const outcome = lowerProcessPriority(${want});
      const fs = require("node:fs");
      const nices = fs.existsSync("/proc/self/task")
        ? fs.readdirSync("/proc/self/task").map((t) => Number(fs.readFileSync("/proc/self/task/" + t + "/stat", "utf8").split(") ")[1].split(" ")[16]))
        : [require("node:os").getPriority()];
      console.log(JSON.stringify({ outcome, nices }));
    `
    const out = JSON.parse(execFileSync(process.execPath, ["-r", require.resolve("ts-node/register/transpile-only"), "-e", script], { encoding: "utf8" }))
    expect(out.outcome.nice).toBe(want)
    expect(new Set(out.nices)).toEqual(new Set([want]))
  })
})
