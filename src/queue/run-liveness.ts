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
// token was replaced, stores nothing and writes no further page. Inside a page, every write
// transaction checks that the lock's backend still holds it (writeFence, bulk-write/write-fence.ts).
import type { Client as PgClient } from "pg"
import { LostRunLockError, type RunFence } from "../sync-run/run-fence"
import type { WriteFence } from "../bulk-write/write-fence"
import {
  claimRun,
  clearRunToken,
  dedicatedClient,
  holdsRunToken,
  LOCK_KEEPALIVE_IDLE_S,
  RUN_LOCK_KEY,
  runLockHolder,
  runUnlock,
  tryRunLock,
  updateStateFenced,
  type LockConnectionSource,
} from "../modules/catalog_sync/sql/run-lock"

// The statements live behind the data module (modules/catalog_sync/sql/run-lock.ts).
export { RUN_LOCK_KEY, dedicatedClient, LOCK_KEEPALIVE_IDLE_S }

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

/** The app's PostgreSQL connection (knex): the holder check runs on it, the lock's own connection copies its settings. */
type Knex = Parameters<typeof runLockHolder>[0] & LockConnectionSource

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
    return runLockHolder(this.#knex)
  }

  async acquire(runId: string, stateId: string, signal: AbortSignal, pollMs = 1000): Promise<AcquireResult> {
    let client: PgClient | null = null
    try {
      while (!signal.aborted) {
        if (!client) {
          client = await this.#connect()
          client.on("error", () => undefined) // a broken connection shows as a failed query
        }
        if (await tryRunLock(client)) {
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
    let claimed: boolean
    try {
      claimed = await claimRun(this.#client, this.runId, this.#stateId)
    } catch (e) {
      await this.#unlockAndClose()
      throw e
    }
    if (!claimed) await this.#unlockAndClose()
    return claimed
  }

  async check(): Promise<void> {
    if (this.#lost) throw new LostRunLockError(this.runId, this.#lost)
    let held: boolean
    try {
      held = await holdsRunToken(this.#client, this.#stateId, this.runId)
    } catch (e) {
      this.#lost ??= `lock connection failed: ${(e as Error).message}`
      throw new LostRunLockError(this.runId, this.#lost)
    }
    if (!held) {
      this.#lost = "another run took the lock"
      throw new LostRunLockError(this.runId, this.#lost)
    }
  }

  writeFence(): WriteFence | null {
    // The backend holding the lock: a page's writes check in their own transactions that it still does.
    const pid = (this.#client as { processID?: number | null }).processID
    return typeof pid === "number" ? { runId: this.runId, lockPid: pid } : null
  }

  async updateState(stateId: string, patch: Record<string, unknown>): Promise<void> {
    if (this.#lost) throw new LostRunLockError(this.runId, this.#lost)
    let rowCount: number | null
    try {
      rowCount = await updateStateFenced(this.#client, stateId, this.runId, patch)
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
      await clearRunToken(this.#client, this.#stateId, this.runId).catch(() => undefined)
    }
    await this.#unlockAndClose()
  }

  async #unlockAndClose() {
    this.#released = true
    await runUnlock(this.#client).catch(() => undefined)
    this.#lost ??= "released"
    await this.#client.end().catch(() => undefined)
  }
}
