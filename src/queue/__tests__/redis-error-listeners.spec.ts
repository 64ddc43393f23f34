// Every Redis client of the plugin has an error listener: with Redis gone, nothing is printed as
// "[ioredis] Unhandled error event" or an unhandled BullMQ error; each error reaches the plugin's
// log instead. Uses a redis-server of its own on a free port (stopped by the test), never the
// shared one.
import { spawn, type ChildProcess } from "node:child_process"
import net from "node:net"
import { randomUUID } from "node:crypto"
import { CatalogSyncQueue } from "../catalog-sync-queue"
import { PageWritesQueue } from "../page-writes-queue"
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

describe("Redis clients of the plugin during an outage", () => {
  it("report their errors to the plugin's listeners, none unhandled", async () => {
    const port = await freePort()
    let server = await startRedis(port)
    const printed: string[] = []
    const consoleError = jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")))
    const reported: string[] = []
    const connections = new RedisConnections(`redis://127.0.0.1:${port}`, (name, e) => reported.push(`${name}: ${e.message}`))
    const prefix = `mcs-unit-listeners-${randomUUID()}`
    const queue = new CatalogSyncQueue({
      queueConnection: connections.connect("queue"),
      redis: connections.commands()!,
      prefix,
      service: () => ({}) as any,
      liveness: { holder: async () => null, acquire: async () => ({ taken: true }) },
      onError: (e) => reported.push(`queue: ${e.message}`),
    })
    const pages = new PageWritesQueue({
      queueConnection: connections.connect("page-writes"),
      eventsConnection: connections.connect("page-events"),
      prefix,
      onError: (source, e) => reported.push(`${source}: ${e.message}`),
    })
    try {
      await queue.init()
      await pages.init()
      server.kill("SIGKILL")
      await new Promise((r) => server.once("exit", r))
      // Commands while Redis is gone wait for it (BullMQ's connections retry forever).
      const waiting = queue.queue.getJobScheduler("x").catch(() => undefined)
      await new Promise((r) => setTimeout(r, 3_000))
      expect(reported.length).toBeGreaterThan(0)
      expect(printed.filter((line) => /Unhandled error event|unhandled/i.test(line))).toEqual([])
      // Back (empty): the same clients work again.
      server = await startRedis(port)
      await waiting
      await queue.init()
      expect(await queue.queue.getGlobalConcurrency()).toBe(1)
    } finally {
      consoleError.mockRestore()
      await pages.close().catch(() => undefined)
      await queue.close().catch(() => undefined)
      await connections.closeAll()
      server.kill("SIGKILL")
    }
  })
})
