// A scratch database on the real PostgreSQL server (127.0.0.1, or DB_HOST), for specs of SQL on a
// few tables: created and dropped through the server's `postgres` database.
import { randomUUID } from "node:crypto"
import { Client } from "pg"

export const PG = { host: process.env.DB_HOST || "127.0.0.1", port: Number(process.env.DB_PORT || 5432), user: process.env.DB_USERNAME || "postgres", password: process.env.DB_PASSWORD || "" }

/** A database name no other run uses. */
export function scratchDatabaseName(label: string): string {
  return `mcs_unit_${label}_${randomUUID().replace(/-/g, "").slice(0, 12)}`
}

/** One statement on the server's `postgres` database (create or drop a scratch database). */
export async function admin(sql: string): Promise<void> {
  const c = new Client({ ...PG, database: "postgres" })
  await c.connect()
  try {
    await c.query(sql)
  } finally {
    await c.end()
  }
}
