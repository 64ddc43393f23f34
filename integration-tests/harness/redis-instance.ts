// A redis-server of the test's own on a free port (never the shared one), which the test stops
// and starts again empty (no persistence: a restart loses every key, as a failover can).
import { spawn, type ChildProcess } from "node:child_process"
import net from "node:net"
import { freePort } from "./medusa-app"

export interface RedisInstance {
  url: string
  port: number
  /** Stopped (SIGKILL), then started again on the same port with no data. */
  restartEmpty(downMs: number): Promise<void>
  stop(): Promise<void>
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)))
    socket.on("error", () => resolve(false))
  })
}

export async function startRedisInstance(): Promise<RedisInstance> {
  const port = await freePort()
  let child: ChildProcess | null = null
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" })
    for (let i = 0; i < 200 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 100))
  }
  const stop = async () => {
    const c = child
    child = null
    if (!c || c.exitCode !== null) return
    const exited = new Promise((r) => c.once("exit", r))
    c.kill("SIGKILL")
    await exited
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restartEmpty(downMs) {
      await stop()
      await new Promise((r) => setTimeout(r, downMs))
      await start()
    },
    stop,
  }
}
