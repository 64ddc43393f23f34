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

/**
 * Whether a save changes the key or address the runs will use: a new key or address (Save verified
 * it first: `verified`), or the saved key dropped (`api_key: null`) for the plugin option's key,
 * which the block's refusal never judged; asking /v1/me with the dropped key would carry the block.
 */
export function keyOrAddressChange(
  patch: { api_key?: string | null; base_url?: string | null },
  currentBaseUrl: string | null
): { changed: boolean; verified: boolean } {
  const verified = typeof patch.api_key === "string" || (patch.base_url !== undefined && patch.base_url !== currentBaseUrl)
  return { changed: verified || patch.api_key === null, verified }
}
