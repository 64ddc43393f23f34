// The app's own per-page timings: each written page logs "catalog sync page N: … waited W ms for
// the page, wrote in M ms {…}". Write time is the sum of M over a run's pages: the run's duration
// without the waits for the catalog's pages.
import type { MedusaApp } from "../integration-tests/harness"

export interface PageWrites {
  pages: number
  writeMs: number
  fetchWaitMs: number
  /** Write milliseconds of each page, in order. */
  perPage: number[]
}

const PAGE_LINE = /catalog sync page \d+: .*?waited (\d+) ms for the page, wrote in (\d+) ms/g

export function pageWritesIn(logText: string): PageWrites {
  const perPage: number[] = []
  let fetchWaitMs = 0
  for (const m of logText.matchAll(PAGE_LINE)) {
    fetchWaitMs += Number(m[1])
    perPage.push(Number(m[2]))
  }
  return { pages: perPage.length, writeMs: perPage.reduce((a, b) => a + b, 0), fetchWaitMs, perPage }
}

/** Marks the app's log now; `since()` reads the page writes logged after the mark (one run at a time). */
export function markLog(app: MedusaApp) {
  const from = app.logs().length
  return { since: () => pageWritesIn(app.logs().slice(from)), profile: () => profileSums(app.logs().slice(from)) }
}

const PROFILE_LINE = /catalog sync profile: (.+?) ([\d.]+) ms/g

/** With BENCH_PROFILE=1: the app's profile lines summed by label (step or module call), largest first. */
export function profileSums(logText: string): Array<[string, number]> {
  const sums = new Map<string, number>()
  for (const m of logText.matchAll(PROFILE_LINE)) {
    const label = m[1].replace(/\d+/g, "N")
    sums.set(label, (sums.get(label) ?? 0) + Number(m[2]))
  }
  return [...sums].sort((a, b) => b[1] - a[1])
}
