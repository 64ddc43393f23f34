// The safety brake as the admin reads it (pure): the paused run the status names, why it paused
// and what it would do. Read defensively: the preview is the run's `brake` ({ reasons, preview },
// src/pricing/brake.ts), found on the status's paused run or on the last/running run.
import type { BrakePreview, BrakeReason } from "../../pricing/brake"
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
