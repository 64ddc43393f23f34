// The page's change-log insert (src/modules/catalog_sync/sql/change-log.ts) against the catalog_sync
// module's own create: the same rows through both, compared column by column (ids by their
// format, created_at / updated_at by presence), and the step's compensation removing them.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "../harness"

jest.setTimeout(300_000)

const SCRIPT = path.join(__dirname, "bulk-write", "change-log.exec.ts")

describe("change-log rows inserted in bulk are the module's rows", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let out: any

  beforeAll(async () => {
    db = await createTestDatabase("change_log_rows")
    const file = path.join(os.tmpdir(), `change-log-rows-${process.pid}.json`)
    await runMedusaCommand(["exec", SCRIPT, file], { DATABASE_URL: db.url }, 240_000)
    out = JSON.parse(fs.readFileSync(file, "utf8"))
    fs.rmSync(file, { force: true })
  })

  afterAll(async () => {
    await db?.drop()
  })

  it("stores every kind of row as createCatalogSyncRunChanges does", () => {
    expect(out.stored.sql).toEqual(out.stored.module)
    // Not vacuous: six rows, every column there, the defaults as the model's.
    expect(out.stored.sql).toHaveLength(6)
    expect(out.stored.sql.find((r: any) => r.catalog_id === "2")).toEqual({
      id: "<cschg>",
      run_id: "<run>",
      catalog_id: "2",
      product_id: "prod_2",
      title: "B",
      kind: "updated",
      price_changed: true,
      stock_changed: false,
      sizes_changed: true,
      images_changed: true,
      text_changed: true,
      price_before: "1200.00",
      price_after: "1287.50",
      reason: null,
      held: null,
      created_at: "<ts>",
      updated_at: "<ts>",
      deleted_at: null,
    })
  })

  it("stores more rows than one statement holds, ids in the rows' order", () => {
    expect(out.idsStored).toBe(true)
    expect(out.many).toEqual({ count: 1203, ids: 1203, match: true })
  })

  it("leaves nothing once the step's compensation deleted the returned ids", () => {
    expect(out.leftAfterCompensation).toBe(0)
  })
})
