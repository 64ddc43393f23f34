// Run liveness and fencing in PostgreSQL, with no timer involved.
//
// A run holds a session-level advisory lock on a connection of its own for its whole life.
// PostgreSQL releases the lock the moment that connection closes (the process died: kill -9,
// OOM), and nothing in the process has to run on time to keep it: an event loop blocked for
// minutes, or a page write that takes minutes, cannot lose it. "Is run X alive?" is "is the
// lock held, by X?" (pg_locks plus the state row's current_run_id, written under the lock).
//
// Fencing: the run's token is its run id, written to mcs_sync_state.current_run_id when it
// takes the lock (a run row is claimed queued → running under the lock, so one run id is held
// at most once). Every cursor store and every state change of the run goes through the lock's
// own connection as `UPDATE … WHERE current_run_id = <run id>`, and every page write is
// preceded by the same check there: a run whose connection (and so its lock) is gone, or whose
// token was replaced, stores nothing and writes no further page.
import type { Client as PgClient } from "pg"
import { LostRunLockError, type RunFence } from "../sync-run/run-fence"

/** The advisory lock's key pair (two int4: a namespace, "MCS1", and the run lock). */
export const RUN_LOCK_KEY: readonly [number, number] = [0x4d435331, 1]

const STATE_TABLE = "mcs_sync_state"
const RUN_TABLE = "mcs_sync_run"

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

/** Thrown when a run finds it no longer holds the run lock: it must stop without writing. */
// The fence's contract belongs to the run (src/sync-run/run-fence.ts); the lock here implements it.
export { LostRunLockError, type RunFence }

/** A held run lock. */
export interface RunLease extends RunFence {
  readonly runId: string
  /** Clears the token (when still ours) and releases the lock; closes the connection. */
  release(): Promise<void>
}

export type AcquireResult = { lease: RunLease } | { aborted: true } | { taken: true }

/** How liveness is asked and the lock taken; the worker and queue depend on this only. */
export interface RunLivenessLike {
  /** The run id holding the run lock, or null when none does. */
  holder(): Promise<string | null>
  /**
   * Waits for the run lock (polling), then claims the run: its row goes queued → running and
   * the state's token becomes its id. `taken` when the row was no longer queued (another
   * process ran it); `aborted` when the signal fired first.
   */
  acquire(runId: string, stateId: string, signal: AbortSignal, pollMs?: number): Promise<AcquireResult>
}

type Knex = {
  raw(sql: string, bindings?: unknown[]): Promise<{ rows: any[] }>
  client: { config?: { connection?: unknown }; searchPath?: string | string[]; driver?: { Client: new (config: unknown) => PgClient } }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms)
    function done() {
      clearTimeout(t)
      signal.removeEventListener("abort", done)
      resolve()
    }
    signal.addEventListener("abort", done, { once: true })
  })

export class RunLiveness implements RunLivenessLike {
  readonly #knex: Knex
  readonly #connect: () => Promise<PgClient>

  /**
   * @param knex the app's PostgreSQL connection (Medusa's `__pg_connection__`), for the checks
   * @param connect opens the dedicated connection a run holds its lock on (default: a new pg
   *   Client with the same settings as the app's pool)
   */
  constructor(knex: Knex, connect?: () => Promise<PgClient>) {
    this.#knex = knex
    this.#connect = connect ?? (() => dedicatedClient(knex))
  }

  async holder(): Promise<string | null> {
    const { rows } = await this.#knex.raw(
      `select exists (
         select 1 from pg_locks
          where locktype = 'advisory' and granted
            and database = (select oid from pg_database where datname = current_database())
            and classid = ${RUN_LOCK_KEY[0]} and objid = ${RUN_LOCK_KEY[1]} and objsubid = 2
       ) as held,
       (select current_run_id from ${STATE_TABLE} where deleted_at is null order by created_at asc limit 1) as run_id`
    )
    const row = rows[0]
    return row?.held ? (row.run_id ?? null) : null
  }

  async acquire(runId: string, stateId: string, signal: AbortSignal, pollMs = 1000): Promise<AcquireResult> {
    let client: PgClient | null = null
    try {
      while (!signal.aborted) {
        if (!client) {
          client = await this.#connect()
          client.on("error", () => undefined) // a broken connection shows as a failed query
        }
        const { rows } = await client.query(`select pg_try_advisory_lock($1, $2) as ok`, RUN_LOCK_KEY as unknown as number[])
        if (rows[0]?.ok) {
          const lease = new PgRunLease(client, runId, stateId)
          client = null // the lease owns it now
          return (await lease.claim()) ? { lease } : { taken: true }
        }
        await sleep(pollMs, signal)
      }
      return { aborted: true }
    } finally {
      if (client) await (client as PgClient).end().catch(() => undefined)
    }
  }
}

class PgRunLease implements RunLease {
  readonly #client: PgClient
  readonly runId: string
  readonly #stateId: string
  #lost: string | null = null
  #released = false

  constructor(client: PgClient, runId: string, stateId: string) {
    this.#client = client
    this.runId = runId
    this.#stateId = stateId
    client.on("error", (e) => {
      this.#lost ??= `connection error: ${e.message}`
    })
    client.on("end", () => {
      this.#lost ??= "connection closed"
    })
  }

  /** Under the lock: the run row queued → running, and the state's token = this run. */
  async claim(): Promise<boolean> {
    const c = this.#client
    try {
      await c.query("begin")
      const claimed = await c.query(
        `update ${RUN_TABLE} set status = 'running', started_at = now(), updated_at = now()
          where id = $1 and status = 'queued' and deleted_at is null`,
        [this.runId]
      )
      if (claimed.rowCount !== 1) {
        await c.query("rollback")
        await this.#unlockAndClose()
        return false
      }
      await c.query(`update ${STATE_TABLE} set current_run_id = $1, updated_at = now() where id = $2`, [this.runId, this.#stateId])
      await c.query("commit")
      return true
    } catch (e) {
      await c.query("rollback").catch(() => undefined)
      await this.#unlockAndClose()
      throw e
    }
  }

  async check(): Promise<void> {
    if (this.#lost) throw new LostRunLockError(this.runId, this.#lost)
    let rows: any[]
    try {
      rows = (await this.#client.query(`select 1 from ${STATE_TABLE} where id = $1 and current_run_id = $2`, [this.#stateId, this.runId])).rows
    } catch (e) {
      this.#lost ??= `lock connection failed: ${(e as Error).message}`
      throw new LostRunLockError(this.runId, this.#lost)
    }
    if (rows.length !== 1) {
      this.#lost = "another run took the lock"
      throw new LostRunLockError(this.runId, this.#lost)
    }
  }

  async updateState(stateId: string, patch: Record<string, unknown>): Promise<void> {
    if (this.#lost) throw new LostRunLockError(this.runId, this.#lost)
    const sets: string[] = []
    const values: unknown[] = []
    for (const [column, value] of Object.entries(patch)) {
      if (column === "id") continue
      if (!STATE_COLUMNS.has(column)) throw new Error(`catalog sync: unknown state column ${column}`)
      values.push(JSON_COLUMNS.has(column) && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null))
      sets.push(`"${column}" = $${values.length}${JSON_COLUMNS.has(column) ? "::jsonb" : ""}`)
    }
    values.push(stateId, this.runId)
    let rowCount: number | null
    try {
      rowCount = (
        await this.#client.query(
          `update ${STATE_TABLE} set ${[...sets, "updated_at = now()"].join(", ")}
            where id = $${values.length - 1} and current_run_id = $${values.length}`,
          values
        )
      ).rowCount
    } catch (e) {
      if (e instanceof Error && /unknown state column/.test(e.message)) throw e
      this.#lost ??= `lock connection failed: ${(e as Error).message}`
      throw new LostRunLockError(this.runId, this.#lost)
    }
    if (rowCount !== 1) {
      this.#lost = "another run took the lock"
      throw new LostRunLockError(this.runId, this.#lost)
    }
  }

  async release(): Promise<void> {
    if (this.#released) return
    this.#released = true
    if (!this.#lost) {
      await this.#client
        .query(`update ${STATE_TABLE} set current_run_id = null, updated_at = now() where id = $1 and current_run_id = $2`, [this.#stateId, this.runId])
        .catch(() => undefined)
    }
    await this.#unlockAndClose()
  }

  async #unlockAndClose() {
    this.#released = true
    await this.#client.query(`select pg_advisory_unlock($1, $2)`, RUN_LOCK_KEY as unknown as number[]).catch(() => undefined)
    this.#lost ??= "released"
    await this.#client.end().catch(() => undefined)
  }
}

/** Seconds of silence after which either end of the lock's connection probes the other. */
export const LOCK_KEEPALIVE_IDLE_S = 30

/** A new connection with the settings of the app's pool (same database, SSL, search path). */
export async function dedicatedClient(knex: Knex): Promise<PgClient> {
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
  for (const [name, value] of [["tcp_keepalives_idle", LOCK_KEEPALIVE_IDLE_S], ["tcp_keepalives_interval", 10], ["tcp_keepalives_count", 3]] as const) {
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
