// The test-only hooks a run is handed: parsed from the environment the runtime resolved, limited
// to the pages and the run mode they name, and no-ops when unset.
import { testHooksFrom } from "../test-hooks"

/** Whether the hook's promise is still waiting after the fake clock moved `ms`. */
async function waitsFor(promise: Promise<void>, ms: number): Promise<boolean> {
  let done = false
  void promise.then(() => (done = true))
  await jest.advanceTimersByTimeAsync(ms)
  return !done
}

describe("testHooksFrom", () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it("delays only the pages named, and only in runs of the mode named", async () => {
    const hooks = testHooksFrom({ CATALOG_SYNC_TEST_PAGE_DELAY_MS: "5000@2,3", CATALOG_SYNC_TEST_HOOK_MODE: "full" })
    expect(await waitsFor(hooks.beforePageWrite(2, "full"), 4_999)).toBe(true)
    expect(await waitsFor(hooks.beforePageWrite(1, "full"), 0)).toBe(false)
    expect(await waitsFor(hooks.beforePageWrite(2, "changes"), 0)).toBe(false)
  })

  it("waits before held removals are applied, whatever the mode", async () => {
    const hooks = testHooksFrom({ CATALOG_SYNC_TEST_HELD_APPLY_DELAY_MS: "3000", CATALOG_SYNC_TEST_HOOK_MODE: "changes" })
    expect(await waitsFor(hooks.beforeHeldApply(), 2_999)).toBe(true)
  })

  it("does nothing when unset or unreadable", async () => {
    const hooks = testHooksFrom({ CATALOG_SYNC_TEST_PAGE_DELAY_MS: "soon" })
    expect(await waitsFor(hooks.beforePageWrite(1, "full"), 0)).toBe(false)
    expect(await waitsFor(hooks.beforeHeldApply(), 0)).toBe(false)
  })
})
