// The sync engine against a real Medusa app (in-process, real PostgreSQL and Redis)
// and the sandbox over loopback HTTP: full sync, unchanged second sync, mutations and
// removals through the changes feed.
import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { REPO_ROOT } from "../harness/paths"
import { compareShop, readCatalog, readShop, service, settingsFor, sync } from "./engine-helpers"

jest.setTimeout(600_000)
process.env.DB_HOST ??= "localhost"
process.env.DB_USERNAME ??= "postgres"
process.env.DB_PASSWORD ??= ""

medusaIntegrationTestRunner({
  cwd: path.join(REPO_ROOT, "demo"),
  env: { DISABLE_ADMIN: "true" },
  testSuite: ({ getContainer }) => {
    let sb: Sandbox | undefined
    afterEach(async () => {
      await sb?.close()
      sb = undefined
    })

    it("full sync of 600 products equals the catalog; a second sync writes nothing; mutations and removals sync", async () => {
      const container = getContainer()
      sb = await startSandbox({ products: 600, seed: 7, apiKey: "engine-key", rpm: 100_000, concurrency: 3 })
      const settings = settingsFor(sb.baseUrl, sb.apiKey)

      const first = await sync(container, settings)
      expect(first.result).toEqual({ status: "succeeded" })
      expect(first.run.created).toBe(600)
      expect(first.run.skipped).toBe(0)
      let cards = await readCatalog(sb.baseUrl, sb.apiKey)
      expect(cards).toHaveLength(600)
      expect(compareShop(cards, await readShop(container))).toEqual([])
      const [state] = await service(container).listCatalogSyncStates()
      expect(state.cursor).toBeTruthy()
      expect(state.phase).toBe("changes")
      expect(state.full_pass_id).toBeNull()

      // Nothing changed: a changes run and a full run write nothing.
      const again = await sync(container, settings)
      expect(again.result.status).toBe("succeeded")
      expect(again.run.created + again.run.updated + again.run.stock_only + again.run.removed).toBe(0)
      const full = await sync(container, settings, "full")
      expect(full.result.status).toBe("succeeded")
      expect(full.run.unchanged).toBe(600)
      expect(full.run.created + full.run.updated + full.run.stock_only + full.run.removed + full.run.swept).toBe(0)

      // Mutations of every kind, then a changes run.
      const mutated = (await sb.control.mutate({ count: 120 })) as { changed: string[]; removed: string[]; added: string[] }
      expect(mutated.removed.length).toBeGreaterThan(0)
      const changes = await sync(container, settings)
      expect([changes.result.status, changes.run.error_message]).toEqual(["succeeded", null])
      expect(changes.run.removed).toBe(new Set(mutated.removed).size)
      expect(changes.run.stock_only).toBeGreaterThan(0)
      expect(changes.run.updated).toBeGreaterThan(0)
      cards = await readCatalog(sb.baseUrl, sb.apiKey)
      const shop = await readShop(container)
      expect(compareShop(cards, shop)).toEqual([])
      for (const id of mutated.removed) expect(shop.has(id)).toBe(false)
    })
  },
})
