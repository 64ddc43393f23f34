// The safety brake as the admin reads it (pure): the paused run the status names, why it paused
// and what it would do. Read defensively: the preview is the run's `brake` ({ reasons, preview },
// src/pricing/brake.ts), found on the status's paused run or on the last/running run.
import type { BrakePreview, BrakeReason } from "../../pricing/brake"
import { brakePercentText } from "../../pricing/percent-text"
import { formatCount } from "./format"
import type { Run, SyncStatus } from "./types"

export type PausedRun = { run: Run; reasons: BrakeReason[]; preview: BrakePreview | null }

type WithBrake = Run & { brake?: { reasons?: BrakeReason[]; preview?: BrakePreview | null } | null }

/** The run waiting for the admin's confirm or discard, or null. */
export function pausedRunOf(status: SyncStatus | null | undefined): PausedRun | null {
  if (!status) return null
  const s = status as SyncStatus & { paused_run?: WithBrake | null; paused?: { run_id?: string; run?: WithBrake | null; brake?: WithBrake["brake"] } | null }
  // GET /status: `paused: {run_id, run, brake}` while a run waits for the admin.
  const fromPaused = s.paused?.run ? { ...s.paused.run, status: "paused" as const, brake: s.paused.brake ?? s.paused.run.brake } : null
  const candidates = [fromPaused, s.paused_run, s.running_run as WithBrake | null, s.last_run as WithBrake | null]
  const run = candidates.find((r): r is WithBrake => !!r && r.status === "paused")
  if (!run) return null
  return { run, reasons: Array.isArray(run.brake?.reasons) ? run.brake!.reasons! : [], preview: run.brake?.preview ?? null }
}

/** The run itself when it waits for the admin's answer (the run page reads it from GET /runs/:id), else null. */
export function pausedRunOfRun(run: WithBrake): PausedRun | null {
  if (run.status !== "paused" || run.brake_resolution) return null
  return { run, reasons: Array.isArray(run.brake?.reasons) ? run.brake!.reasons! : [], preview: run.brake?.preview ?? null }
}

/** What a paused run waits for the answer about: "it would remove 30 products", "it would lower 4 prices steeply". */
export function pausedForText(paused: PausedRun): string {
  const removals = paused.preview?.removals.count ?? 0
  const drops = paused.preview?.steep_drops.count ?? 0
  return removals > 0
    ? `it would remove ${formatCount(removals)} ${removals === 1 ? "product" : "products"}`
    : drops > 0
      ? `it would lower ${formatCount(drops)} ${drops === 1 ? "price" : "prices"} steeply`
      : "the safety brake stopped it"
}

/**
 * What a paused run did to the shop, in words: a pause writes nothing of what it holds, so a run
 * whose written pages changed nothing says so instead of a count of products it read; once
 * answered it says the answer and where the run that carries it out is.
 */
export function pauseOutcomeText(run: Run): string {
  const changed = (run.created ?? 0) + (run.updated ?? 0) + (run.stock_only ?? 0) + (run.removed ?? 0) + (run.swept ?? 0)
  const held = (run as WithBrake).brake?.preview?.removals?.count ?? 0
  const wrote = changed === 0 ? "Nothing was written to the shop by this run." : `This run changed ${formatCount(changed)} products before it paused.`
  const heldText = held > 0 ? ` It held ${formatCount(held)} removals for your answer.` : ""
  const action = run.brake_resolution?.action
  if (action === "discarded")
    return `${wrote}${heldText} You discarded ${held > 0 ? "them: none of them is removed, and the products stay in the shop" : "what it held: it was not written"}.`
  if (action === "confirmed")
    return `${wrote}${heldText} You confirmed: the run that continues it ${held > 0 ? "removes exactly those" : "writes what it held"}.`
  return `${wrote}${heldText}`
}

/**
 * Why the run paused, in the brake's own words, and what it has not written: removals are held
 * until a run has read its last page (none of them is removed while it waits); a price-drop
 * pause stops before the page whose prices would drop (nothing of that page is written).
 */
export function brakeHeadline(paused: PausedRun): string {
  if (paused.reasons.length === 0) return "The safety brake paused this run."
  const codes = new Set(paused.reasons.map((r) => r.code))
  const held = codes.has("removals") ? " None of these products has been removed." : ""
  const page = codes.has("price_drops") ? " No price of the paused page has been written." : ""
  return `The safety brake paused this run: it ${paused.reasons.map((r) => r.message).join("; and it ")}.${held}${page}`
}

/** The admin's page of a product the preview names (the dashboard's own route). */
export const productPagePath = (productId: string) => `/products/${encodeURIComponent(productId)}`

/**
 * A paused run's phase in the run states' words: waiting for the answer, or the answer and the
 * run that carried it out ("Removals confirmed, continued by …"), never "Paused" once answered.
 */
export function pausedPhase(run: Run): { text: string; continued_by: string | null } | null {
  if (run.status !== "paused") return null
  const resolution = run.brake_resolution
  const action = resolution?.action
  if (action !== "confirmed" && action !== "discarded") return { text: "Paused by the safety brake: waiting for your answer", continued_by: null }
  const what = (resolution?.removals ?? 0) > 0 ? "Removals" : (resolution?.price_drops ?? 0) > 0 ? "Price drops" : "The paused page"
  return { text: `${what} ${action}`, continued_by: resolution?.continued_by ?? null }
}

/**
 * The brake panel's lines in the reason's own figures (brakePercentText, src/pricing/percent-text.ts):
 * "Would remove 7 products (23.3 % of the shop's catalog products)", never "23.3 %" in the reason
 * and "23.33 %" on the next line. A preview stored before `share_text` is written from its
 * 2-decimal share the same way.
 */
export function brakeRemovalsLine(preview: BrakePreview): string {
  const r = preview.removals
  const share = r.share_text ?? (r.share_percent ? brakePercentText(r.share_percent, preview.thresholds.removal_percent) : null)
  return `Would remove ${formatCount(r.count)} ${r.count === 1 ? "product" : "products"}${share ? ` (${share} % of ${brakeBaseText(r.base)})` : ""}`
}

/**
 * What the removals' share is of, as the server computed it (`removals.base`): "the 300 products
 * the shop held from the catalog when the run started, not counting 5 kept by your discard and 2
 * kept for open orders". A preview stored before the base was recorded: "the shop's catalog products".
 */
export function brakeBaseText(base: BrakePreview["removals"]["base"]): string {
  if (!base) return "the shop's catalog products"
  const left: string[] = []
  if (base.kept_by_discard > 0) left.push(`${formatCount(base.kept_by_discard)} kept by your discard`)
  if (base.kept_for_orders > 0) left.push(`${formatCount(base.kept_for_orders)} kept for open orders`)
  const what = `the ${formatCount(base.products)} ${base.products === 1 ? "product" : "products"} the shop held from the catalog when the run started`
  return left.length ? `${what}, not counting ${left.join(" and ")}` : what
}

export function brakeDropsLine(preview: BrakePreview): string {
  const d = preview.steep_drops
  const share = d.share_text ?? (d.share_percent ? brakePercentText(d.share_percent, preview.thresholds.lowered_prices_percent) : null)
  return `Would lower ${formatCount(d.count)} ${d.count === 1 ? "price" : "prices"} by more than ${preview.thresholds.price_drop_percent} %${share ? ` (${share} % of the shop's prices)` : ""}`
}

/** One drop of the panel's table: "−90 %", as the reason writes percents. */
export function brakeDropText(drop: BrakePreview["steep_drops"]["sample"][number], preview: BrakePreview): string {
  return `−${drop.drop_text ?? brakePercentText(drop.drop_percent, preview.thresholds.price_drop_percent) ?? drop.drop_percent} %`
}

/**
 * The words for the run that carried an answer out, linked to its page on the run page: "continued
 * by the next run". Its id is no word for the admin: it goes inside a "Details" disclosure.
 */
export const CONTINUED_BY_WORDS = { before: "continued by", link: "the next run" } as const

/** A paused run's phase as one line of text: "Removals discarded, continued by the next run". */
export function pausedPhaseText(phase: { text: string; continued_by: string | null }): string {
  return phase.continued_by ? `${phase.text}, ${CONTINUED_BY_WORDS.before} ${CONTINUED_BY_WORDS.link}` : phase.text
}
