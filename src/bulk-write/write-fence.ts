// A run's page writes are fenced by its run lock (src/queue/run-liveness.ts): every write
// transaction of a page checks, inside itself, that the run's lock connection still holds the
// advisory lock and the state still names the run, and takes the state row FOR SHARE, so no other
// run can claim the state before the transaction ends. A write that finds the lock gone throws
// and rolls back: a run that lost its lock writes nothing. The fence travels with the page
// (its workflow input) and is set around the page's workflow (withWriteFence); writes outside a
// fenced page (a reprice run, setup, admin routes) are not fenced here.
import { AsyncLocalStorage } from "node:async_hooks"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "knex"

/** The advisory lock's key pair (two int4: a namespace, "MCS1", and the run lock). */
export const RUN_LOCK_KEY: readonly [number, number] = [0x4d435331, 1]

/** What a page's writes are fenced by: the run and the backend pid of the connection holding its lock. */
export type WriteFence = { runId: string; lockPid: number }

export class LostRunLockError extends Error {
  readonly code = "lost_run_lock"
  constructor(runId: string, why: string) {
    super(`catalog sync run ${runId} no longer holds the run lock (${why}); it stops without writing`)
    this.name = "LostRunLockError"
  }
}

const fences = new AsyncLocalStorage<WriteFence>()

/** Runs `work` with its writes fenced by `fence` (none: unfenced). */
export function withWriteFence<T>(fence: WriteFence | null | undefined, work: () => Promise<T>): Promise<T> {
  return fence ? fences.run(fence, work) : work()
}

/**
 * Throws LostRunLockError unless the fenced run still holds its lock (on its own connection) and
 * the state's token; inside a transaction, the state row stays locked FOR SHARE until it ends.
 * Does nothing outside a fenced write. Takes the transaction, or the container (the app's connection:
 * before a Medusa workflow, which commits on its own connections).
 */
export async function checkWriteFence(on: Pick<Knex, "raw"> | Pick<MedusaContainer, "resolve">): Promise<void> {
  const fence = fences.getStore()
  if (!fence) return
  // Not connection.ts's sqlOf: that module's transactions call this one.
  const sql =
    "resolve" in on && typeof on.resolve === "function" ? (on.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Pick<Knex, "raw">) : (on as Pick<Knex, "raw">)
  const { rows } = await sql.raw(
    `select 1 from mcs_sync_state s
      where s.deleted_at is null and s.current_run_id = ?
        and exists (
          select 1 from pg_locks l
           where l.locktype = 'advisory' and l.granted and l.pid = ?
             and l.database = (select oid from pg_database where datname = current_database())
             and l.classid = ? and l.objid = ? and l.objsubid = 2)
      for share of s`,
    [fence.runId, fence.lockPid, RUN_LOCK_KEY[0], RUN_LOCK_KEY[1]]
  )
  if (!rows.length) throw new LostRunLockError(fence.runId, "checked inside a page's write")
}
