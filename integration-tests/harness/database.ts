import crypto from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { Client } from "pg"
import { DEMO_DIR, PLUGIN_BUILD_DIR } from "./paths"
import { runMedusaCommand } from "./medusa-cli"

/**
 * Databases for integration tests. Migrating a fresh Medusa database takes ~10 s, so
 * each distinct schema (plugin migrations, links, app config, flags) is migrated once
 * into a template database, with the admin user already in it; every test then gets
 * its own copy with CREATE DATABASE ... TEMPLATE (well under a second).
 */

export const PG_HOST = process.env.DB_HOST || "localhost"
export const PG_USER = process.env.DB_USERNAME || "postgres"
export const PG_PASSWORD = process.env.DB_PASSWORD || ""
export const PG_PORT = Number(process.env.DB_PORT || 5432)

export const ADMIN_EMAIL = "admin@example.com"
export const ADMIN_PASSWORD = "supersecret"

export function databaseUrl(name: string): string {
  const auth = PG_PASSWORD ? `${PG_USER}:${encodeURIComponent(PG_PASSWORD)}` : PG_USER
  return `postgres://${auth}@${PG_HOST}:${PG_PORT}/${name}`
}

async function withAdminClient<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({
    host: PG_HOST,
    port: PG_PORT,
    user: PG_USER,
    password: PG_PASSWORD || undefined,
    database: "postgres",
  })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

export async function databaseExists(name: string): Promise<boolean> {
  return withAdminClient(async (c) => {
    const r = await c.query("select 1 from pg_database where datname = $1", [name])
    return (r.rowCount ?? 0) > 0
  })
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdminClient((c) => c.query(`drop database if exists "${name}" with (force)`))
}

export async function createDatabase(name: string, template?: string): Promise<void> {
  await withAdminClient(async (c) => {
    await c.query(`drop database if exists "${name}" with (force)`)
    // A copy needs the template free of sessions for a moment: one briefly open elsewhere
    // (another worker's existence check, a clone being set up) answers 55006; try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await c.query(`create database "${name}"${template ? ` template "${template}"` : ""}`)
        return
      } catch (e: any) {
        if (!template || e.code !== "55006" || attempt >= 60) throw e
        await new Promise((r) => setTimeout(r, 500))
      }
    }
  })
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  const out: string[] = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...filesUnder(p))
    else out.push(p)
  }
  return out.sort()
}

/** A hash of everything that shapes the migrated schema. */
function schemaKey(env: Record<string, string | undefined>): string {
  const h = crypto.createHash("sha256")
  const inputs = [
    ...filesUnder(path.join(PLUGIN_BUILD_DIR, "src", "modules")).filter((f) => f.includes("migrations")),
    ...filesUnder(path.join(PLUGIN_BUILD_DIR, "src", "links")),
    path.join(DEMO_DIR, "medusa-config.ts"),
    path.join(DEMO_DIR, "..", "package-lock.json"),
  ]
  for (const f of inputs) {
    if (fs.existsSync(f)) h.update(f).update(fs.readFileSync(f))
  }
  h.update(String(env.DISABLE_TRANSLATION ?? ""))
  // The Index module adds its own tables (only when a test turns it on). Caching is left out: with
  // its in-memory provider it adds none (its migrated template had the default's tables, columns and
  // migration rows, checked on Medusa 2.21), so its apps clone the default template.
  for (const flag of ADDITIVE_FLAGS) if (env[flag]) h.update(`${flag}=${env[flag]}`)
  return h.digest("hex").slice(0, 12)
}

/** Demo switches that turn on a module which only adds tables to the schema. */
const ADDITIVE_FLAGS = ["DEMO_INDEX_ENGINE"] as const

function withoutAdditiveFlags(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const rest = { ...env }
  for (const flag of ADDITIVE_FLAGS) delete rest[flag]
  return rest
}

/**
 * Returns the name of a migrated template database (with the admin user) for the
 * current build and env, creating it when absent. A PostgreSQL advisory lock on the template's
 * name keeps parallel jest workers (and engineers sharing the server) from migrating the same
 * template twice: the others wait, then find it made. The lock goes with its connection, so a
 * worker that dies mid-migration frees it, and its half-built database is made again.
 */
export async function ensureTemplateDatabase(env: Record<string, string | undefined> = {}): Promise<string> {
  const name = `mcs_tpl_${schemaKey(env)}`
  if (await databaseExists(name)) return name
  return withAdvisoryLock(name, async () => {
    if (await databaseExists(name)) return name
    const building = `${name}_building`
    const dbEnv = { ...env, DATABASE_URL: databaseUrl(building) }
    // A module that only adds tables (the Index module) starts from the plain template:
    // db:migrate then runs only that module's migrations and the links' sync, not every module's.
    const base = ADDITIVE_FLAGS.some((flag) => env[flag]) ? await ensureTemplateDatabase(withoutAdditiveFlags(env)) : null
    await createDatabase(building, base ?? undefined)
    // A shared, busy machine migrates far slower than the default command timeout allows.
    await runMedusaCommand(["db:migrate"], dbEnv, 900_000)
    if (!base) await runMedusaCommand(["user", "-e", ADMIN_EMAIL, "-p", ADMIN_PASSWORD], dbEnv)
    await withAdminClient((c) => c.query(`alter database "${building}" rename to "${name}"`))
    return name
  })
}

/**
 * Runs `fn` holding PostgreSQL's session advisory lock on `key`: callers in any process wait
 * their turn. The lock belongs to a connection of its own, so it is freed when the holder's
 * process dies, however it dies.
 */
export async function withAdvisoryLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  return withAdminClient(async (lock) => {
    await lock.query("select pg_advisory_lock(hashtext($1))", [key])
    try {
      return await fn()
    } finally {
      await lock.query("select pg_advisory_unlock(hashtext($1))", [key])
    }
  })
}

/** A fresh, migrated database with the admin user, named for the test. */
export async function createTestDatabase(
  label: string,
  env: Record<string, string | undefined> = {}
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const template = await ensureTemplateDatabase(env)
  const safe = label
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .slice(0, 30)
  const name = `mcs_t_${safe}_${process.pid}_${crypto.randomBytes(3).toString("hex")}`
  await createDatabase(name, template)
  return { name, url: databaseUrl(name), drop: () => dropDatabase(name) }
}

/** One query on its own connection: the rows. */
export async function sql<T = any>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const pg = new Client({ connectionString: databaseUrl })
  await pg.connect()
  try {
    return (await pg.query(text, params)).rows as T[]
  } finally {
    await pg.end()
  }
}
