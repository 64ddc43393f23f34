// The run lock in PostgreSQL (advisory lock on a connection of its own) and its fencing,
// against the real server on 127.0.0.1, in a scratch database with the two tables it touches.
import knexFactory from "knex"
import { createDatabase, dropDatabase, PG, scratchDatabaseName } from "../../__tests__/scratch-database"
import { dedicatedClient, LOCK_KEEPALIVE_IDLE_S, LostRunLockError, RunLiveness, type RunLease } from "../run-liveness"

const DB = scratchDatabaseName("liveness")
jest.setTimeout(30_000)

describe("RunLiveness (PostgreSQL advisory lock + fencing)", () => {
  let knex: ReturnType<typeof knexFactory>
  let liveness: RunLiveness
  const never = new AbortController().signal

  beforeAll(async () => {
    await createDatabase(DB)
    knex = knexFactory({ client: "pg", connection: { ...PG, database: DB }, pool: { min: 0, max: 4 } })
    await knex.raw(`create table mcs_sync_state (id text primary key, cursor text, cursor_pricing jsonb, phase text, full_pass_id text,
      full_pass_started_at timestamptz, last_full_pass_finished_at timestamptz, current_run_id text, blocked_code text, blocked_message text,
      blocked_revision integer, created_at timestamptz not null default now(), updated_at timestamptz not null default now(), deleted_at timestamptz)`)
    await knex.raw(`create table mcs_sync_run (id text primary key, status text not null, started_at timestamptz,
      created_at timestamptz not null default now(), updated_at timestamptz not null default now(), deleted_at timestamptz)`)
    await knex.raw(`insert into mcs_sync_state (id, phase) values ('state_1', 'never')`)
    liveness = new RunLiveness(knex as any)
  })
  afterAll(async () => {
    await knex?.destroy()
    await dropDatabase(DB)
  })

  const addRun = (id: string, status = "queued") => knex.raw(`insert into mcs_sync_run (id, status) values (?, ?)`, [id, status])
  const runStatus = async (id: string) => (await knex.raw(`select status from mcs_sync_run where id = ?`, [id])).rows[0].status
  const state = async () => (await knex.raw(`select * from mcs_sync_state where id = 'state_1'`)).rows[0]
  const lease = async (id: string): Promise<RunLease> => {
    const r = await liveness.acquire(id, "state_1", never, 50)
    if (!("lease" in r)) throw new Error(`no lease: ${JSON.stringify(r)}`)
    return r.lease
  }

  it("one holder at a time: claims the run, names it, and the next waits until it is released", async () => {
    await addRun("run_a")
    await addRun("run_b")
    expect(await liveness.holder()).toBeNull()
    const a = await lease("run_a")
    expect(await runStatus("run_a")).toBe("running")
    expect((await state()).current_run_id).toBe("run_a")
    expect(await liveness.holder()).toBe("run_a")

    let bGot = false
    const waitingB = lease("run_b").then((l) => {
      bGot = true
      return l
    })
    await new Promise((r) => setTimeout(r, 500))
    expect(bGot).toBe(false)
    expect(await runStatus("run_b")).toBe("queued")

    await a.updateState("state_1", { cursor: "c1", cursor_pricing: { markup_percent: "30" }, phase: "changes" })
    await a.release()
    const b = await waitingB
    expect(await liveness.holder()).toBe("run_b")
    expect(await state()).toMatchObject({ cursor: "c1", cursor_pricing: { markup_percent: "30" }, current_run_id: "run_b" })
    // The token has one owner, the lease: a run's state writes cannot set or clear it.
    await expect(b.updateState("state_1", { current_run_id: null })).rejects.toThrow(/unknown state column current_run_id/)
    expect((await state()).current_run_id).toBe("run_b")
    await b.release()
    expect(await liveness.holder()).toBeNull()
    expect((await state()).current_run_id).toBeNull()
  })

  it("a run that is no longer queued is not taken twice", async () => {
    await addRun("run_done", "succeeded")
    expect(await liveness.acquire("run_done", "state_1", never, 50)).toEqual({ taken: true })
    expect(await liveness.holder()).toBeNull()
  })

  it("the lock goes the moment the holder's connection dies; the dead run stores nothing and writes nothing", async () => {
    await addRun("run_dead")
    await addRun("run_next")
    const dead = await lease("run_dead")
    // What kill -9 does to the process's connection: the server drops the session.
    await knex.raw(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'medusa-catalog-sync:run-lock' and datname = current_database() and pid <> pg_backend_pid()`
    )
    await new Promise((r) => setTimeout(r, 200))
    expect(await liveness.holder()).toBeNull()
    const next = await lease("run_next")
    await expect(dead.check()).rejects.toBeInstanceOf(LostRunLockError)
    await expect(dead.updateState("state_1", { cursor: "stale" })).rejects.toBeInstanceOf(LostRunLockError)
    await dead.release()
    expect(await state()).toMatchObject({ current_run_id: "run_next" })
    expect((await state()).cursor).not.toBe("stale")
    await next.release()
  })

  it("fencing: a holder whose token was replaced can neither check nor store", async () => {
    await addRun("run_f")
    const f = await lease("run_f")
    await f.check()
    await knex.raw(`update mcs_sync_state set current_run_id = 'someone_else' where id = 'state_1'`)
    await expect(f.check()).rejects.toBeInstanceOf(LostRunLockError)
    await expect(f.updateState("state_1", { cursor: "fenced" })).rejects.toBeInstanceOf(LostRunLockError)
    expect((await state()).cursor).not.toBe("fenced")
    await f.release()
    // Release clears only its own token.
    expect((await state()).current_run_id).toBe("someone_else")
    await knex.raw(`update mcs_sync_state set current_run_id = null where id = 'state_1'`)
  })

  it("a lock connection idle for longer than the server's idle_session_timeout keeps its lock", async () => {
    // A server (or role, or database) with idle_session_timeout ends idle sessions; the lock's
    // connection is idle for as long as a page is being written. Simulated for this connection only.
    const strict = knexFactory({ client: "pg", connection: { ...PG, database: DB, options: "-c idle_session_timeout=300" }, pool: { min: 0, max: 1 } })
    try {
      await addRun("run_idle")
      const r = await new RunLiveness(strict as any).acquire("run_idle", "state_1", never, 50)
      if (!("lease" in r)) throw new Error(`no lease: ${JSON.stringify(r)}`)
      await new Promise((res) => setTimeout(res, 1000))
      await expect(r.lease.check()).resolves.toBeUndefined()
      expect(await liveness.holder()).toBe("run_idle")
      await r.lease.release()
    } finally {
      await strict.destroy()
    }
  })

  it("the lock's connection has the server send TCP keepalives (a silently dropped connection frees the lock)", async () => {
    const c = await dedicatedClient(knex as any)
    try {
      const { rows } = await c.query("select current_setting('tcp_keepalives_idle') as idle, current_setting('tcp_keepalives_count') as count")
      expect(rows[0]).toEqual({ idle: String(LOCK_KEEPALIVE_IDLE_S), count: "3" })
    } finally {
      await c.end()
    }
  })

  it("an aborted wait gives up without the lock", async () => {
    await addRun("run_h")
    await addRun("run_w")
    const h = await lease("run_h")
    const ac = new AbortController()
    const waiting = liveness.acquire("run_w", "state_1", ac.signal, 50)
    setTimeout(() => ac.abort(), 200)
    expect(await waiting).toEqual({ aborted: true })
    expect(await runStatus("run_w")).toBe("queued")
    await h.release()
  })
})
