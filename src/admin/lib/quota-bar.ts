// The sync page's "Requests today", from the one quota answer (GET /progress and GET /status
// `requests_today`, built by src/sync/requests-today.ts from the key's limiter, as the alerts
// are). Figures are shown only while they are current: a limit the catalog contradicted since
// /v1/me told it, or a key the catalog refuses, is said to be unknown rather than shown old.
import type { QuotaToday } from "../../sync/requests-today"
import { quotaPercent } from "../../sync/quota-level"
import { formatCount } from "./format"
import type { BadgeColor } from "./status"

export type QuotaLine =
  | { kind: "bar"; used: number; limit: number; percent: number; color: BadgeColor; label: string }
  | { kind: "spent"; percent: 100; color: BadgeColor; label: string }
  | { kind: "text"; text: string }

/** Green, orange from 75 %, red from 90 %. */
function colorOf(percent: number): BadgeColor {
  return percent >= 90 ? "red" : percent >= 75 ? "orange" : "green"
}

/**
 * `state`: the sync's state (GET /status): while the catalog refuses the key its figures are
 * not told. "not enforced" only when a current /v1/me said so and no request was refused for
 * the quota today.
 */
export function quotaLine(today: QuotaToday | null | undefined, state?: string | null): QuotaLine {
  if (state === "key_invalid") return { kind: "text", text: "Not known while the catalog refuses the key." }
  if (!today) return { kind: "text", text: "Unknown until the catalog answers." }
  if (today.used !== null && today.limit !== null && today.limit > 0) {
    const percent = quotaPercent(today.used, today.limit)
    const enforcement = today.enforced === false ? " · not enforced" : ""
    return {
      kind: "bar",
      used: today.used,
      limit: today.limit,
      percent,
      color: colorOf(percent),
      label: `${formatCount(today.used)} of ${formatCount(today.limit)} (${percent} %)${enforcement}`,
    }
  }
  if (today.spent) {
    return {
      kind: "spent",
      percent: 100,
      color: "red",
      label: today.enforced === true ? "Used up today: the catalog refuses requests until its reset at 00:00 UTC." : "None left today by the catalog's count.",
    }
  }
  if (today.stale && today.remaining !== null)
    return { kind: "text", text: `${formatCount(today.remaining)} left today; the daily limit is not known until the catalog tells the plan again.` }
  return { kind: "text", text: "Unknown until the catalog answers." }
}
