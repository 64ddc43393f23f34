import { storefrontSetupOnce, type SetupRecord } from "../ensure-shop-setup"

const REGION = { create: true, name: "Україна", countries: ["ua"] }

/** A store whose metadata record persists across runs, and a region step that may fail. */
function shop(opts: { regionFails: boolean }) {
  let stored: SetupRecord = {}
  const linked: string[] = []
  const run = (channelId: string) =>
    storefrontSetupOnce({ ...stored }, channelId, REGION, {
      linkKeys: async (id) => void linked.push(id),
      ensureRegion: async () => {
        if (opts.regionFails) throw new Error("country ua is already assigned to a region")
      },
      record: async (patch) => void (stored = { ...stored, ...patch }),
    }).catch(() => undefined)
  return { run, linked, stored: () => stored }
}

describe("storefrontSetupOnce", () => {
  it("adds the channel to the publishable keys once, even when the region step fails on every run", async () => {
    const s = shop({ regionFails: true })
    await s.run("sc_1")
    await s.run("sc_1")
    await s.run("sc_1")
    // A key the admin narrows after the first run must stay narrowed.
    expect(s.linked).toEqual(["sc_1"])
    expect(s.stored()).toEqual({ keys_channel_id: "sc_1" })
  })

  it("does each step once, and the keys again for a new channel", async () => {
    const s = shop({ regionFails: false })
    await s.run("sc_1")
    await s.run("sc_1")
    expect(s.linked).toEqual(["sc_1"])
    expect(s.stored()).toEqual({ keys_channel_id: "sc_1", region_done: true })
    await s.run("sc_2")
    expect(s.linked).toEqual(["sc_1", "sc_2"])
  })
})
