// Run inside the demo app with `medusa exec`: the same product-map rows are written once by the
// catalog_sync module's service (as the page step wrote them before) and once by the page's
// multi-row statements (src/modules/catalog_sync/sql/product-map.ts); both rows are saved after each
// write, with ids and timestamps replaced by their shape, for the spec to compare.
// Usage: medusa exec product-map.exec.ts <out.json>
import fs from "node:fs"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CATALOG_SYNC_MODULE } from "../../../src/modules/catalog_sync/module-name"
import { insertMapRows, MAP_ROW_COLUMNS, readMapRows, setMapColumn, updateMapRows } from "../../../src/modules/catalog_sync/sql/product-map"

type Row = Record<string, any>
const ULID = /^cspmap_[0-9A-HJKMNP-TV-Z]{26}$/

function shape(row: Row, tag: string): Row {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) {
    if (k === "id") out[k] = ULID.test(v) ? "<cspmap>" : `bad id ${v}`
    else if (k === "created_at" || k === "updated_at") out[k] = v instanceof Date ? "<ts>" : `bad ${k} ${v}`
    else if (v instanceof Date) out[k] = v.toISOString()
    else out[k] = v === null || typeof v === "number" ? v : JSON.parse(JSON.stringify(v).split(tag).join("<tag>"))
  }
  return out
}

const values = (tag: string, now: Date) => ({
  catalog_id: `9223372036854775807${tag}`,
  product_id: `prod_${tag}`,
  sku: `SKU-${tag}`,
  variant_ids: { "41": `variant_${tag}_41`, "42": `variant_${tag}_42`, "": `variant_${tag}_default` },
  inventory_item_ids: { "41": `iitem_${tag}_41`, "42": `iitem_${tag}_42`, "": `iitem_${tag}_default` },
  fingerprint: `fp-${tag}`,
  stock_fingerprint: `sfp-${tag}`,
  sync_version: 7,
  status: "active",
  last_run_id: "run_1",
  last_seen_pass: "pass_1",
  synced_at: now,
})

export default async function compare({ container, args }: { container: any; args: string[] }) {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const service = container.resolve(CATALOG_SYNC_MODULE)
  const now = new Date("2026-11-25T10:11:12.345Z")
  const later = new Date("2026-11-25T11:00:00.000Z")
  const read = async (tag: string) => shape((await pg.raw("select * from mcs_product_map where catalog_id = ?", [`9223372036854775807${tag}`])).rows[0], tag)
  const idOf = async (tag: string) => (await pg.raw("select id from mcs_product_map where catalog_id = ?", [`9223372036854775807${tag}`])).rows[0].id
  const out: Record<string, { module: Row; sql: Row }> = {}

  // A new row; one without a pass (the column left out).
  await service.createCatalogProductMaps([values("ByModule", now)])
  await insertMapRows(pg, [values("BySql", now)])
  const { last_seen_pass: _m, ...noPassM } = values("ByModuleNoPass", now)
  const { last_seen_pass: _s, ...noPassS } = values("BySqlNoPass", now)
  await service.createCatalogProductMaps([noPassM])
  await insertMapRows(pg, [noPassS])
  out.created = { module: await read("ByModule"), sql: await read("BySql") }
  out.createdWithoutPass = { module: await read("ByModuleNoPass"), sql: await read("BySqlNoPass") }

  // A rewrite where size 42 left: the module's rows were cleared first, then written whole.
  const rewrite = (tag: string) => ({
    ...values(tag, later),
    variant_ids: { "41": `variant_${tag}_41`, "43": `variant_${tag}_43` },
    inventory_item_ids: { "41": `iitem_${tag}_41`, "43": `iitem_${tag}_43` },
    fingerprint: `fp2-${tag}`,
    sync_version: 8,
    last_run_id: "run_2",
    last_seen_pass: "pass_2",
  })
  const idM = await idOf("ByModule")
  const idS = await idOf("BySql")
  await service.updateCatalogProductMaps([{ id: idM, variant_ids: null, inventory_item_ids: null }])
  await service.updateCatalogProductMaps([{ id: idM, ...rewrite("ByModule") }])
  await pg.transaction((trx: any) => updateMapRows(trx, [{ id: idS, ...rewrite("BySql") }]))
  out.rewritten = { module: await read("ByModule"), sql: await read("BySql") }

  // A stock-only change: four columns.
  const stockOnly = { stock_fingerprint: "sfp-3", sync_version: 9, last_run_id: "run_3", synced_at: new Date("2026-11-25T12:00:00.000Z") }
  await service.updateCatalogProductMaps([{ id: idM, ...stockOnly }])
  await updateMapRows(pg, [{ id: idS, ...stockOnly }])
  out.stockOnly = { module: await read("ByModule"), sql: await read("BySql") }

  // Unchanged products marked seen by a full pass.
  const idM2 = await idOf("ByModuleNoPass")
  const idS2 = await idOf("BySqlNoPass")
  await service.updateCatalogProductMaps({ selector: { id: [idM2] }, data: { last_seen_pass: "pass_4" } })
  await setMapColumn(pg, [idS2], "last_seen_pass", "pass_4")
  out.markedSeen = { module: await read("ByModuleNoPass"), sql: await read("BySqlNoPass") }

  // A row deleted meanwhile: both refuse the update.
  await service.softDeleteCatalogProductMaps([idM2])
  await pg.raw("update mcs_product_map set deleted_at = now() where id = ?", [idS2])
  const refused = async (fn: () => Promise<unknown>) =>
    fn().then(
      () => false,
      () => true
    )
  const missing = {
    module: await refused(() => service.updateCatalogProductMaps([{ id: idM2, ...stockOnly }])),
    sql: await refused(() => updateMapRows(pg, [{ id: idS2, ...stockOnly }])),
  }
  // The page's read (readMapRows) against the module's list with the same columns, over rows of
  // every kind: written by either, one with its nullable columns null, one removed, one deleted.
  await service.createCatalogProductMaps([
    { catalog_id: "9223372036854775807Bare", status: "removed" },
    { ...values("ByModuleBig", now), sync_version: 2147483647, variant_ids: {}, status: "draft" },
  ])
  const ids = ["ByModule", "BySql", "ByModuleNoPass", "BySqlNoPass", "Bare", "ByModuleBig", "Absent"].map((t) => `9223372036854775807${t}`)
  const typed = (rows: Row[]) =>
    rows
      .map((r) =>
        Object.fromEntries(
          Object.keys(r)
            .sort()
            .map((k) => [k, { type: r[k] === null ? "null" : `${typeof r[k]} ${r[k].constructor?.name}`, value: r[k] }])
        )
      )
      .sort((a, b) => a.catalog_id.value.localeCompare(b.catalog_id.value))
  const reads = {
    module: typed(await service.listCatalogProductMaps({ catalog_id: ids }, { select: MAP_ROW_COLUMNS, take: null })),
    sql: typed(await readMapRows(pg, ids)),
  }
  fs.writeFileSync(args[0], JSON.stringify({ rows: out, missing, read: reads }, null, 2))
}
