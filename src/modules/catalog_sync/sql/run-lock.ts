// The run lock's statements (src/queue/run-liveness.ts holds the lock and its connection): the
// advisory lock a run holds on a connection of its own, and the fenced writes of the state row
// (mcs_sync_state) and the run row (mcs_sync_run) through that connection.
import type { Client as PgClient } from "pg"

import { RUN_LOCK_KEY } from "../../../bulk-write/write-fence"

// The key pair is shared with the page writes' fence (bulk-write/write-fence.ts).
export { RUN_LOCK_KEY }

/** The state columns a run may change (fenced). Not current_run_id: the lease alone sets it (claim) and clears it (release). */
const STATE_COLUMNS = new Set([
  "cursor",
  "cursor_pricing",
  "phase",
  "full_pass_id",
  "full_pass_started_at",
  "last_full_pass_finished_at",
  "blocked_code",
  "blocked_message",
  "blocked_revision",
  // The safety brake's approvals and discards (src/sync/safety-brake.ts), updated when a run ends.
  "brake_memory",
  // The filter the shop was last brought in line with (src/sync-run/filter-change.ts).
  "applied_filter",
])
const JSON_COLUMNS = new Set(["cursor_pricing", "brake_memory", "applied_filter"])

type Query = Pick<PgClient, "query">
type Raw = { raw(sql: string, bindings?: unknown[]): Promise<{ rows: any[] }> }

/** Whether the run lock is held (by any connection), and the run id the state names as holding it. */
export async function runLockHolder(db: Raw): Promise<string | null> {
  const { rows } = await db.raw(
    `select exists (
       select 1 from pg_locks
        where locktype = 'advisory' and granted
          and database = (select oid from pg_database where datname = current_database())
          and classid = ${RUN_LOCK_KEY[0]} and objid = ${RUN_LOCK_KEY[1]} and objsubid = 2
     ) as held,
     (select current_run_id from mcs_sync_state where deleted_at is null order by created_at asc limit 1) as run_id`
  )
  const row = rows[0]
  return row?.held ? (row.run_id ?? null) : null
}

/** Takes the run lock on this connection when it is free (no wait). */
export async function tryRunLock(client: Query): Promise<boolean> {
  const { rows } = await client.query(`select pg_try_advisory_lock($1, $2) as ok`, RUN_LOCK_KEY as unknown as number[])
  return !!rows[0]?.ok
}

/** Releases the run lock this connection holds. */
export async function runUnlock(client: Query): Promise<void> {
  await client.query(`select pg_advisory_unlock($1, $2)`, RUN_LOCK_KEY as unknown as number[])
}

/**
 * Under the lock, in one transaction: the run row queued → running, and the state's token = this
 * run. False (rolled back) when the row was no longer queued; rolled back and thrown on an error.
 */
export async function claimRun(client: Query, runId: string, stateId: string): Promise<boolean> {
  try {
    await client.query("begin")
    const claimed = await client.query(
      `update mcs_sync_run set status = 'running', started_at = now(), updated_at = now()
        where id = $1 and status = 'queued' and deleted_at is null`,
      [runId]
    )
    if (claimed.rowCount !== 1) {
      await client.query("rollback")
      return false
    }
    await client.query(`update mcs_sync_state set current_run_id = $1, updated_at = now() where id = $2`, [runId, stateId])
    await client.query("commit")
    return true
  } catch (e) {
    await client.query("rollback").catch(() => undefined)
    throw e
  }
}

/** Whether the state's token is still this run's. */
export async function holdsRunToken(client: Query, stateId: string, runId: string): Promise<boolean> {
  const { rows } = await client.query(`select 1 from mcs_sync_state where id = $1 and current_run_id = $2`, [stateId, runId])
  return rows.length === 1
}

/**
 * The state columns of `patch` (fenced: only while the token is this run's); returns the rows
 * updated (0: another run took the lock). Throws on a column a run may not change, before any statement.
 */
export async function updateStateFenced(client: Query, stateId: string, runId: string, patch: Record<string, unknown>): Promise<number | null> {
  const sets: string[] = []
  const values: unknown[] = []
  for (const [column, value] of Object.entries(patch)) {
    if (column === "id") continue
    if (!STATE_COLUMNS.has(column)) throw new Error(`catalog sync: unknown state column ${column}`)
    values.push(JSON_COLUMNS.has(column) && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null))
    sets.push(`"${column}" = $${values.length}${JSON_COLUMNS.has(column) ? "::jsonb" : ""}`)
  }
  values.push(stateId, runId)
  return (
    await client.query(
      `update mcs_sync_state set ${[...sets, "updated_at = now()"].join(", ")}
        where id = $${values.length - 1} and current_run_id = $${values.length}`,
      values
    )
  ).rowCount
}

/** Clears the state's token when it is still this run's. */
export async function clearRunToken(client: Query, stateId: string, runId: string): Promise<void> {
  await client.query(`update mcs_sync_state set current_run_id = null, updated_at = now() where id = $1 and current_run_id = $2`, [stateId, runId])
}

/** The app's connection as the run lock reads its settings (knex: its pg driver, connection and search path). */
export type LockConnectionSource = {
  client: { config?: { connection?: unknown }; searchPath?: string | string[]; driver?: { Client: new (config: unknown) => PgClient } }
}

/** Seconds of silence after which either end of the lock's connection probes the other. */
export const LOCK_KEEPALIVE_IDLE_S = 30

/** A new connection with the settings of the app's pool (same database, SSL, search path). */
export async function dedicatedClient(knex: LockConnectionSource): Promise<PgClient> {
  // The app's own pg driver (knex's pg client always loads it): the plugin does not depend on pg.
  const Client = knex.client.driver?.Client
  if (!Client) throw new Error("catalog sync: the app's PostgreSQL connection exposes no pg driver for the run lock")
  const connection = knex.client.config?.connection
  const config = typeof connection === "string" ? { connectionString: connection } : { ...(connection as object) }
  // TCP keepalives both ways: the connection is silent while a page is written, and a NAT or
  // load balancer drops silent connections without telling either end (the server would keep
  // the dead session's lock for hours, the run would learn of it only after retransmissions).
  const client = new Client({
    ...config,
    keepAlive: true,
    keepAliveInitialDelayMillis: LOCK_KEEPALIVE_IDLE_S * 1000,
    application_name: "medusa-catalog-sync:run-lock",
  } as any)
  await client.connect()
  for (const [name, value] of [
    ["tcp_keepalives_idle", LOCK_KEEPALIVE_IDLE_S],
    ["tcp_keepalives_interval", 10],
    ["tcp_keepalives_count", 3],
  ] as const) {
    await client.query(`set ${name} = ${value}`).catch(() => undefined)
  }
  // The lock's connection sits idle while a page is written (minutes): a server, role or
  // database idle_session_timeout would end it and with it the lock of a live run. Off for this
  // session only (PostgreSQL 13 and older have no such timeout and refuse the name).
  await client.query("set idle_session_timeout = 0").catch(() => undefined)
  const searchPath = knex.client.searchPath
  const schemas = (Array.isArray(searchPath) ? searchPath : searchPath ? [searchPath] : []).filter(Boolean)
  if (schemas.length && !(schemas.length === 1 && schemas[0] === "public")) {
    await client.query(`set search_path to ${schemas.map((s) => `"${String(s).replace(/"/g, '""')}"`).join(", ")}`)
  }
  return client
}
