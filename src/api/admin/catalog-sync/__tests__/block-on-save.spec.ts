// Issue 43: with the plan expired, saving the settings (only the poll interval changed) turned
// "Plan required" into "Failed · next run in 5 min", and the next run was refused again.
import { blockOnSave } from "../settings/block-on-save"

describe("blockOnSave", () => {
  it("a save that does not change the key or address keeps the block while the catalog refuses", () => {
    expect(blockOnSave({ blocked: true, keyOrAddressChanged: false, check: "refused" })).toBe("carry")
    // No answer: no run is promised that the catalog may refuse.
    expect(blockOnSave({ blocked: true, keyOrAddressChanged: false, check: "unknown" })).toBe("carry")
    expect(blockOnSave({ blocked: true, keyOrAddressChanged: false, check: null })).toBe("carry")
  })
  it("lifts it once the catalog accepts the saved key and plan (a renewed plan), or with a new key or address", () => {
    expect(blockOnSave({ blocked: true, keyOrAddressChanged: false, check: "accepted" })).toBe("lift")
    expect(blockOnSave({ blocked: true, keyOrAddressChanged: true, check: null })).toBe("lift")
  })
  it("nothing blocked: nothing to do", () => {
    expect(blockOnSave({ blocked: false, keyOrAddressChanged: false, check: null })).toBe("none")
  })
})
