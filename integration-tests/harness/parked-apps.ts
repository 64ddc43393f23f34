// Booted apps handed from spec file to spec file in a jest worker (MCS_PARK_APPS=1, set by
// scripts/test.sh for the parallel medusa pass). A boot costs about ten CPU-seconds and most spec
// files boot the same configuration, so a file that is done with an idle app parks it instead of
// stopping it, and the next file of the same worker that asks for the same configuration gets it
// back as new: its database made again from the template under the same name, the plugin's Redis
// keys deleted, its log and CPU lines the new file's own. Anything that is not plainly idle and
// alive is stopped and booted anew instead.
//
// Jest gives every spec file its own module registry and globals, so the registry hangs on a
// Node core module, the one object the files of a worker share. The apps' pids are also written to
// artifacts/parked-apps/ for the project's global teardown, which stops whatever is still parked.
import childProcess from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import Redis from "ioredis"
import { ARTIFACTS_DIR } from "./paths"
import { createDatabase, dropDatabase, ensureTemplateDatabase } from "./database"
import { adoptMedusaApp, type MedusaApp } from "./medusa-app"
import { procStatFields } from "./app-cpu"
import { deleteKeysMatching } from "./redis-keys"

/**
 * The parked apps' pid files of one jest run (its main process: a worker's parent, or the process
 * itself in band), so the global teardown of another jest run on the same checkout (the Node 22
 * subset beside the parallel pass) stops only its own.
 */
function parkedAppsDir(jestProcess: number): string {
  return path.join(ARTIFACTS_DIR, "parked-apps", String(jestProcess))
}

/** A jest worker runs jest-worker's child script (jest's process object always has a `send`); in band, the test runs in jest's main process. */
function jestMainProcess(): number {
  return /jest-worker/.test(process.argv[1] ?? "") ? process.ppid : process.pid
}

export interface ParkedApp {
  key: string
  app: MedusaApp
  databaseName: string
  redisPrefix: string
  /** The secret the app encrypts the saved key with: a spec file's own (medusa-cli.ts) is made when jest loads it, per file. */
  encryptionSecretGiven: string
}

const REGISTRY = Symbol.for("medusa-catalog-sync.parked-apps")

/**
 * Apps parked in this jest worker, by configuration, the longest parked first. A few are kept: the
 * files come in order of their length, not of their settings (the default, the workflows write
 * path, an alert provider…), and one slot was taken by whichever configuration came last.
 */
const MOST_PARKED = 3

function parkedApps(): Map<string, ParkedApp> {
  const holder = childProcess as unknown as Record<symbol, Map<string, ParkedApp> | undefined>
  return (holder[REGISTRY] ??= new Map())
}

/**
 * The configuration an app may be handed on under, or null when it must not be: parking is off,
 * or the configuration turns on a module that keeps the shop's data in the process (the Index
 * module's sync state, caching's stored answers), which a database made anew would contradict.
 */
export function parkingKey(env: Record<string, string | undefined>): string | null {
  if (process.env.MCS_PARK_APPS !== "1") return null
  if (env.DEMO_INDEX_ENGINE || env.DEMO_CACHING) return null
  // A file of the spec's own (a hook's recording) makes settings no other file asks for.
  if (Object.values(env).some((value) => value?.includes(os.tmpdir()))) return null
  return JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)))
}

/** Whether the app runs no job of the sync's queues and has none waiting (its delayed ones go with its keys). */
async function idle(redis: Redis, prefix: string): Promise<boolean> {
  for (const queue of ["catalog-sync", "catalog-sync-page-writes"]) {
    const [active, waiting, prioritized] = await Promise.all([
      redis.llen(`${prefix}:${queue}:active`),
      redis.llen(`${prefix}:${queue}:wait`),
      redis.zcard(`${prefix}:${queue}:prioritized`),
    ])
    if (active + waiting + prioritized > 0) return false
  }
  return true
}

/**
 * A run's record says it ended a moment before its job does (the job logs its summary and returns
 * after): a file that waited for the run to end finds the job still active. It is given this long.
 */
const SETTLE_MS = 2_000

async function idleWithin(redis: Redis, prefix: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    if (await idle(redis, prefix)) return true
    if (Date.now() >= deadline) return false
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function withRedis<T>(fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(process.env.REDIS_URL || "redis://127.0.0.1:6379", { maxRetriesPerRequest: 2 })
  try {
    return await fn(redis)
  } finally {
    redis.disconnect()
  }
}

function alive(app: MedusaApp): boolean {
  return app.child.exitCode === null && app.child.signalCode === null
}

function pidFile(app: MedusaApp): string {
  return path.join(parkedAppsDir(jestMainProcess()), String(app.pid))
}

/** When the process started (clock ticks since boot, /proc): a pid written down is still that process only if this is unchanged. */
function startedAt(pid: number): string | null {
  return procStatFields(pid)?.[19] ?? null
}

/** Stops a parked or refused app and drops its database. */
async function retire(parked: ParkedApp): Promise<void> {
  await parked.app.stop()
  fs.rmSync(pidFile(parked.app), { force: true })
  await dropDatabase(parked.databaseName)
}

/**
 * Parks the app of a spec file that is done with it, when it can be handed on (alive and idle);
 * past MOST_PARKED, the one parked longest is stopped. False: the caller stops it as before.
 */
export async function parkApp(parked: ParkedApp): Promise<boolean> {
  if (!alive(parked.app)) return false
  if (!(await withRedis((redis) => idleWithin(redis, parked.redisPrefix, SETTLE_MS)).catch(() => false))) return false
  const apps = parkedApps()
  const replaced = apps.get(parked.key)
  apps.delete(parked.key)
  apps.set(parked.key, parked)
  parked.app.detach()
  fs.mkdirSync(path.dirname(pidFile(parked.app)), { recursive: true })
  fs.writeFileSync(pidFile(parked.app), JSON.stringify({ databaseName: parked.databaseName, startedAt: startedAt(parked.app.pid) }))
  if (replaced) await retire(replaced)
  while (apps.size > MOST_PARKED) {
    const [oldestKey, oldest] = apps.entries().next().value as [string, ParkedApp]
    apps.delete(oldestKey)
    await retire(oldest)
  }
  return true
}

/**
 * The parked app of this configuration, made new for the spec `label`: its database made again
 * from the template under the same name, the plugin's Redis keys deleted, ready for admin calls.
 * Null when none is parked for it or it could not be made new (then it is stopped).
 */
export async function takeParkedApp(key: string, env: Record<string, string | undefined>, label: string): Promise<ParkedApp | null> {
  const parked = parkedApps().get(key)
  if (!parked) return null
  parkedApps().delete(key)
  let holder = parked
  try {
    if (!alive(parked.app)) throw new Error("exited while parked")
    if (!(await withRedis((redis) => idle(redis, parked.redisPrefix)))) throw new Error("a job of the sync started while parked")
    // The database first: the app's recovery pass (every few seconds) re-creates the schedule of the
    // settings it reads, and must read none between the keys' deletion and the template's copy.
    // Its sessions are ended (WITH (FORCE)); its pools connect again.
    await dropDatabase(parked.databaseName)
    await withRedis(async (redis) => {
      // The schedule, delayed retries, leases and limits: nothing of the last file's shop is left.
      await deleteKeysMatching(redis, `${parked.redisPrefix}:*`)
      if (!(await idle(redis, parked.redisPrefix))) throw new Error("a job of the sync started while its keys were deleted")
    })
    await createDatabase(parked.databaseName, await ensureTemplateDatabase(env))
    holder = { ...parked, app: adoptMedusaApp(parked.app.child, parked.app.port, parked.app.token, label) }
    await answering(holder.app)
    fs.rmSync(pidFile(parked.app), { force: true })
    return holder
  } catch (e) {
    console.warn(`[parked-apps] not reused (${(e as Error).message}): booting a new app`)
    await retire(holder).catch(() => undefined)
    return null
  }
}

/** Until the app answers an admin route that reads the database twice in a row (its pools have connected again). */
async function answering(app: MedusaApp): Promise<void> {
  const started = Date.now()
  let good = 0
  let last = ""
  while (Date.now() - started < 60_000) {
    const res = await app.admin("/admin/catalog-sync/status").catch((e) => ({ status: 0, body: String(e) }))
    if (res.status === 200 && (await app.admin("/admin/products?limit=1").catch(() => ({ status: 0 }))).status === 200) {
      if (++good >= 2) return
    } else {
      good = 0
      last = `${res.status} ${JSON.stringify(res.body).slice(0, 300)}`
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`did not answer after its database was made again: ${last}`)
}

/** The project's global teardown (in jest's main process): stops every app its run left parked (its workers have ended) and drops their databases. */
export async function stopParkedApps(): Promise<void> {
  const dir = parkedAppsDir(process.pid)
  if (!fs.existsSync(dir)) return
  // All at once, each given a few seconds: an idle test app has nothing to finish, and a run's
  // teardown waited on them one after another (up to ten seconds each) while the cores sat idle.
  await Promise.all(
    fs.readdirSync(dir).map(async (name) => {
      const file = path.join(dir, name)
      const pid = Number(name)
      let written: { databaseName?: string; startedAt?: string | null } = {}
      try {
        written = JSON.parse(fs.readFileSync(file, "utf8"))
      } catch {
        // written half: nothing is known of it
      }
      if (written.startedAt) await stopProcess(pid, written.startedAt)
      if (written.databaseName) await dropDatabase(written.databaseName).catch(() => undefined)
      fs.rmSync(file, { force: true })
    })
  )
  fs.rmSync(dir, { recursive: true, force: true })
}

const STOP_GRACE_MS = 3_000

/**
 * SIGTERM, then SIGKILL after STOP_GRACE_MS, to the process started at `started` only (another may
 * have its pid by now); done once it is gone or a zombie (its parent, a jest worker, may be gone too).
 */
async function stopProcess(pid: number, started: string): Promise<void> {
  const running = () => {
    const fields = procStatFields(pid)
    return fields !== null && fields[0] !== "Z" && fields[19] === started
  }
  if (!running()) return
  try {
    process.kill(pid, "SIGTERM")
  } catch {
    return
  }
  const deadline = Date.now() + STOP_GRACE_MS
  while (running() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  if (running()) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // gone
    }
  }
}
