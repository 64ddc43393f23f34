// Issue 43 (review of the admin): the bell said when the catalog refused the key or the plan, but
// never when a run succeeded again after it. CatalogSyncAlerts over a fake container (the runs as
// the module lists them, Medusa's notification module as a recorder): after a success that ends a
// refusal, one `feed` notification says syncing goes on; another success says nothing more.
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { CatalogSyncAlerts } from "../catalog-sync-alerts"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"

type Row = { id: string; status: string; error_code: string | null; created_at: Date; progress?: unknown }

function testbed(runs: Row[]) {
  const sent: { channel: string; idempotency_key: string; data: { title: string; description: string; kind: string } }[] = []
  const service = {
    retrieveCatalogSyncRun: async (id: string) => runs.find((r) => r.id === id)!,
    listCatalogSyncRuns: async (filter: { status?: string[]; created_at?: { $lt: Date } }, config: { take?: number }) =>
      runs
        .filter((r) => (!filter.status || filter.status.includes(r.status)) && (!filter.created_at || r.created_at < filter.created_at.$lt))
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime())
        .slice(0, config.take ?? Infinity),
    getEffectiveSettings: async () => ({ alertEmail: null }),
  }
  const notifications = {
    createNotifications: async (n: (typeof sent)[number]) => {
      if (sent.some((s) => s.idempotency_key === n.idempotency_key)) throw new Error("duplicate idempotency_key")
      sent.push(n)
    },
    listNotifications: async (filter: { idempotency_key: string }) => sent.filter((s) => s.idempotency_key === filter.idempotency_key),
  }
  const container = {
    resolve: (key: string) => {
      if (key === CATALOG_SYNC_MODULE) return service
      if (key === Modules.NOTIFICATION) return notifications
      if (key === ContainerRegistrationKeys.CONFIG_MODULE) return { admin: { path: "/app" } }
      throw new Error(`not registered: ${key}`)
    },
  }
  const alerts = new CatalogSyncAlerts({ container: () => container as never, logger: { info: () => undefined, warn: () => undefined } })
  const end = (runId: string) => ({ runId, status: "succeeded", settings: { revision: 2, apiKeyHash: "h", apiKeyLast4: "1234" }, quota: null, account: null })
  return { sent, alerts, end }
}

const at = (minute: number) => new Date(Date.UTC(2026, 11, 7, 6, minute))

describe("the bell after a refused key is fixed", () => {
  it("says once that syncing goes on", async () => {
    const runs: Row[] = [
      { id: "csrun_1", status: "succeeded", error_code: null, created_at: at(0) },
      { id: "csrun_2", status: "failed", error_code: "invalid_api_key", created_at: at(10) },
      { id: "csrun_3", status: "succeeded", error_code: null, created_at: at(20) },
    ]
    const { sent, alerts, end } = testbed(runs)
    alerts.afterRun(end("csrun_3"))
    await alerts.settle()
    const unblocked = sent.filter((s) => s.data.kind === "sync_unblocked")
    expect(unblocked.map((s) => [s.channel, s.idempotency_key, s.data.title])).toEqual([
      ["feed", "catalog-sync:sync_unblocked:csrun_2:feed", "Catalog sync goes on: the API key is accepted again"],
    ])
    // The next success: the refusal already ended, nothing more.
    runs.push({ id: "csrun_4", status: "succeeded", error_code: null, created_at: at(30) })
    alerts.afterRun(end("csrun_4"))
    await alerts.settle()
    expect(sent.filter((s) => s.data.kind === "sync_unblocked")).toHaveLength(1)
  })
})
