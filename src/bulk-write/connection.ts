// Where a statement of the database-access layer runs: in the caller's transaction, or on the
// app's connection when the caller passes its container. The layer's functions take either, so
// a caller names what it reads or writes and holds no connection of its own.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Knex } from "knex"
import { knexOf } from "./sql"

export type Sql = Knex | Knex.Transaction
export type Connection = Sql | Pick<MedusaContainer, "resolve">

/** The knex a connection stands for: the transaction or knex itself, else the container's connection. */
export function sqlOf(connection: Connection): Sql {
  return typeof (connection as Partial<Knex>).raw === "function" ? (connection as Sql) : knexOf(connection as Pick<MedusaContainer, "resolve">)
}

/** Runs `work` in one transaction on this connection (a transaction given is nested as a savepoint). */
export function transactionOn<T>(connection: Connection, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return sqlOf(connection).transaction(work)
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
