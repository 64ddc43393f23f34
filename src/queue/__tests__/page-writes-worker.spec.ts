// The page writer against the real Redis on 127.0.0.1: it holds V8's heap growth while it
// writes a page (given back when the write fails too), and never for a page it refuses.
import { randomUUID } from "node:crypto"
import { HeapGrowthFlag, SyncHeapGrowth } from "../heap-growth"
import { PageWritesQueue } from "../page-writes-queue"
import { PageWritesWorker } from "../page-writes-worker"
import { closeRedis, createRedis } from "../redis"

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379"
jest.setTimeout(20_000)

describe("PageWritesWorker and V8's heap growth", () => {
  const prefix = `mcs-unit-${randomUUID()}`
  const connections = ["queue", "events", "worker"].map((name) => createRedis(REDIS_URL, `page-writes-test-${name}`))
  const [queueConnection, eventsConnection, workerConnection] = connections
  const flags: string[] = []
  const heapGrowth = new SyncHeapGrowth({ percent: 100, flag: new HeapGrowthFlag({ lingerMs: 0, setFlags: (f) => flags.push(f) }) })
  const heldWhileWriting: boolean[] = []
  let holder: string | null = "run_a"
  let queue: PageWritesQueue
  let worker: PageWritesWorker

  beforeAll(async () => {
    queue = new PageWritesQueue({ queueConnection, eventsConnection, prefix })
    await queue.init()
    worker = new PageWritesWorker({
      connection: workerConnection,
      prefix,
      concurrency: 1,
      jobLockMs: 10_000,
      liveness: { holder: async () => holder },
      // The write's first read (the product map), after an await: record whether the hold is on, then fail the page.
      container: () =>
        ({
          resolve: () => ({
            raw: async () => {
              await new Promise((r) => setTimeout(r, 5))
              heldWhileWriting.push(heapGrowth.held)
              throw new Error("database gone")
            },
          }),
        }) as any,
      logger: { info() {}, warn() {}, error() {} },
      heapGrowth,
    })
  })
  afterAll(async () => {
    await worker?.close()
    await queue?.close()
    for (const c of connections) await closeRedis(c)
  })

  const page = (runId: string, n: number) => ({ runId, page: n, input: { plan: { create: [{ catalogId: "1" }], update: [], stockOnly: [] } } as any })

  it("holds it while a page is written and gives it back when the write fails", async () => {
    await expect(queue.write(page("run_a", 0))).rejects.toThrow(/database gone/)
    await new Promise((r) => setTimeout(r, 20))
    expect(heldWhileWriting).toEqual([true])
    expect(heapGrowth.held).toBe(false)
    expect(flags).toEqual(["--heap-growing-percent=100", "--heap-growing-percent=0"])
  })

  it("never holds it for a page of a run that no longer holds the run lock", async () => {
    holder = "run_b"
    await expect(queue.write(page("run_a", 1))).rejects.toThrow(/no longer holds the run lock/)
    expect(heldWhileWriting).toEqual([true])
    expect(flags).toHaveLength(2)
  })
})
