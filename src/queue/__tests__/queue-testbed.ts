// Shared by the queue specs that drive a real CatalogSyncQueue on the Redis at 127.0.0.1 with a
// fake module service and run lock: the fake's run updates (as the module service applies them)
// and the Redis connections and queues, opened before the file's tests and closed after them.
import Redis from "ioredis"
import { CatalogSyncQueue } from "../catalog-sync-queue"
import { closeRedis, createRedis } from "../redis"
import type { RunLivenessLike } from "../run-liveness"

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379"

/** updateCatalogSyncRuns over a map of rows: `{id, ...}` or `{selector: {id, status?}, data}`. */
export function fakeRunUpdates(runs: Map<string, any>) {
  return async (patch: any) => {
    const selector = patch.selector ?? { id: patch.id }
    const data = patch.selector ? patch.data : patch
    const row = runs.get(selector.id)
    if (!row || (selector.status && row.status !== selector.status)) return []
    Object.assign(row, data, { id: row.id })
    return patch.selector ? [{ ...row }] : { ...row }
  }
}

/** Registers beforeAll/afterAll; `queueFor` builds a queue that is obliterated and closed afterwards. */
export function queueTestbed(name: string) {
  let redis: Redis
  let connection: Redis
  const queues: CatalogSyncQueue[] = []
  beforeAll(() => {
    redis = new Redis(REDIS_URL)
    connection = createRedis(REDIS_URL, name)
  })
  afterAll(async () => {
    for (const q of queues) {
      await q.queue.obliterate({ force: true }).catch(() => undefined)
      await q.close()
    }
    await closeRedis(redis)
    await closeRedis(connection)
  })
  return {
    queueFor(prefix: string, service: unknown, liveness: RunLivenessLike): CatalogSyncQueue {
      const q = new CatalogSyncQueue({ queueConnection: connection, redis, prefix, service: () => service as any, liveness })
      queues.push(q)
      return q
    },
    count: () => queues.length,
  }
}
