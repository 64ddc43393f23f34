// Stopping a child and everything it started: the demo spawns each child as the leader of its
// own process group (spawn's `detached`), so one signal reaches the app and the workers it forks.
// A group that ignores SIGTERM (a busy `medusa start` was seen holding its port for over a minute)
// is killed after a grace period; whatever happens, nothing of it is left running.
import type { ChildProcess } from "node:child_process"

/** Is any process of the group `pgid` alive? */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (e: any) {
    return e?.code === "EPERM"
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // already gone
  }
}

/**
 * SIGTERM to the child's group, SIGKILL to whatever is left after `graceMs`, and waits until no
 * process of the group is alive (bounded: a process in uninterruptible sleep cannot be waited for).
 */
export async function stopGroup(child: ChildProcess, opts: { graceMs?: number; pollMs?: number; giveUpMs?: number } = {}): Promise<void> {
  const pgid = child.pid
  if (!pgid) return
  const graceMs = opts.graceMs ?? 10_000
  const pollMs = opts.pollMs ?? 100
  const giveUpAt = Date.now() + graceMs + (opts.giveUpMs ?? 10_000)
  const killAt = Date.now() + graceMs
  signalGroup(pgid, "SIGTERM")
  let killed = false
  while (groupAlive(pgid) && Date.now() < giveUpAt) {
    if (!killed && Date.now() >= killAt) {
      signalGroup(pgid, "SIGKILL")
      killed = true
    }
    await new Promise((r) => setTimeout(r, pollMs))
  }
}

/** At the very end (process "exit", synchronous): SIGKILL to groups still alive. */
export function killGroupsNow(pgids: Iterable<number>): void {
  for (const pgid of pgids) if (groupAlive(pgid)) signalGroup(pgid, "SIGKILL")
}
