// What each Medusa process of the tests costs in CPU: its boot (until /health answers) and its
// whole life, written to artifacts/app-cpu.tsv by spec file, so a run that grows shows which
// spec's apps and commands took the cores (scripts/report-test-times.js sums it). The suite is
// bound by CPU on two cores: wall times of files running side by side do not tell this.
import fs from "node:fs"
import path from "node:path"
import { ARTIFACTS_DIR } from "./paths"

export const APP_CPU_FILE = path.join(ARTIFACTS_DIR, "app-cpu.tsv")

/** The fields of /proc/<pid>/stat after the command's closing parenthesis (state first); null once the process is gone. */
export function procStatFields(pid: number | undefined): string[] | null {
  if (!pid) return null
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return null
  }
}

/** User + system CPU seconds of a live process and its waited-for children; null once it is gone. */
export function cpuSecondsOf(pid: number | undefined): number | null {
  const fields = procStatFields(pid)
  if (!fields) return null
  // utime is the 12th field after the command, stime, cutime, cstime follow.
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100
}

/** The spec file running in this jest process, relative to the repository. */
function specFile(): string {
  const testPath: string | undefined = (globalThis as any).expect?.getState?.().testPath
  return testPath ? path.relative(path.join(ARTIFACTS_DIR, ".."), testPath) : "(outside a spec)"
}

/** One line per process: spec, what it was, boot CPU s, total CPU s, wall s. */
export function recordAppCpu(what: string, bootCpu: number | null, totalCpu: number | null, wallMs: number): void {
  const fmt = (n: number | null) => (n === null ? "" : n.toFixed(1))
  try {
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true })
    fs.appendFileSync(APP_CPU_FILE, `${specFile()}\t${what}\t${fmt(bootCpu)}\t${fmt(totalCpu)}\t${(wallMs / 1000).toFixed(1)}\n`)
  } catch {
    // Accounting only: never fail a test for it.
  }
}

/**
 * Follows one spawned process: call `booted()` when it answers, `ending()` right before it is
 * signalled (its /proc entry goes with it). A process that exits by itself (a command) is
 * sampled every few seconds instead, the last sample counted.
 */
export function followCpu(what: string, pid: number | undefined, opts: { sampleUntilExit?: boolean; fromNow?: boolean } = {}) {
  const started = Date.now()
  // fromNow: a running process handed on to this spec (parked-apps.ts): its CPU until now was counted already.
  const before = opts.fromNow ? cpuSecondsOf(pid) ?? 0 : 0
  let boot: number | null = null
  let last: number | null = null
  let done = false
  const timer = opts.sampleUntilExit
    ? setInterval(() => {
        last = cpuSecondsOf(pid) ?? last
      }, 2_000)
    : null
  timer?.unref()
  return {
    booted() {
      boot = cpuSecondsOf(pid)
      last = boot
    },
    ending() {
      if (done) return
      done = true
      if (timer) clearInterval(timer)
      const total = cpuSecondsOf(pid) ?? last
      recordAppCpu(what, boot, total === null ? null : total - before, Date.now() - started)
    },
  }
}
