// What the plugin tells the shop owner through Medusa's Notification module (pure): each event's
// title, one line, the link to its run in the plugin's admin pages, and the key that makes it one
// notification however often its condition is seen again (retries, polls, instances, restarts).

import { classOfCode, isRefusalCode, type FailureClass } from "./failure-class"
import { formatCount } from "./number-format"
import { quotaPercent } from "./quota-level"

export type AlertEvent =
  /** A run stopped before a write the safety brake holds back; it waits for confirm or discard. */
  | { kind: "brake_paused"; runId: string; reasons: string[] }
  /**
   * The run that carried out the admin's answer to a pause ended: what the answer did (`held`: the
   * removals the pause held, `priceDrops`: the steep price drops it held).
   */
  | { kind: "brake_answered"; runId: string; answer: "confirmed" | "discarded"; held: number; priceDrops: number }
  /** The catalog answered 401 invalid_api_key or 403 plan_required: no sync until the settings change. */
  | { kind: "key_refused"; runId: string; code: string; revision: number; keyLast4: string | null }
  /**
   * After a refused key or plan (`refusedRunId`, its `code`), a run succeeded (`runId`): the sync is
   * unblocked and syncing goes on. Said once per refusal.
   */
  | { kind: "sync_unblocked"; runId: string; refusedRunId: string; code: string }
  /** Interrupted work resumed again and again without storing a cursor: no longer resumed automatically. */
  | { kind: "resume_stalled"; runId: string; stalled: number }
  /** More than QUOTA_ALERT_PERCENT of the day's request quota used. */
  | { kind: "quota_high"; runId: string; day: string; used: number; limit: number; keyLast4: string | null }
  /**
   * The day's request quota used up (X-Quota-Remaining 0, or a 429 daily_quota_exceeded).
   * `enforced`: whether the catalog stops answering past it (/v1/me's usage.quota_enforced); null when not known.
   * `passed`: a request was counted past it (a catalog that does not enforce it); else it was reached.
   */
  | { kind: "quota_spent"; runId: string; day: string; keyLast4: string | null; enforced?: boolean | null; passed?: boolean }
  /** Two runs in a row failed (`since`: the last run that succeeded before them, or null). */
  | { kind: "failed_twice"; runId: string; since: string | null; errorCode: string | null; errorMessage: string | null }
  /** No run started for two poll intervals although the shop is configured (`runId`: the last run). */
  | { kind: "sync_overdue"; runId: string; since: string; pollEveryMs: number }

export type AlertKind = AlertEvent["kind"]

export type AlertContent = { title: string; description: string }

/**
 * Where the admin finds the run: Medusa 2.21's bell shows only a title, a description and a file
 * download (it never reads `data.url`), so an entry cannot link to the run and says where it is.
 */
const WHERE_THE_RUN_IS = "Catalog sync in the sidebar"

/** The dashboard's bell and an email subject show the title; the line stays one line. */
const MAX_LINE = 300

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > MAX_LINE ? `${flat.slice(0, MAX_LINE - 1)}…` : flat
}

export function alertContent(event: AlertEvent): AlertContent {
  switch (event.kind) {
    case "brake_paused":
      // A bell entry is never rewritten: its words stay true after the answer (which has its own entry).
      return {
        title: "Catalog sync paused by the safety brake",
        description: oneLine(
          `A run paused for your confirm or discard: ${event.reasons.join("; ") || "see the run"}. ${WHERE_THE_RUN_IS} has its preview and your answer.`
        ),
      }
    case "brake_answered":
      return brakeAnsweredContent(event)
    case "key_refused":
      return {
        // A plan problem is not the key's: the key was accepted, so the title must not send the admin to replace it.
        title: event.code === "plan_required" ? "The catalog account's plan has no API access" : "The catalog refused the API key",
        description: oneLine(
          event.code === "plan_required"
            ? "The catalog account's plan has no API access or has ended. Syncing stops until the plan is renewed and the settings are saved again."
            : "The key is wrong or was revoked. Syncing stops until a new key is saved in the catalog sync settings."
        ),
      }
    case "sync_unblocked":
      return event.code === "plan_required"
        ? {
            title: "Catalog sync goes on: the plan is accepted again",
            description: "The catalog account's plan has API access again and a run succeeded, so syncing goes on.",
          }
        : {
            title: "Catalog sync goes on: the API key is accepted again",
            description: "The catalog accepts the API key again and a run succeeded, so syncing goes on.",
          }
    case "resume_stalled":
      return {
        title: "Catalog sync stopped resuming",
        description: oneLine(
          `Interrupted work was resumed ${event.stalled} times without progress and is no longer resumed automatically; the next scheduled run or "Sync now" continues it.`
        ),
      }
    case "quota_high":
      return {
        title: "Catalog API quota over 80 %",
        description: oneLine(`${formatCount(event.used)} of today's ${formatCount(event.limit)} requests used (${quotaPercent(event.used, event.limit)} %).`),
      }
    case "quota_spent":
      // Said as it is: a catalog that does not enforce its quota went on answering, and so did syncing.
      // "Passed" only when a request was counted over the quota; at the limit it is used up.
      return event.enforced === false
        ? event.passed
          ? {
              title: "Catalog API quota passed",
              description:
                "Today's requests passed this key's daily quota. The catalog does not enforce it for this account, so syncing went on; a plan that enforces it would stop syncing until 00:00 UTC.",
            }
          : {
              title: "Catalog API quota used up",
              description:
                "Today's requests reached this key's daily quota. The catalog does not enforce it for this account, so syncing goes on; a plan that enforces it would stop syncing until 00:00 UTC.",
            }
        : event.enforced
          ? {
              title: "Catalog API quota used up",
              description: "Today's request quota for this key is used up. The catalog answers again after its reset at 00:00 UTC, and syncing goes on then.",
            }
          : {
              title: "Catalog API quota used up",
              description:
                "Today's request quota for this key is used up. Runs go on while the catalog still answers; if it refuses them, syncing waits for its reset at 00:00 UTC.",
            }
    case "failed_twice":
      // The bell has no details disclosure: plain words only; the code and message are on the run's page.
      return {
        title: "Catalog sync failed twice in a row",
        description: oneLine(`The last two runs failed: ${failureWords(event.errorCode)}. ${WHERE_THE_RUN_IS} has the runs and their details.`),
      }
    case "sync_overdue":
      return {
        title: "Catalog sync has not run",
        description: oneLine(
          `No sync started since ${event.since}, over two poll intervals (${event.pollEveryMs >= 60_000 ? `${Math.round(event.pollEveryMs / 60_000)} min` : `${Math.round(event.pollEveryMs / 1000)} s`} each). Check that a worker instance runs and reaches Redis; "Sync now" starts one.`
        ),
      }
  }
}

function brakeAnsweredContent(event: Extract<AlertEvent, { kind: "brake_answered" }>): AlertContent {
  const products = (n: number) => `${formatCount(n)} ${n === 1 ? "product" : "products"}`
  const prices = (n: number) => `${formatCount(n)} ${n === 1 ? "price" : "prices"}`
  if (event.held > 0) {
    return event.answer === "confirmed"
      ? { title: "Removals confirmed", description: `${products(event.held)} removed from the shop, as you confirmed.` }
      : {
          title: "Removals discarded",
          description: `${products(event.held)} kept in the shop, as you discarded ${event.held === 1 ? "its" : "their"} removal. The Catalog sync page lists ${event.held === 1 ? "it" : "them"} with a Remove button.`,
        }
  }
  return event.answer === "confirmed"
    ? { title: "Price drops confirmed", description: `${prices(event.priceDrops)} lowered, as you confirmed.` }
    : { title: "Price drops discarded", description: `${prices(event.priceDrops)} kept at their earlier amount, as you discarded the drops.` }
}

const FAILURE_CODE_WORDS: Record<string, string> = {
  invalid_api_key: "the catalog refused the API key",
  plan_required: "the catalog account's plan has no API access",
  daily_quota_exceeded: "today's request quota for this key is used up",
  rate_limited: "the catalog kept limiting the requests",
}

const FAILURE_CLASS_WORDS: Record<FailureClass, string> = {
  network: "the catalog could not be reached",
  dns: "the catalog's address could not be found",
  timeout: "the catalog did not answer in time",
  tls: "the secure connection to the catalog failed",
  server: "the catalog answered with a server error",
  rate_limited: "the catalog kept limiting the requests",
  database: "the shop's database connection was lost",
  refused: "the catalog refused the key or the plan",
  invalid: "the catalog refused the request or the settings are incomplete",
  internal: "an unexpected error in the sync",
}

/** What ended a failed run, in the shop owner's words (never its code). */
export function failureWords(code: string | null | undefined): string {
  if (!code) return "the reason was not recorded"
  const cls = classOfCode(code)
  return FAILURE_CODE_WORDS[code] ?? (cls ? FAILURE_CLASS_WORDS[cls] : FAILURE_CLASS_WORDS.internal)
}

/**
 * The event's identity: the same event seen again (a retry, the next poll, another instance, a
 * restart) has the same key, and Medusa's notification table keeps one row per key.
 */
export function alertKey(event: AlertEvent): string {
  const key = (...parts: (string | number | null)[]) => ["catalog-sync", event.kind, ...parts.map((p) => p ?? "-")].join(":")
  switch (event.kind) {
    case "brake_paused":
    case "brake_answered":
    case "resume_stalled":
    case "sync_overdue":
      // sync_overdue: one per stop, named by the last run before it.
      return key(event.runId)
    case "key_refused":
      // A refusal lasts until the settings change (each save bumps the revision).
      return key(event.code, `r${event.revision}`, event.keyLast4)
    case "sync_unblocked":
      // Once per refusal: named by the refused run it ends.
      return key(event.refusedRunId)
    case "quota_high":
    case "quota_spent":
      return key(event.day, event.keyLast4)
    case "failed_twice":
      // One per streak of failures: the streak is named by the success before it.
      return key(event.since ?? "never_succeeded")
  }
}

export type EndedRun = { id: string; status: string; error_code?: string | null }

/**
 * A run succeeded: whether it ends a refusal. `earlier` are the runs ended before it, newest first.
 * The latest run before it that either succeeded or was refused decides: a refused one means the
 * sync was blocked until now (an unblocked entry, keyed by that refused run, so said once); a
 * success means it was not. Failures of other kinds, interruptions and pauses say neither.
 */
export function unblockedEvent(run: EndedRun, earlier: readonly EndedRun[]): Extract<AlertEvent, { kind: "sync_unblocked" }> | null {
  if (run.status !== "succeeded") return null
  for (const before of earlier) {
    if (before.id === run.id) continue
    if (before.status === "succeeded") return null
    if (before.status === "failed" && before.error_code && isRefusalCode(before.error_code))
      return { kind: "sync_unblocked", runId: run.id, refusedRunId: before.id, code: before.error_code }
  }
  return null
}

/** The run's page in the plugin's admin (under the dashboard's path, "/app" by default). */
export function runLink(adminPath: string, runId: string): string {
  const base = adminPath.replace(/\/+$/, "")
  return `${base}/settings/catalog-sync/runs/${encodeURIComponent(runId)}`
}

/** The link as an email can carry it: absolute when the admin's backend URL is (else as given). */
export function absoluteLink(backendUrl: string | null | undefined, link: string): string {
  if (!backendUrl || !/^https?:\/\//i.test(backendUrl)) return link
  return `${backendUrl.replace(/\/+$/, "")}${link}`
}
