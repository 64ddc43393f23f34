// Shared helpers for the client tests: a sandbox on loopback and its control API over HTTP.
import { startSandbox, type Sandbox, type SandboxOptions } from "../../../sandbox/server"
import { CatalogClient, type CatalogClientOptions } from "../index"
import http from "node:http"
import type { AddressInfo } from "node:net"

export const TEST_KEY = "test-key-5f1c9a7e-SECRET"

/** Lets clients adopt the sandbox's raised limits (the default ceiling is 60/min, 3 at once). */
export const SANDBOX_CEILING = { requestsPerMinute: 1_000_000, maxConcurrent: 1000 }

export function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ products: 300, seed: 1, apiKey: TEST_KEY, rpm: 6000, concurrency: 3, port: 0, controlPort: 0, ...options })
}

export async function control(sb: Sandbox, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${sb.controlUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status} ${await response.text()}`)
  return response.json()
}

export function clientFor(sb: Sandbox, options: Partial<CatalogClientOptions> = {}): CatalogClient {
  return new CatalogClient({
    baseUrl: sb.baseUrl,
    apiKey: sb.apiKey,
    retry: { baseDelayMs: 10, maxDelayMs: 50 },
    // The sandbox runs with raised limits (6000/min); let the client adopt them.
    limitCeiling: SANDBOX_CEILING,
    ...options,
  })
}

/** Ids of every product on sale, from the sandbox's own state (exact, as decimal strings). */
export function productIdsOnSale(sb: Sandbox): string[] {
  return sb.state.catalog
    .all()
    .filter((p: any) => !p.removed)
    .map((p: any) => String(p.idText ?? p.id))
}

/** Starts a test server on a free loopback port; resolves with the port. */
export async function listenOnLoopback(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}

/**
 * A test server on a free loopback port for the describe block that calls this, counting the
 * connections it accepts (an address the policy refuses must open none).
 */
export function countingLoopbackServer(handler: http.RequestListener): { port: number; accepted: number } {
  const served = { port: 0, accepted: 0 }
  const server = http.createServer(handler)
  server.on("connection", () => served.accepted++)
  beforeAll(async () => {
    served.port = await listenOnLoopback(server)
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return served
}
