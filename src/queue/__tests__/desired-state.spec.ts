// What the sync keeps in Redis is re-created from the settings when Redis lost it (a restart
// empty, a failover, a flush): the poll scheduler and the queue's global concurrency. Real Redis
// on 127.0.0.1 (REDIS_URL), fake module service.
import { randomUUID } from "node:crypto"
import type { RunLivenessLike } from "../run-liveness"
import { SCHEDULER_ID } from "../catalog-sync-queue"
import { queueTestbed } from "./queue-testbed"

jest.setTimeout(20_000)

const configured = { baseUrl: "http://127.0.0.1:4010", apiKey: "k".repeat(32), enabled: true, pollIntervalMinutes: 10 } as any
const liveness: RunLivenessLike = { holder: async () => null, acquire: async () => ({ taken: true }) }

/** Deletes every key of the prefix: what a Redis restarted empty leaves of the queue. */
async function wipe(queue: { queue: { client: Promise<any> } }, prefix: string) {
  const client = await queue.queue.client
  const keys: string[] = await client.keys(`${prefix}:*`)
  if (keys.length) await client.del(...keys)
}

describe("CatalogSyncQueue.reassertDesiredState", () => {
  const testbed = queueTestbed("desired-state-test")

  it("re-creates the scheduler and the global concurrency after Redis lost them, and nothing when present", async () => {
    const prefix = `mcs-unit-desired-${randomUUID()}`
    const queue = testbed.queueFor(prefix, {}, liveness)
    await queue.init()
    await queue.syncSchedule(configured)
    expect(await queue.reassertDesiredState(configured)).toEqual([])

    await wipe(queue, prefix)
    expect(await queue.queue.getJobScheduler(SCHEDULER_ID)).toBeUndefined()
    expect(await queue.queue.getGlobalConcurrency()).toBeNull()

    expect((await queue.reassertDesiredState(configured)).sort()).toEqual(["global_concurrency", "schedule"])
    const scheduler = await queue.queue.getJobScheduler(SCHEDULER_ID)
    expect(scheduler?.every).toBe(10 * 60_000)
    expect(await queue.queue.getGlobalConcurrency()).toBe(1)
    // The next poll is one interval away, not at once.
    expect(Number(scheduler?.next)).toBeGreaterThan(Date.now() + 9 * 60_000)
    expect(await queue.nextRunAt()).not.toBeNull()
    expect(await queue.reassertDesiredState(configured)).toEqual([])
  })

  it("follows the settings: a changed interval is corrected, a disabled sync has its scheduler removed", async () => {
    const prefix = `mcs-unit-desired-${randomUUID()}`
    const queue = testbed.queueFor(prefix, {}, liveness)
    await queue.init()
    await queue.syncSchedule(configured)
    expect(await queue.reassertDesiredState({ ...configured, pollIntervalMinutes: 5 })).toEqual(["schedule"])
    expect((await queue.queue.getJobScheduler(SCHEDULER_ID))?.every).toBe(5 * 60_000)
    expect(await queue.reassertDesiredState({ ...configured, enabled: false })).toEqual(["schedule"])
    expect(await queue.queue.getJobScheduler(SCHEDULER_ID)).toBeUndefined()
    expect(await queue.reassertDesiredState({ ...configured, enabled: false })).toEqual([])
  })
})
