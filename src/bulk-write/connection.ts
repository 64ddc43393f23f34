// Where a statement of the database-access layer runs: in the caller's transaction, or on the
// app's connection when the caller passes its container. The layer's functions take either, so
// a caller names what it reads or writes and holds no connection of its own.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Knex } from "knex"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { checkWriteFence } from "./write-fence"
import { paceWrites } from "./write-pace"

/** The app's PostgreSQL connection (Medusa's own pool), the one way this plugin reaches it. */
export function knexOf(container: Pick<MedusaContainer, "resolve">): Knex {
  return container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
}

export type Sql = Knex | Knex.Transaction
export type Connection = Sql | Pick<MedusaContainer, "resolve">

/** The knex a connection stands for: the transaction or knex itself, else the container's connection. */
export function sqlOf(connection: Connection): Sql {
  // A container resolves; knex and its transactions do not.
  return typeof (connection as Partial<Pick<MedusaContainer, "resolve">>).resolve === "function"
    ? knexOf(connection as Pick<MedusaContainer, "resolve">)
    : (connection as Sql)
}

/**
 * Runs `work` in one transaction on this connection (a transaction given is nested as a savepoint).
 * Inside a fenced page write (write-fence.ts) the run's lock is checked first and again before
 * the commit: a run that lost its lock commits nothing.
 */
export async function transactionOn<T>(connection: Connection, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  // Between a paced page's transactions (write-pace.ts); nothing here otherwise.
  await paceWrites()
  return sqlOf(connection).transaction(async (trx) => {
    await checkWriteFence(trx)
    const result = await work(trx)
    await checkWriteFence(trx)
    return result
  })
}

/** Does the database answer (a trivial statement)? */
export async function databaseAnswers(connection: Connection): Promise<boolean> {
  try {
    await sqlOf(connection).raw("select 1")
    return true
  } catch {
    return false
  }
}

/**
 * Did PostgreSQL restart (or fail over) after `since`? A run that failed with an unclear error
 * (knex's "Transaction query already complete" after its connection was terminated) asks this to
 * name the true cause. Null when the database does not answer (that is the answer too).
 */
export async function databaseRestartedSince(connection: Connection, since: Date): Promise<boolean | null> {
  try {
    const result = await sqlOf(connection).raw("select pg_postmaster_start_time() > ? as restarted", [since.toISOString()])
    return !!(result as { rows: { restarted: boolean }[] }).rows[0]?.restarted
  } catch {
    return null
  }
}
