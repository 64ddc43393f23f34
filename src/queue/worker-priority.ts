// A worker instance (workerMode "worker") runs at a lower CPU priority than the shop's server, so
// a server on the same machine answers shoppers first while a sync writes pages; on a machine of
// its own it changes nothing but its place behind other processes. Linux keeps a niceness per
// thread: every thread the process has now is set (V8's and libuv's threads started at boot), and
// threads started later inherit it from the thread that starts them.
import fs from "node:fs"
import os from "node:os"

/** The niceness a worker instance takes unless the option or environment says otherwise. */
export const DEFAULT_WORKER_NICE = 10

export type PriorityOutcome = { nice: number; threads: number } | { left: string }

/**
 * Sets this process's threads to `nice` (never lower than they are: raising priority needs
 * privileges and is not the plugin's to take). `tasks` and `setPriority` are the system's by default.
 */
export function lowerProcessPriority(
  nice: number,
  system: { tasks?: () => number[]; getPriority?: (tid: number) => number; setPriority?: (tid: number, nice: number) => void } = {}
): PriorityOutcome {
  if (nice <= 0) return { left: "workerNice 0" }
  const tasks = system.tasks ?? linuxTasks
  const get = system.getPriority ?? ((tid: number) => os.getPriority(tid))
  const set = system.setPriority ?? ((tid: number, n: number) => os.setPriority(tid, n))
  const ids = tasks()
  let threads = 0
  for (const tid of ids.length ? ids : [0]) {
    try {
      if (get(tid) >= nice) continue
      set(tid, nice)
      threads++
    } catch {
      // A thread that ended meanwhile, or a system that refuses: the others still count.
    }
  }
  return { nice, threads }
}

/** Thread ids of this process on Linux; none elsewhere (the process as a whole is set then). */
function linuxTasks(): number[] {
  try {
    return fs.readdirSync("/proc/self/task").map(Number).filter(Number.isInteger)
  } catch {
    return []
  }
}
