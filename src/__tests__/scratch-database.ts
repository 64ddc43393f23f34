// A scratch database on the real PostgreSQL server, for specs of SQL on a few tables: the
// integration harness's server settings and its create and drop (integration-tests/harness).
import { randomUUID } from "node:crypto"
import { createDatabase, dropDatabase, PG_HOST, PG_PASSWORD, PG_PORT, PG_USER } from "../../integration-tests/harness/database"

export { createDatabase, dropDatabase }

/** Connection settings (add `database`). */
export const PG = { host: PG_HOST, port: PG_PORT, user: PG_USER, password: PG_PASSWORD }

/** A database name no other run uses. */
export function scratchDatabaseName(label: string): string {
  return `mcs_unit_${label}_${randomUUID().replace(/-/g, "").slice(0, 12)}`
}
