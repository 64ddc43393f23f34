// CPU ticks (user + system, in 1/100 s) a process has used so far, from /proc: null when it has
// ended or runs elsewhere. The app's and PostgreSQL's CPU figures of the benchmarks add these up.
import { readFileSync } from "node:fs"

export function cpuTicksOf(pid: number): number | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return null
  }
}
