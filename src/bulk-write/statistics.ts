// The planner's statistics of tables a sync fills in bulk (src/sync-run/analyze-as-it-grows.ts
// decides when): ANALYZE of the tables this database has and its user may analyze.
import { sqlOf, type Connection } from "./connection"

/**
 * Of these table names, the ones this database has (no translation table without the module,
 * say: ANALYZE of a missing one fails whole) and the user may analyze (PostgreSQL skips others
 * with a warning): its own, or any as a superuser. Each as ANALYZE names it (quoted as needed).
 */
export async function analyzableTables(connection: Connection, candidates: string[]): Promise<string[]> {
  const { rows } = (await sqlOf(connection).raw(
    `select c.oid::regclass::text as name from unnest(?::text[]) as t(name) join pg_class c on c.oid = to_regclass(quote_ident(t.name))
      where c.relkind = 'r' and (pg_has_role(current_user, c.relowner, 'USAGE') or (select rolsuper from pg_roles where rolname = current_user))`,
    [candidates]
  )) as { rows: { name: string }[] }
  return rows.map((r) => r.name)
}

/** ANALYZE of these tables (names from analyzableTables); SKIP_LOCKED: a table another ANALYZE or VACUUM holds is left for this time. */
export async function analyzeTables(connection: Connection, names: string[]): Promise<void> {
  await sqlOf(connection).raw(`analyze (skip_locked) ${names.join(", ")}`)
}
