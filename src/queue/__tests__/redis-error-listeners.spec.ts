// Every Redis client of the plugin has an error listener: with Redis gone while the workers are
// blocked on it (BZPOPMIN / BRPOPLPUSH) and the page-writes event stream on XREAD, every client's
// reconnect attempts are refused and each really emits 'error'. Each error must reach the plugin's
// listener for that client (named below), and nothing may be printed: an ioredis client without a
// listener prints "[ioredis] Unhandled error event", and BullMQ (5.x) drops a queue's, worker's or
// event stream's error silently when it has none. Uses a redis-server of its own on a free port
// (killed by the test), never the shared one.
import { spawn, type ChildProcess } from "node:child_process"
import net from "node:net"
import { randomUUID } from "node:crypto"
import { CatalogSyncQueue } from "../catalog-sync-queue"
import { CatalogSyncWorker } from "../catalog-sync-worker"
import { PageWritesQueue } from "../page-writes-queue"
import { PageWritesWorker } from "../page-writes-worker"
import { RedisConnections } from "../redis"

jest.setTimeout(60_000)

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" })
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)))
      socket.on("error", () => resolve(false))
    })
    if (up) return child
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error("redis-server did not start")
}

/** Each client of the plugin and the name its listener reports it by (as the runtime opens them: service.ts). */
const CONNECTIONS = ["commands", "queue", "worker", "page-writes", "page-events", "page-writer"]
const BULLMQ_SOURCES = ["run queue", "run worker", "page-writes queue", "page-writes events", "page writer"]

describe("Redis clients of the plugin during an outage", () => {
  it("each one's errors reach its listener while Redis is gone, none is printed; all work again once it is back", async () => {
    const port = await freePort()
    let server = await startRedis(port)
    const printed: string[] = []
    const consoleError = jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")))
    const consoleWarn = jest.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")))
    const reported = new Map<string, string>()
    const report = (source: string, e: Error) => void (reported.has(source) || reported.set(source, e.message))
    const connections = new RedisConnections(`redis://127.0.0.1:${port}`, (name, e) => report(`redis ${name}`, e))
    const prefix = `mcs-unit-listeners-${randomUUID()}`
    const noRun = { holder: async () => null, acquire: async () => ({ taken: true }) } as any
    const queue = new CatalogSyncQueue({
      queueConnection: connections.connect("queue"),
      redis: connections.commands()!,
      prefix,
      service: () => ({}) as any,
      liveness: noRun,
      onError: (e) => report("run queue", e),
    })
    /** The workers report through the plugin's logger: their 'error' listeners write a warning. */
    const workerLogger = (source: string, match: RegExp) => ({
      info: () => undefined,
      error: () => undefined,
      warn: (line: string) => void (match.test(line) && report(source, new Error(line))),
    })
    const worker = new CatalogSyncWorker({
      connection: connections.connect("worker"),
      prefix,
      liveness: noRun,
      queue: { recover: async () => null } as any,
      container: {} as any,
      service: () => ({ getEffectiveSettings: async () => ({}) }) as any,
      runSync: async () => ({}) as any,
      clients: { create: () => ({}) as any },
      logger: workerLogger("run worker", /^catalog sync worker: /) as any,
    })
    const pages = new PageWritesQueue({
      queueConnection: connections.connect("page-writes"),
      eventsConnection: connections.connect("page-events"),
      prefix,
      onError: (source, e) => report(source, e),
    })
    const writer = new PageWritesWorker({
      connection: connections.connect("page-writer"),
      prefix,
      concurrency: 1,
      jobLockMs: 30_000,
      liveness: noRun,
      container: () => ({}) as any,
      logger: workerLogger("page writer", /^catalog sync: page writer: /),
    })
    const expected = [...CONNECTIONS.map((c) => `redis ${c}`), ...BULLMQ_SOURCES].sort()
    try {
      await queue.init()
      await pages.init()
      await Promise.all([worker.worker.waitUntilReady(), writer.worker.waitUntilReady()])
      // The workers are now blocked on Redis waiting for jobs, the event stream on XREAD.
      await new Promise((r) => setTimeout(r, 500))
      expect([...reported.keys()]).toEqual([])
      server.kill("SIGKILL")
      await new Promise((r) => server.once("exit", r))
      // Commands while Redis is gone wait for it (BullMQ's connections retry forever).
      const waiting = queue.queue.getJobScheduler("x").catch(() => undefined)
      for (let i = 0; i < 150 && reported.size < expected.length; i++) await new Promise((r) => setTimeout(r, 100))
      expect([...reported.keys()].sort()).toEqual(expected)
      // Each error is the refused reconnect (or the lost connection), never something else.
      for (const [source, message] of reported) expect(`${source}: ${message}`).toMatch(/ECONNREFUSED|Connection is closed|ECONNRESET|connect/i)
      expect(printed).toEqual([])
      // Back (empty): the same clients work again.
      server = await startRedis(port)
      await waiting
      await queue.init()
      expect(await queue.queue.getGlobalConcurrency()).toBe(1)
      // The page writer's connection names itself again once it has reconnected (BullMQ lists
      // workers by client name): on a loaded machine that comes after the first command answers.
      let writers = await pages.writers()
      for (let i = 0; i < 100 && writers !== 1; i++) {
        await new Promise((r) => setTimeout(r, 100))
        writers = await pages.writers()
      }
      expect(writers).toBe(1)
    } finally {
      consoleError.mockRestore()
      consoleWarn.mockRestore()
      // Closing waits for Redis: a test that failed while it was gone brings it back first.
      if (server.exitCode !== null || server.signalCode !== null) server = await startRedis(port)
      // Bounded: a client left broken by a failure above must not hide that failure behind a timeout.
      const bounded = (closing: Promise<unknown>) => Promise.race([closing.catch(() => undefined), new Promise((r) => setTimeout(r, 5_000).unref())])
      await bounded(writer.close())
      await bounded(worker.close())
      await bounded(pages.close())
      await bounded(queue.close())
      await bounded(connections.closeAll())
      server.kill("SIGKILL")
    }
  })
})
