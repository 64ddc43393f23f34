// Whether a save lifts the block a refused key or plan put on the sync (401 invalid_api_key, 403
// plan_required, for the settings' revision). Every save bumps the revision, which used to lift
// any block: an expired plan, saved again with only the poll interval changed, read "Failed ·
// next run in 5 min" and the next run was refused again (issue 43). A block is lifted only by
// what can end it: a new key or address (Save verifies it against /v1/me first), or the catalog
// now accepting the saved key and plan (asked on the save).

/** What the catalog said of the saved key and plan on this save. */
export type KeyCheck = "accepted" | "refused" | "unknown"

/**
 * "lift" (the saved revision runs), "carry" (the block moves to the new revision: no run is
 * queued or promised), or "none" (nothing was blocked). An unanswered check carries it: a save
 * must not promise a run the catalog may refuse; the next save asks again.
 */
export function blockOnSave(input: { blocked: boolean; keyOrAddressChanged: boolean; check: KeyCheck | null }): "lift" | "carry" | "none" {
  if (!input.blocked) return "none"
  if (input.keyOrAddressChanged) return "lift"
  return input.check === "accepted" ? "lift" : "carry"
}
