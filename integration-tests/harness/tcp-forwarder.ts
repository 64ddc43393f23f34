// A TCP forwarder the test controls, in front of the catalog: "pass" forwards, "refuse" closes
// the listening socket (a client gets ECONNREFUSED, as from a stopped server), "reset" accepts and
// resets each connection at once (ECONNRESET), "stall" accepts and never answers (a timeout).
// Switching mode also ends the connections already open, so a keep-alive socket cannot bypass it.
// resetNext(n) resets only the next n connections, then forwards again (one failed request).
import net from "node:net"

export type ForwarderMode = "pass" | "refuse" | "reset" | "stall"

export interface TcpForwarder {
  url: string
  port: number
  mode(): ForwarderMode
  setMode(mode: ForwarderMode): Promise<void>
  /** Resets the next `count` new connections, then forwards again; open connections are ended first. */
  resetNext(count: number): void
  /** Connections reset so far (by "reset" or resetNext). */
  resets(): number
  close(): Promise<void>
}

export async function startTcpForwarder(target: { host: string; port: number }): Promise<TcpForwarder> {
  let mode: ForwarderMode = "pass"
  let resetBudget = 0
  let resets = 0
  const open = new Set<net.Socket>()
  const onConnection = (client: net.Socket) => {
    open.add(client)
    client.on("close", () => open.delete(client))
    client.on("error", () => undefined)
    if (mode === "reset" || resetBudget > 0) {
      if (mode !== "reset") resetBudget--
      resets++
      return void client.resetAndDestroy()
    }
    if (mode === "stall") return // held open, never answered
    const upstream = net.connect(target.port, target.host)
    open.add(upstream)
    upstream.on("close", () => (open.delete(upstream), client.destroy()))
    upstream.on("error", () => client.destroy())
    client.on("close", () => upstream.destroy())
    client.pipe(upstream)
    upstream.pipe(client)
  }
  let server = net.createServer(onConnection)
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", () => resolve()))
  await listen(0)
  const port = (server.address() as net.AddressInfo).port
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    mode: () => mode,
    resetNext(count) {
      resetBudget = count
      for (const socket of open) socket.destroy()
    },
    resets: () => resets,
    async setMode(next) {
      const wasListening = mode !== "refuse"
      mode = next
      for (const socket of open) socket.destroy()
      if (next === "refuse" && wasListening) await closeServer()
      if (next !== "refuse" && !wasListening) {
        server = net.createServer(onConnection)
        await listen(port)
      }
    },
    async close() {
      for (const socket of open) socket.destroy()
      if (mode !== "refuse") await closeServer()
    },
  }
}
