// Issue 43: with the plan expired, saving the settings (only the poll interval changed) turned
// "Plan required" into "Failed · next run in 5 min", and the next run was refused again.
import { blockOnSave, keyOrAddressChange } from "../settings/block-on-save"

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

describe("keyOrAddressChange", () => {
  it("a new key or address is a change Save verified", () => {
    expect(keyOrAddressChange({ api_key: "k2" }, "https://a")).toEqual({ changed: true, verified: true })
    expect(keyOrAddressChange({ base_url: "https://b" }, "https://a")).toEqual({ changed: true, verified: true })
  })
  it("the saved key dropped for the option's key is a change, not verified: the block lifts and the next run tries that key", () => {
    // Asking /v1/me with the dropped (revoked) key kept the page on "Key refused" with the option's working key.
    expect(keyOrAddressChange({ api_key: null }, "https://a")).toEqual({ changed: true, verified: false })
    expect(blockOnSave({ blocked: true, ...{ keyOrAddressChanged: keyOrAddressChange({ api_key: null }, "https://a").changed }, check: null })).toBe("lift")
  })
  it("the same address, or no key field, is no change", () => {
    expect(keyOrAddressChange({ base_url: "https://a" }, "https://a")).toEqual({ changed: false, verified: false })
    expect(keyOrAddressChange({}, "https://a")).toEqual({ changed: false, verified: false })
  })
})
