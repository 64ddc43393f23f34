// Display formatting for the admin UI: money, counts, durations and dates.
// Money arrives as decimal strings and is formatted as text, never via floats. Counts use the
// plugin's one number format (src/sync/number-format.ts), which the notifications use too.
import { formatCount, groupThousands } from "../../sync/number-format"

export { formatCount }

/** A count with its noun: "1 product", "2,005 products" (`plural` when not noun + "s"). */
export function formatCountOf(value: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(value)} ${value === 1 ? noun : plural}`
}

/** "1300.5" -> "1,300.50 ₴"; null/invalid -> "—". */
export function formatUah(amount: string | null | undefined): string {
  const plain = formatAmount(amount)
  return plain === "—" ? plain : `${plain} ₴`
}

/** "1300.5" -> "1,300.50", for a column whose header names the currency; null/invalid -> "—". */
export function formatAmount(amount: string | null | undefined): string {
  if (amount === null || amount === undefined) return "—"
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(amount.trim())
  if (!match) return "—"
  const [, sign, whole, fraction = ""] = match
  const cents = (fraction + "00").slice(0, 2)
  return `${sign}${groupThousands(whole.replace(/^0+(?=\d)/, ""))}.${cents}`
}

/** Milliseconds -> "850 ms", "12 s", "3 min 05 s", "1 h 02 min". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "—"
  if (ms < 1000) return `${Math.round(ms)} ms`
  const totalSeconds = Math.floor(ms / 1000)
  if (totalSeconds < 60) return `${totalSeconds} s`
  const hours = Math.floor(totalSeconds / 3600)
  const minutes = Math.floor((totalSeconds % 3600) / 60)
  const seconds = totalSeconds % 60
  if (hours === 0) return `${minutes} min ${String(seconds).padStart(2, "0")} s`
  return `${hours} h ${String(minutes).padStart(2, "0")} min`
}

function toTime(iso: string | null | undefined): number | null {
  if (!iso) return null
  const time = Date.parse(iso)
  return Number.isNaN(time) ? null : time
}

/** How long a run took, or has taken so far while it runs. */
export function runDurationMs(run: { started_at: string | null; finished_at: string | null }, now: number = Date.now()): number | null {
  const start = toTime(run.started_at)
  if (start === null) return null
  const end = toTime(run.finished_at) ?? now
  return Math.max(0, end - start)
}

/** "21 Nov 2026, 05:40" in the admin's time zone (or the one given, for tests). */
export function formatDateTime(iso: string | null | undefined, timeZone?: string): string {
  const time = toTime(iso)
  if (time === null) return "—"
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(new Date(time))
}

/** "1 Dec 2026" in the admin's time zone (or the one given, for tests): a date without its time, as formatDateTime writes it. */
export function formatDate(iso: string | null | undefined, timeZone?: string): string {
  const time = toTime(iso)
  if (time === null) return "—"
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone }).format(new Date(time))
}

/** "in 4 min", "3 h ago", "just now", relative to `now`. */
export function formatRelative(iso: string | null | undefined, now: number = Date.now()): string {
  const time = toTime(iso)
  if (time === null) return "—"
  const diff = time - now
  const abs = Math.abs(diff)
  if (abs < 45_000) return diff > 0 ? "in a moment" : "just now"
  let text: string
  if (abs < 3_600_000) text = `${Math.max(1, Math.round(abs / 60_000))} min`
  else if (abs < 86_400_000) text = `${Math.round(abs / 3_600_000)} h`
  else text = `${Math.round(abs / 86_400_000)} d`
  return diff > 0 ? `in ${text}` : `${text} ago`
}
