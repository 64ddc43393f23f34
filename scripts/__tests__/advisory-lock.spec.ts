// The harness's template lock (integration-tests/harness/database.ts): parallel jest workers
// take turns on one PostgreSQL advisory lock, and a holder that dies frees it.
import { randomUUID } from "node:crypto"
import { Client } from "pg"
import { PG_HOST, PG_PASSWORD, PG_PORT, PG_USER, withAdvisoryLock } from "../../integration-tests/harness/database"

jest.setTimeout(60_000)

const connect = async () => {
  const c = new Client({ host: PG_HOST, port: PG_PORT, user: PG_USER, password: PG_PASSWORD || undefined, database: "postgres" })
  await c.connect()
  return c
}

/** Sessions waiting for the advisory lock on `key`, as PostgreSQL reports them. */
async function waitersOn(observer: Client, key: string): Promise<number> {
  const r = await observer.query(
    `select count(*)::int as n from pg_locks l
      where l.locktype = 'advisory' and not l.granted and l.objid = (hashtext($1)::bigint & 4294967295)::oid`,
    [key]
  )
  return r.rows[0].n
}

async function until(what: string, check: () => Promise<boolean>) {
  for (const started = Date.now(); Date.now() - started < 30_000;) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe("withAdvisoryLock", () => {
  let observer: Client
  beforeAll(async () => {
    observer = await connect()
  })
  afterAll(async () => {
    await observer.end()
  })

  it("runs a second caller only once the first is done", async () => {
    const key = `mcs-test-${randomUUID()}`
    const order: string[] = []
    let releaseFirst!: () => void
    const first = withAdvisoryLock(key, async () => {
      order.push("first in")
      await new Promise<void>((r) => (releaseFirst = r))
      order.push("first out")
    })
    await until("the first to hold the lock", async () => order.includes("first in"))
    const second = withAdvisoryLock(key, async () => {
      order.push("second in")
    })
    // The second is queued in PostgreSQL, not running beside the first.
    await until("the second to wait for the lock", async () => (await waitersOn(observer, key)) === 1)
    expect(order).toEqual(["first in"])
    releaseFirst()
    await Promise.all([first, second])
    expect(order).toEqual(["first in", "first out", "second in"])
  })

  it("is freed when its holder's connection dies without unlocking", async () => {
    const key = `mcs-test-${randomUUID()}`
    const holder = await connect()
    holder.on("error", () => {})
    await holder.query("select pg_advisory_lock(hashtext($1))", [key])
    let ran = false
    const waiting = withAdvisoryLock(key, async () => {
      ran = true
    })
    await until("the caller to wait for the lock", async () => (await waitersOn(observer, key)) === 1)
    expect(ran).toBe(false)
    const pid = (await holder.query("select pg_backend_pid() as pid")).rows[0].pid
    await observer.query("select pg_terminate_backend($1)", [pid])
    await waiting
    expect(ran).toBe(true)
  })
})
