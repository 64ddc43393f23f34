// Run inside the demo app with `medusa exec`: the same change-log rows are stored once by the
// catalog_sync module's service (as the record-changes step stored them before) and once by the
// page's multi-row insert (src/modules/catalog_sync/sql/change-log.ts); both are saved with ids and
// timestamps replaced by their shape, for the spec to compare. Then the step's compensation
// (the module's delete by the returned ids) removes the inserted rows.
// Usage: medusa exec change-log.exec.ts <out.json>
import fs from "node:fs"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CATALOG_SYNC_MODULE } from "../../../src/modules/catalog_sync/module-name"
import type { ChangeRecord } from "../../../src/sync/change-rows"
import { insertChangeRows } from "../../../src/modules/catalog_sync/sql/change-log"

type Row = Record<string, any>
const ULID = /^cschg_[0-9A-HJKMNP-TV-Z]{26}$/

function shape(row: Row): Row {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) {
    if (k === "id") out[k] = ULID.test(v) ? "<cschg>" : `bad id ${v}`
    else if (k === "run_id") out[k] = "<run>"
    else if (k === "created_at" || k === "updated_at") out[k] = v instanceof Date ? "<ts>" : `bad ${k} ${v}`
    else out[k] = v
  }
  return out
}

const blank = {
  price_changed: false,
  stock_changed: false,
  sizes_changed: false,
  images_changed: false,
  text_changed: false,
  price_before: null,
  price_after: null,
  reason: null,
}

/** One row of every kind the page stores, with every column used somewhere. */
const rows: ChangeRecord[] = [
  { ...blank, kind: "created", catalog_id: "9223372036854775807", product_id: "prod_1", title: "Кросівки «Run»", price_after: "1287.50" },
  {
    ...blank,
    kind: "updated",
    catalog_id: "2",
    product_id: "prod_2",
    title: "B",
    price_changed: true,
    price_before: "1200.00",
    price_after: "1287.50",
    sizes_changed: true,
    images_changed: true,
    text_changed: true,
  },
  { ...blank, kind: "updated", catalog_id: "3", product_id: "prod_3", title: "C", stock_changed: true },
  { ...blank, kind: "removed", catalog_id: "4", product_id: "prod_4", title: null },
  {
    ...blank,
    kind: "drafted",
    catalog_id: "5",
    product_id: "prod_5",
    title: "E",
    price_changed: true,
    reason: "The catalog has no price for any of its sizes, so it stays a draft",
  },
  { ...blank, kind: "rejected", catalog_id: "6", product_id: null, title: null, reason: 'mapping failed: it\'s "odd"' },
]

export default async function compare({ container, args }: { container: any; args: string[] }) {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const service = container.resolve(CATALOG_SYNC_MODULE)
  const read = async (runId: string) => (await pg.raw("select * from mcs_sync_run_change where run_id = ? order by catalog_id", [runId])).rows.map(shape)

  await service.createCatalogSyncRunChanges(rows.map((r) => ({ run_id: "run_module", ...r })))
  const ids = await insertChangeRows(pg, "run_sql", rows)
  const stored = { module: await read("run_module"), sql: await read("run_sql") }
  const idsStored = (await pg.raw("select id from mcs_sync_run_change where id = any(?::text[])", [ids])).rows.length === ids.length

  // More rows than one statement holds: stored whole, ids back in the rows' order.
  const many = Array.from({ length: 1_203 }, (_, i) => ({
    ...blank,
    kind: "updated" as const,
    catalog_id: String(i),
    product_id: `prod_${i}`,
    title: `T${i}`,
    stock_changed: true,
  }))
  const manyIds = await insertChangeRows(pg, "run_many", many)
  const manyRows = (await pg.raw("select id, catalog_id from mcs_sync_run_change where run_id = 'run_many'")).rows as { id: string; catalog_id: string }[]
  const byId = new Map(manyRows.map((r) => [r.id, r.catalog_id]))
  const manyMatch = manyIds.every((id, i) => byId.get(id) === String(i))

  // The step's compensation: the module deletes the inserted rows by their ids.
  await service.deleteCatalogSyncRunChanges(ids)
  const leftAfterCompensation = (await pg.raw("select count(*)::int as n from mcs_sync_run_change where run_id = 'run_sql'")).rows[0].n

  fs.writeFileSync(
    args[0],
    JSON.stringify({ stored, idsStored, many: { count: manyRows.length, ids: manyIds.length, match: manyMatch }, leftAfterCompensation }, null, 2)
  )
}
