// Medusa's Index module (@medusajs/index 2.21.2) drops, in its Migration20250515161913, every
// public table LIKE 'cat\_%' whose backslash its JS string loses: 'cat_%' matched the plugin's
// old catalog_* tables. The plugin's tables are named mcs_* since Migration20261128200000, which
// renames the old tables of a shop and recreates them where they are gone although their
// migrations are recorded. Checked here on real databases migrated by `medusa db:migrate`:
// - a new database migrated with the Index module and the plugin has every plugin table, and a
//   sync writes the catalog;
// - a shop with the old tables and their data, migrated with the Index module enabled, keeps
//   every row;
// - a database whose old tables were dropped although their migrations are recorded gets them
//   back, with the same schema as a new database.
import fs from "node:fs"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "../harness"
import { judgeShop, readShopTruth } from "../harness/shop-truth"
import { sql } from "./poll-and-query"
import { configureAndWait, readCatalog, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(1_800_000)

// Read from the database, never from the plugin's code: the tables a new database holds.
const RENAMES: [string, string][] = [
  "brand",
  "brand_model",
  "field_lock",
  "held_removal",
  "mirrored_image",
  "mirrored_image_ref",
  "pending_removal",
  "product_map",
  "sync_run",
  "sync_run_change",
  "sync_settings",
  "sync_state",
  "variant_cost",
].map((t) => [`catalog_${t}`, `mcs_${t}`])
const OLD = RENAMES.map(([from]) => from)
const NEW = RENAMES.map(([, to]) => to)
const INDEX_DROPPER = "Migration20250515161913"
const RENAMER = "Migration20261128200000"
/** The renamer and the plugin's migrations after it: a database from before the rename has none of them recorded. */
const FROM_THE_RENAMER_ON = fs
  .readdirSync(path.join(__dirname, "..", "..", "src", "modules", "catalog_sync", "migrations"))
  .map((f) => f.replace(/\.ts$/, ""))
  .filter((name) => /^Migration\d+$/.test(name) && name >= RENAMER)

async function tablesOf(dbUrl: string, names: string[]): Promise<string[]> {
  const rows = await sql(
    dbUrl,
    "select table_name from information_schema.tables where table_schema = current_schema() and table_name = any($1) order by table_name",
    [names]
  )
  return rows.map((r) => r.table_name)
}

const migrated = async (dbUrl: string, name: string) => (await sql(dbUrl, "select 1 from mikro_orm_migrations where name = $1", [name])).length > 0

/** The plugin's tables as PostgreSQL holds them: columns, indexes, constraints and storage options, with their names. */
async function schemaOf(dbUrl: string): Promise<string[]> {
  const rows = await sql(
    dbUrl,
    `select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as line
       from information_schema.columns where table_schema = current_schema() and table_name = any($1)
     union all
     select 'index ' || tablename || ' ' || indexdef from pg_indexes where schemaname = current_schema() and tablename = any($1)
     union all
     select 'constraint ' || t.relname || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid)
       from pg_constraint c join pg_class t on t.oid = c.conrelid where t.relnamespace = current_schema()::regnamespace and t.relname = any($1)
     union all
     select 'options ' || relname || ' ' || coalesce(array_to_string(reloptions, ','), '') from pg_class
      where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname = any($1)
     order by 1`,
    [NEW]
  )
  return rows.map((r) => r.line)
}

/** Every row of each table, as text in id order: equal digests mean the same rows. */
async function rowDigests(dbUrl: string, tables: string[]): Promise<Record<string, { rows: number; md5: string }>> {
  const out: Record<string, { rows: number; md5: string }> = {}
  for (const t of tables) {
    const [r] = await sql(dbUrl, `select count(*)::int as rows, coalesce(md5(string_agg(x::text, '|' order by x.id)), '') as md5 from "${t}" x`)
    out[t.replace(/^(catalog|mcs)_/, "")] = r
  }
  return out
}

/**
 * Puts a migrated database back as the plugin's migrations before the renaming one left it:
 * catalog_* tables, indexes and constraints, and the renaming migration not recorded.
 */
async function asBeforeTheRename(dbUrl: string): Promise<void> {
  for (const [old, now] of RENAMES) {
    await sql(dbUrl, `alter table "${now}" rename to "${old}"`)
    for (const { conname } of await sql(dbUrl, "select conname from pg_constraint where conrelid = $1::regclass", [old])) {
      if (conname.includes(now)) await sql(dbUrl, `alter table "${old}" rename constraint "${conname}" to "${conname.split(now).join(old)}"`)
    }
    for (const { indexname } of await sql(dbUrl, "select indexname from pg_indexes where schemaname = current_schema() and tablename = $1", [old])) {
      if (indexname.includes(now)) await sql(dbUrl, `alter index "${indexname}" rename to "${indexname.split(now).join(old)}"`)
    }
  }
  await sql(dbUrl, "delete from mikro_orm_migrations where name = any($1)", [FROM_THE_RENAMER_ON])
}

describe("the plugin's tables and Medusa's Index module", () => {
  let fresh: string[]

  beforeAll(async () => {
    const plain = await createTestDatabase("index-tables-plain")
    try {
      fresh = await schemaOf(plain.url)
    } finally {
      await plain.drop()
    }
    expect(fresh.filter((l) => l.startsWith("options ")).length).toBe(NEW.length)
    // No name of the plugin's schema keeps an old table name (indexes and constraints are named after their table).
    expect(fresh.filter((l) => OLD.some((o) => l.includes(o)))).toEqual([])
  })

  describe("a new database migrated with the Index module and the plugin", () => {
    let env: SyncEnv
    beforeAll(async () => {
      env = await startSyncEnv("index-tables-new", { products: 12, seed: 34 }, { DEMO_INDEX_ENGINE: "true" })
    })
    afterAll(async () => {
      await env?.close()
    })

    it("has every table of the plugin, as a database without the Index module has", async () => {
      expect(await migrated(env.db.url, INDEX_DROPPER)).toBe(true)
      expect(await tablesOf(env.db.url, NEW)).toEqual([...NEW].sort())
      expect(await schemaOf(env.db.url)).toEqual(fresh)
    })

    it("syncs the catalog", async () => {
      const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
      expect(run).toMatchObject({ status: "succeeded" })
      const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
      expect(cards.length).toBeGreaterThan(0)
      expect(judgeShop(cards as any, await readShopTruth(env.db.url))).toEqual([])
    })
  })

  it("a shop with the old tables and their rows keeps every row when it enables the Index module", async () => {
    const env = await startSyncEnv("index-tables-upgrade", { products: 12, seed: 35 })
    try {
      const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
      expect(run).toMatchObject({ status: "succeeded" })
      await env.app.stop()
      await asBeforeTheRename(env.db.url)
      expect(await tablesOf(env.db.url, OLD)).toEqual([...OLD].sort())
      const before = await rowDigests(env.db.url, OLD)
      expect(before.product_map.rows).toBeGreaterThan(0)
      expect(before.sync_settings.rows).toBe(1)
      expect(before.variant_cost.rows).toBeGreaterThan(0)
      expect(await migrated(env.db.url, INDEX_DROPPER)).toBe(false)

      await runMedusaCommand(["db:migrate"], { DATABASE_URL: env.db.url, DEMO_INDEX_ENGINE: "true" }, 900_000)

      expect(await migrated(env.db.url, INDEX_DROPPER)).toBe(true)
      expect(await tablesOf(env.db.url, OLD)).toEqual([])
      expect(await rowDigests(env.db.url, NEW)).toEqual(before)
      expect(await schemaOf(env.db.url)).toEqual(fresh)
    } finally {
      await env.close()
    }
  })

  it("a database whose tables are gone although the plugin's migrations are recorded gets them back", async () => {
    const db = await createTestDatabase("index-tables-gone")
    try {
      await asBeforeTheRename(db.url)
      // As the Index module's migration left it.
      for (const t of OLD) await sql(db.url, `drop table "${t}" cascade`)
      expect(await migrated(db.url, "Migration20261121053246")).toBe(true)

      await runMedusaCommand(["db:migrate"], { DATABASE_URL: db.url }, 900_000)

      expect(await tablesOf(db.url, NEW)).toEqual([...NEW].sort())
      expect(await schemaOf(db.url)).toEqual(fresh)
    } finally {
      await db.drop()
    }
  })
})
