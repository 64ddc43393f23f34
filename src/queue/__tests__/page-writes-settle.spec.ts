// A run that replays pages of a dead run waits for those pages only while their writer lives,
// against the real Redis on 127.0.0.1: a page whose writer's process is gone (its named
// connection left Redis) can never commit, so the resume need not wait for BullMQ to notice.
import { randomUUID } from "node:crypto"
import { PageWritesQueue, WRITER_GONE_GRACE_MS } from "../page-writes-queue"
import { PageWritesWorker } from "../page-writes-worker"
import { closeRedis, createRedis } from "../redis"

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379"
jest.setTimeout(60_000)

describe("PageWritesQueue.othersSettled", () => {
  const prefix = `mcs-unit-${randomUUID()}`
  const connections = ["queue", "events", "worker"].map((name) => createRedis(REDIS_URL, `page-settle-test-${name}`))
  const [queueConnection, eventsConnection, workerConnection] = connections
  let queue: PageWritesQueue
  let writer: PageWritesWorker
  let started!: () => void
  const writing = new Promise<void>((r) => (started = r))

  beforeAll(async () => {
    queue = new PageWritesQueue({ queueConnection, eventsConnection, prefix })
    await queue.init()
    writer = new PageWritesWorker({
      connection: workerConnection,
      prefix,
      concurrency: 1,
      // Long: BullMQ's stall check cannot fail the page within the test.
      jobLockMs: 60_000,
      liveness: { holder: async () => "run_dead" },
      // A write that never ends (the process dies in the middle of it).
      container: () => ({ resolve: () => ({ raw: () => (started(), new Promise(() => undefined)) }) }) as any,
      logger: { info() {}, warn() {}, error() {} },
    })
  })
  afterAll(async () => {
    await writer?.worker.close(true).catch(() => undefined)
    await queue?.close()
    for (const c of connections) await closeRedis(c)
  })

  it("waits while the writer of another run's page lives, not once its process is gone", async () => {
    void queue.write({ runId: "run_dead", page: 0, input: { plan: { create: [{ catalogId: "1" }], update: [], stockOnly: [] } } as any }).catch(() => undefined)
    await writing
    // Alive: the page may still commit, so a replaying run waits (here until its timeout).
    expect(await queue.othersSettled("run_next", 1_500, 100)).toBe(false)
    // Its process dies: the connections close, the job stays active in BullMQ (lock not expired).
    await writer.worker.close(true)
    const [active] = await queue.queue.getActive()
    expect(active?.data.runId).toBe("run_dead")
    const from = Date.now()
    expect(await queue.othersSettled("run_next", 20_000, 100)).toBe(true)
    const waited = Date.now() - from
    expect(waited).toBeGreaterThanOrEqual(WRITER_GONE_GRACE_MS - 200)
    expect(waited).toBeLessThan(WRITER_GONE_GRACE_MS + 5_000)
    // BullMQ still counts it active: only the writer's absence let the run go on.
    expect((await queue.queue.getActive()).map((j) => j.data.runId)).toEqual(["run_dead"])
  })
})
