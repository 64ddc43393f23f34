import { Migration } from "@medusajs/framework/mikro-orm/migrations"
import { Migration20261121053246 } from "./Migration20261121053246"
import { Migration20261123152501 } from "./Migration20261123152501"
import { Migration20261123152543 } from "./Migration20261123152543"
import { Migration20261123153322 } from "./Migration20261123153322"
import { Migration20261123191918 } from "./Migration20261123191918"
import { Migration20261123222558 } from "./Migration20261123222558"
import { Migration20261123223000 } from "./Migration20261123223000"
import { Migration20261123224500 } from "./Migration20261123224500"
import { Migration20261126200000 } from "./Migration20261126200000"
import { Migration20261128130000 } from "./Migration20261128130000"
import { Migration20261128140000 } from "./Migration20261128140000"
import { Migration20261128180000 } from "./Migration20261128180000"

// The plugin's tables move from catalog_* to mcs_*. Medusa's Index module (@medusajs/index
// 2.21.2, Migration20250515161913) drops every public table LIKE 'cat\_%', and its backslash is
// lost in a JS template string, so the pattern is 'cat_%' and every catalog_* table matched: a
// shop lost the plugin's data when it enabled the Index module, and a new database migrated with
// both had the plugin's migrations recorded and none of its tables. Names starting "mcs_" (the
// package's initials) match no such pattern.
//
// On a shop with the old tables: each is renamed with its indexes and constraints (their names
// carry the table name, as the data models name them). On a database whose old tables are gone
// although their migrations are recorded: the earlier migrations' statements for the missing
// tables are run again, then renamed the same way. The earlier migrations keep the old names:
// they run before this one on a new database.
const RENAMES: ReadonlyArray<readonly [string, string]> = [
  ["catalog_brand", "mcs_brand"],
  ["catalog_brand_model", "mcs_brand_model"],
  ["catalog_field_lock", "mcs_field_lock"],
  ["catalog_held_removal", "mcs_held_removal"],
  ["catalog_mirrored_image", "mcs_mirrored_image"],
  ["catalog_mirrored_image_ref", "mcs_mirrored_image_ref"],
  ["catalog_pending_removal", "mcs_pending_removal"],
  ["catalog_product_map", "mcs_product_map"],
  ["catalog_sync_run", "mcs_sync_run"],
  ["catalog_sync_run_change", "mcs_sync_run_change"],
  ["catalog_sync_settings", "mcs_sync_settings"],
  ["catalog_sync_state", "mcs_sync_state"],
  ["catalog_variant_cost", "mcs_variant_cost"],
]

const EARLIER_MIGRATIONS = [
  Migration20261121053246,
  Migration20261123152501,
  Migration20261123152543,
  Migration20261123153322,
  Migration20261123191918,
  Migration20261123222558,
  Migration20261123223000,
  Migration20261123224500,
  Migration20261126200000,
  Migration20261128130000,
  Migration20261128140000,
  Migration20261128180000,
]

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

export class Migration20261128200000 extends Migration {
  override async up(): Promise<void> {
    const present = await this.tablesPresent()
    const missing = new Set(RENAMES.filter(([from, to]) => !present.has(from) && !present.has(to)).map(([from]) => from))
    if (missing.size) await this.recreate(missing)
    await this.renameAll(RENAMES)
  }

  override async down(): Promise<void> {
    await this.renameAll(RENAMES.map(([from, to]) => [to, from] as const))
  }

  private async tablesPresent(): Promise<Set<string>> {
    const names = RENAMES.flat()
      .map((n) => `'${n}'`)
      .join(", ")
    const rows = (await this.execute(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_name in (${names})`
    )) as { table_name: string }[]
    return new Set(rows.map((r) => r.table_name))
  }

  /** Runs again the earlier migrations' statements that name only tables in `missing`. */
  private async recreate(missing: Set<string>): Promise<void> {
    const old = new Set(RENAMES.map(([from]) => from))
    for (const Earlier of EARLIER_MIGRATIONS) {
      const earlier = new Earlier(this.driver, this.config)
      await earlier.up()
      for (const statement of earlier.getQueries()) {
        if (typeof statement !== "string") continue
        const tables = [...statement.matchAll(/"([a-z0-9_]+)"/g)].map((m) => m[1]).filter((n) => old.has(n))
        if (tables.length && tables.every((t) => missing.has(t))) await this.execute(statement)
      }
    }
  }

  /** Renames each table present under its first name (and absent under its second), with its constraints and indexes. */
  private async renameAll(pairs: ReadonlyArray<readonly [string, string]>): Promise<void> {
    const present = await this.tablesPresent()
    for (const [from, to] of pairs) {
      if (!present.has(from) || present.has(to)) continue
      this.addSql(`alter table ${quoted(from)} rename to ${quoted(to)};`)
      const constraints = (await this.execute(
        `select c.conname as name from pg_constraint c join pg_class t on t.oid = c.conrelid
          where t.relname = ? and t.relnamespace = current_schema()::regnamespace and position(? in c.conname) > 0 order by c.conname`,
        [from, from]
      )) as { name: string }[]
      for (const { name } of constraints) {
        this.addSql(`alter table ${quoted(to)} rename constraint ${quoted(name)} to ${quoted(name.split(from).join(to))};`)
      }
      // A constraint's index (the primary key) was renamed with it.
      const constraintNames = new Set(constraints.map((c) => c.name))
      const indexes = (await this.execute(
        `select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ? and position(? in indexname) > 0 order by indexname`,
        [from, from]
      )) as { name: string }[]
      for (const { name } of indexes) {
        if (constraintNames.has(name)) continue
        this.addSql(`alter index ${quoted(name)} rename to ${quoted(name.split(from).join(to))};`)
      }
    }
  }
}
