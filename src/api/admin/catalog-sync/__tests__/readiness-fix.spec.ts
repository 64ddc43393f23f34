// POST /admin/catalog-sync/readiness/fix {check: "drafts"} starts a full sync: like
// POST /admin/catalog-sync/runs, it must not start one for a sync that is disabled or not set up.
import { CATALOG_SYNC_MODULE } from "../../../../modules/catalog_sync/module-name"
import { CATALOG_SYNC_RUNTIME_MODULE } from "../../../../modules/catalog_sync_runtime/module-name"
import { POST } from "../readiness/fix/route"

let enqueued: unknown[] = []
const runtime = { queue: async () => ({ enqueueRun: async (input: unknown) => void enqueued.push(input) }) }

function call(settings: { baseUrl: string | null; apiKey: string | null; enabled: boolean }) {
  const service = {
    getEffectiveSettings: async () => ({
      salesChannelId: null,
      stockLocationId: null,
      region: { create: true, name: "Україна", countries: ["ua"] },
      ...settings,
    }),
  }
  const req: any = {
    body: { check: "drafts" },
    scope: {
      resolve: (key: string) => (key === CATALOG_SYNC_MODULE ? service : key === CATALOG_SYNC_RUNTIME_MODULE ? runtime : { warn() {}, info() {} }),
    },
  }
  const res: any = {
    statusCode: 200,
    body: undefined as any,
    status(code: number) {
      this.statusCode = code
      return this
    },
    json(body: unknown) {
      this.body = body
      return this
    },
  }
  return { req, res }
}

describe("POST /admin/catalog-sync/readiness/fix: drafts", () => {
  beforeEach(() => {
    enqueued = []
  })

  it.each([
    ["the sync is disabled", { baseUrl: "https://catalog.example.com", apiKey: "k", enabled: false }, "enabled"],
    ["no key is set", { baseUrl: "https://catalog.example.com", apiKey: null, enabled: true }, "api_key"],
    ["no address is set", { baseUrl: null, apiKey: "k", enabled: true }, "base_url"],
  ])("starts no sync when %s (400 on the field)", async (_what, settings, field) => {
    const { req, res } = call(settings)
    // (The checklist read after a fix needs a real container; here only the refusal matters.)
    await POST(req, res).catch(() => undefined)
    expect(enqueued).toEqual([])
    expect(res.statusCode).toBe(400)
    expect(res.body).toMatchObject({ type: "invalid_data", field })
  })
})
