// A scripted image host on loopback for the mirror's tests: routes answer with given bytes,
// content types, statuses, redirects or delays, and every request is counted per path.
import http from "node:http"
import type { AddressInfo } from "node:net"

export type Route =
  | { bytes: Buffer; type?: string; chunked?: boolean; delayMs?: number; /** answer 503 to the first N requests */ failTimes?: number }
  | { status: number; body?: string }
  | { redirect: string }

export interface ImageServer {
  url(path: string): string
  set(path: string, route: Route): void
  delete(path: string): void
  requests(path?: string): number
  resetCounts(): void
  /** Highest number of requests in flight at once. */
  peakConcurrency(): number
  close(): Promise<void>
}

export async function startImageServer(): Promise<ImageServer> {
  const routes = new Map<string, Route>()
  const counts = new Map<string, number>()
  const totals = new Map<string, number>() // never reset: failTimes counts every request
  let inFlight = 0
  let peak = 0
  const server = http.createServer(async (req, res) => {
    const [path, search] = (req.url ?? "/").split("?")
    if (path === "/__counts") {
      // For a test process that is not this one (a `medusa exec` script): counts since the last reset.
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Object.fromEntries(counts)))
      if (search === "reset=1") counts.clear()
      return
    }
    counts.set(path, (counts.get(path) ?? 0) + 1)
    totals.set(path, (totals.get(path) ?? 0) + 1)
    inFlight++
    peak = Math.max(peak, inFlight)
    res.on("close", () => inFlight--)
    const route = routes.get(path)
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found")
      return
    }
    if ("redirect" in route) {
      res.writeHead(302, { location: route.redirect }).end()
      return
    }
    if ("status" in route) {
      res.writeHead(route.status, { "content-type": "text/plain" }).end(route.body ?? "")
      return
    }
    if (route.failTimes && (totals.get(path) ?? 0) <= route.failTimes) {
      res.writeHead(503, { "content-type": "text/plain" }).end("try later")
      return
    }
    if (route.delayMs) await new Promise((r) => setTimeout(r, route.delayMs).unref())
    const headers: Record<string, string> = { "content-type": route.type ?? "image/png" }
    if (!route.chunked) headers["content-length"] = String(route.bytes.length)
    res.writeHead(200, headers)
    if (route.chunked) {
      // Without a content-length, in pieces: the size limit must hold while streaming.
      for (let i = 0; i < route.bytes.length && !res.destroyed; i += 64 * 1024) {
        res.write(route.bytes.subarray(i, i + 64 * 1024))
        await new Promise((r) => setImmediate(r))
      }
      res.end()
    } else res.end(route.bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set: (path, route) => {
      routes.set(path, route)
      totals.delete(path)
    },
    delete: (path) => routes.delete(path),
    requests: (path) => (path ? (counts.get(path) ?? 0) : [...counts.values()].reduce((a, b) => a + b, 0)),
    resetCounts: () => {
      counts.clear()
      peak = 0
    },
    peakConcurrency: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
