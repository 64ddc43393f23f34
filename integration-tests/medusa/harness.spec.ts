import { createTestDatabase, startMedusaApp, MedusaApp } from "../harness"
import { sql } from "./poll-and-query"

jest.setTimeout(240_000)

describe("integration harness", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp

  beforeAll(async () => {
    db = await createTestDatabase("harness")
    app = await startMedusaApp({ databaseUrl: db.url, label: "harness" })
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
  })

  it("boots the demo app with the plugin and logs in as the admin", async () => {
    const products = await app.admin("/admin/products?limit=1")
    expect(products.status).toBe(200)
    expect(products.body.products).toEqual([])
    expect(app.logs()).toContain("Server is ready")
  })

  it("serves the store API with a publishable key", async () => {
    const res = await app.store("/store/products?limit=1")
    expect(res.status).toBe(200)
  })
  it("migrates the plugin's tables that every changes page updates with room for updates beside each row", async () => {
    const rows = await sql(db.url, "select relname, reloptions from pg_class where relname in ('mcs_variant_cost', 'mcs_product_map') order by relname")
    expect(rows).toEqual([
      { relname: "mcs_product_map", reloptions: ["fillfactor=70"] },
      { relname: "mcs_variant_cost", reloptions: ["fillfactor=70"] },
    ])
  })
})
