// The demo's progress output, kept apart from scripts/demo.ts (which starts everything when
// loaded) so it can be tested: elapsed times, the latest line of a command's output, a progress
// bar, and following the first sync to its real end through retries.
import { classifyFailureKind, isTransientClass } from "../src/sync/failure-class"

export function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000)
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`
}

/** The last meaningful line a command printed, without colour codes, for a progress line. */
export function lastLine(text: string): string {
  const lines = text
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^\w+:$/.test(l)) // a bare "info:" says nothing
  const line = lines[lines.length - 1] ?? ""
  return line.length > 70 ? `${line.slice(0, 67)}...` : line
}

/**
 * GET that rides out a busy machine: a failed poll (the app's socket reset, a timeout, "fetch
 * failed", a 5xx while the admin bundle compiles) is tried again with backoff for up to `forMs`;
 * only a failure that is not transient, or one that outlasts it, reaches the caller.
 */
export function retryingGet(
  get: (path: string) => Promise<any>,
  opts: { forMs?: number; log?: (line: string) => void; now?: () => number; sleep?: (ms: number) => Promise<void> } = {}
): (path: string) => Promise<any> {
  const now = opts.now ?? Date.now
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const forMs = opts.forMs ?? 120_000
  return async (path) => {
    const started = now()
    for (let attempt = 1; ; attempt++) {
      try {
        return await get(path)
      } catch (e) {
        if (!isTransientClass(classifyFailureKind(e).class) || now() - started >= forMs) throw e
        const delay = Math.min(10_000, 500 * 2 ** (attempt - 1))
        opts.log?.(`polling the app failed (${(e as Error)?.message ?? e}); trying again in ${delay} ms`)
        await sleep(delay)
      }
    }
  }
}

export function bar(done: number, total: number, width = 24): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0
  const full = Math.round(ratio * width)
  return `[${"#".repeat(full)}${"-".repeat(width - full)}] ${String(Math.round(ratio * 100)).padStart(3)}%`
}

const FINAL = ["succeeded", "failed", "interrupted"]
/** Failures the queue does not retry (the key or plan was refused, nothing is configured). */
const NOT_RETRIED = ["invalid_api_key", "plan_required", "not_configured", "weak_encryption_secret"]

export type FollowDeps = {
  /** GET on the admin API, answering the parsed body. */
  get: (path: string) => Promise<any>
  /** Products in the catalog (the bar's 100%). */
  total: number
  /** A progress line (a terminal rewrites it in place). */
  progress: (line: string) => void
  /** A line that stays. */
  log: (line: string) => void
  /**
   * How long a run that ended interrupted or failed is watched before that is the outcome: the
   * same run may still be going (a row marked interrupted by a liveness check goes on), and
   * BullMQ hands a transient failure or a stopped run out again as a "retry" run after its
   * backoff (30 s, then 60 s) or once the dead run's lock expires (60 s).
   */
  graceMs: number
  /** Progress lines at most this often when nothing ended (a terminal: every poll). */
  progressEveryMs: number
  pollMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

/**
 * Follows a sync from its first run to its real end: a bar of products seen of `total`, the
 * elapsed time and the run's counts; a run that ends interrupted or failed is followed further
 * when it goes on, or when a newer run (its retry) appears within `graceMs`. Answers the final
 * status.
 */
export async function followRun(deps: FollowDeps, firstRunId: string): Promise<"succeeded" | "failed" | "interrupted"> {
  const now = deps.now ?? Date.now
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const started = now()
  let runId = firstRunId
  let seenBefore = 0 // products seen by earlier runs of this sync (a retry resumes after them)
  let endedAt: number | null = null
  let lastPrinted = -Infinity
  let lastMark = ""
  for (;;) {
    const r = (await deps.get(`/admin/catalog-sync/runs/${runId}`)).run
    const done = Math.min(deps.total, seenBefore + (r.items_seen ?? 0))
    const phase = String(r.progress?.phase ?? r.status)
    const ended = FINAL.includes(r.status)
    if (now() - lastPrinted >= deps.progressEveryMs || ended) {
      deps.progress(
        `${bar(done, deps.total)} ${done}/${deps.total} products  ${elapsed(now() - started)}  ${phase}` +
          `  (created ${r.created ?? 0}, updated ${r.updated ?? 0}, unchanged ${r.unchanged ?? 0}, skipped ${r.skipped ?? 0}, requests ${r.requests_used ?? 0})`
      )
      lastPrinted = now()
    }
    const mark = `${r.items_seen}/${phase}/${r.pages}`
    const moved = mark !== lastMark
    lastMark = mark

    if (r.status === "succeeded") {
      const seconds = Math.max(0.001, (now() - started) / 1000)
      deps.log(
        `first sync done in ${elapsed(now() - started)} (${Math.round(done / seconds)} products/s)` +
          (runId !== firstRunId ? `, finished by retry run ${runId}` : "")
      )
      if (r.rejected_count) deps.log(`${r.rejected_count} catalog items were rejected (see the run in the admin)`)
      return "succeeded"
    }
    if (!ended) endedAt = null
    else {
      // A row marked ended whose counts still move is a run that goes on: keep waiting.
      if (endedAt === null || moved) endedAt = now()
      const next = await newerRun(deps, r)
      if (next) {
        deps.log(`run ${runId} ended ${r.status} (${r.error_code}); the sync goes on as run ${next.id} (${next.trigger})`)
        seenBefore = done
        runId = next.id
        endedAt = null
        lastMark = ""
        continue
      }
      // A refused key or plan is not retried: that outcome is final at once.
      const retried = !(r.status === "failed" && NOT_RETRIED.includes(r.error_code))
      if (!retried || now() - endedAt >= deps.graceMs) {
        deps.log(`the first sync ended ${r.status}: ${r.error_code} ${r.error_message}${retried ? ` (no retry within ${elapsed(deps.graceMs)})` : ""}`)
        if (r.rejected_count) deps.log(`${r.rejected_count} catalog items were rejected (see the run in the admin)`)
        return r.status
      }
    }
    await sleep(deps.pollMs ?? 1000)
  }
}

/** A run created after `run` (its retry, or the next run of the sync), or null. */
async function newerRun(deps: FollowDeps, run: { id: string; created_at: string }): Promise<any | null> {
  const body = await deps.get("/admin/catalog-sync/runs?limit=5&offset=0")
  const after = Date.parse(run.created_at)
  const newer = (body?.runs ?? []).filter((x: any) => x.id !== run.id && Date.parse(x.created_at) >= after)
  return newer.sort((a: any, b: any) => Date.parse(a.created_at) - Date.parse(b.created_at))[0] ?? null
}
