import { queueFirstSyncIfNeverSynced } from "../first-sync"

function setup(opts: { phase?: string; cursor?: string | null; baseUrl?: string | null; apiKey?: string | null; enabled?: boolean; blocked?: boolean }) {
  const settings: any = {
    baseUrl: opts.baseUrl === undefined ? "http://127.0.0.1:1" : opts.baseUrl,
    apiKey: opts.apiKey === undefined ? "key-1234" : opts.apiKey,
    enabled: opts.enabled ?? true,
    revision: 3,
  }
  const state: any = {
    id: "s",
    phase: opts.phase ?? "never",
    cursor: opts.cursor ?? null,
    blocked_code: opts.blocked ? "invalid_api_key" : null,
    blocked_revision: opts.blocked ? 3 : null,
  }
  const calls: unknown[] = []
  const service: any = { getEffectiveSettings: async () => settings, getState: async () => state }
  const queue = {
    enqueueRun: async (input: unknown) => {
      calls.push(input)
      return { run: { id: "run_1" } as any, alreadyRunning: false }
    },
  }
  return { service, queue, calls }
}

describe("queueFirstSyncIfNeverSynced", () => {
  it("queues a full run for a configured shop that never synced", async () => {
    const { service, queue, calls } = setup({})
    const result = await queueFirstSyncIfNeverSynced({ service, queue })
    expect(result?.run.id).toBe("run_1")
    expect(calls).toEqual([{ mode: "full", trigger: "settings" }])
  })

  it.each([
    ["a shop that synced before", { phase: "changes" }],
    ["a full pass already under way", { phase: "full_export" }],
    ["a stored cursor", { cursor: "c1" }],
    ["no key", { apiKey: null }],
    ["no base URL", { baseUrl: null }],
    ["sync disabled", { enabled: false }],
    ["a key refused for these settings", { blocked: true }],
  ])("queues nothing for %s", async (_what, opts) => {
    const { service, queue, calls } = setup(opts)
    expect(await queueFirstSyncIfNeverSynced({ service, queue })).toBeNull()
    expect(calls).toEqual([])
  })
})
