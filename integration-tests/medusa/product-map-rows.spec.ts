// The page's product-map statements (src/modules/catalog_sync/sql/product-map.ts) against the
// catalog_sync module's own service: the same rows through both, compared column by column
// (ids by their format, created_at / updated_at by presence) after every kind of write.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "../harness"

jest.setTimeout(300_000)

const SCRIPT = path.join(__dirname, "bulk-write", "product-map.exec.ts")

describe("product-map rows written in bulk are the module's rows", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let out: any

  beforeAll(async () => {
    db = await createTestDatabase("product_map_rows")
    const file = path.join(os.tmpdir(), `product-map-rows-${process.pid}.json`)
    await runMedusaCommand(["exec", SCRIPT, file], { DATABASE_URL: db.url }, 240_000)
    out = JSON.parse(fs.readFileSync(file, "utf8"))
    fs.rmSync(file, { force: true })
  })

  afterAll(async () => {
    await db?.drop()
  })

  it("inserts new rows as createCatalogProductMaps does, with and without a pass", () => {
    expect(out.rows.created.sql).toEqual(out.rows.created.module)
    expect(out.rows.createdWithoutPass.sql).toEqual(out.rows.createdWithoutPass.module)
    // Not vacuous: every column is there.
    expect(out.rows.created.sql).toMatchObject({
      id: "<cspmap>",
      catalog_id: "9223372036854775807<tag>",
      variant_ids: { "41": "variant_<tag>_41", "42": "variant_<tag>_42", "": "variant_<tag>_default" },
      sync_version: 7,
      status: "active",
      last_seen_pass: "pass_1",
      synced_at: "2026-11-25T10:11:12.345Z",
      created_at: "<ts>",
      updated_at: "<ts>",
      deleted_at: null,
    })
    expect(out.rows.createdWithoutPass.sql.last_seen_pass).toBeNull()
  })

  it("rewrites a row whose sizes shrank as the module's clear-then-write did: the size that left is gone", () => {
    expect(out.rows.rewritten.sql).toEqual(out.rows.rewritten.module)
    expect(out.rows.rewritten.sql.variant_ids).toEqual({ "41": "variant_<tag>_41", "43": "variant_<tag>_43" })
    expect(out.rows.rewritten.sql.inventory_item_ids).toEqual({ "41": "iitem_<tag>_41", "43": "iitem_<tag>_43" })
    expect(out.rows.rewritten.sql).toMatchObject({ fingerprint: "fp2-<tag>", sync_version: 8, last_seen_pass: "pass_2", synced_at: "2026-11-25T11:00:00.000Z" })
  })

  it("writes a stock-only change and marks unchanged rows seen as the module's updates do", () => {
    expect(out.rows.stockOnly.sql).toEqual(out.rows.stockOnly.module)
    expect(out.rows.stockOnly.sql).toMatchObject({ stock_fingerprint: "sfp-3", sync_version: 9, last_run_id: "run_3", fingerprint: "fp2-<tag>" })
    expect(out.rows.markedSeen.sql).toEqual(out.rows.markedSeen.module)
    expect(out.rows.markedSeen.sql.last_seen_pass).toBe("pass_4")
  })

  it("reads a page's rows as the module's list does: same columns, values and types, deleted rows left out", () => {
    expect(out.read.sql).toEqual(out.read.module)
    // Not vacuous: live rows of every kind, with their types (jsonb parsed, sync_version a number).
    expect(out.read.sql.map((r: any) => r.catalog_id.value.replace("9223372036854775807", ""))).toEqual(["Bare", "ByModule", "ByModuleBig", "BySql"])
    const big = out.read.sql.find((r: any) => r.catalog_id.value.endsWith("ByModuleBig"))
    expect(big.sync_version).toEqual({ type: "number Number", value: 2147483647 })
    expect(big.variant_ids).toEqual({ type: "object Object", value: {} })
    expect(out.read.sql[0]).toMatchObject({
      variant_ids: { type: "null", value: null },
      sync_version: { type: "null", value: null },
      status: { value: "removed" },
    })
    expect(Object.keys(out.read.sql[0])).toEqual([
      "catalog_id",
      "fingerprint",
      "id",
      "inventory_item_ids",
      "product_id",
      "status",
      "stock_fingerprint",
      "sync_version",
      "variant_ids",
    ])
  })

  it("refuses to update a row deleted meanwhile, as the module does", () => {
    expect(out.missing).toEqual({ module: true, sql: true })
  })
})
