// The schema guard: the tables and columns the bulk writer uses (src/bulk-write/schema.ts)
// compared with the live database (information_schema.columns), once per process, at start and
// before the first write. Any difference sends every write through Medusa's workflows
// (src/shop-writer/choose-shop-writer.ts), is logged once, and is an item of the storefront readiness checklist.
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { bulkWriteSchema, OPTIONAL_TABLES } from "./schema"

export interface SchemaDifference {
  table: string
  /** null: the whole table is missing. */
  column: string | null
}

export interface SchemaGuardResult {
  differences: SchemaDifference[]
  checkedAt: string
}

/** The differences between what the writer uses and what the database has (pure). */
export function schemaDifferences(
  expected: Record<string, string[]>,
  live: { table_name: string; column_name: string }[],
  optional: readonly string[] = OPTIONAL_TABLES
): SchemaDifference[] {
  const byTable = new Map<string, Set<string>>()
  for (const r of live) byTable.set(r.table_name, (byTable.get(r.table_name) ?? new Set()).add(r.column_name))
  const out: SchemaDifference[] = []
  for (const [table, columns] of Object.entries(expected)) {
    const have = byTable.get(table)
    if (!have) {
      if (!optional.includes(table)) out.push({ table, column: null })
      continue
    }
    for (const column of columns) if (!have.has(column)) out.push({ table, column })
  }
  return out
}

export function describeDifferences(differences: SchemaDifference[]): string {
  return differences.map((d) => (d.column ? `${d.table}.${d.column}` : `table ${d.table}`)).join(", ")
}

let checked: Promise<SchemaGuardResult> | null = null

async function check(container: MedusaContainer): Promise<SchemaGuardResult> {
  const expected = bulkWriteSchema()
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  const { rows } = await pg.raw(
    `select table_name, column_name from information_schema.columns where table_schema = current_schema() and table_name = any(?)`,
    [Object.keys(expected)]
  )
  const differences = schemaDifferences(expected, rows)
  if (differences.length) {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .warn(
        `catalog sync: the database differs from the schema the bulk writer was written for (missing: ${describeDifferences(differences)}); every write goes through Medusa's workflows`
      )
  }
  return { differences, checkedAt: new Date().toISOString() }
}

/** The process's one check (a failed check is tried again next time). */
export function guardSchema(container: MedusaContainer): Promise<SchemaGuardResult> {
  if (!checked) {
    checked = check(container)
    checked.catch(() => (checked = null))
  }
  return checked
}
