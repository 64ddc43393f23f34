// startSandbox(): the catalog API sandbox, in-process (tests) or from the CLI.

import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { CardRenderer } from "./cards"
import { controlActions, createControlHandler, type ControlActions } from "./control-api"
import { ReferenceDocuments } from "./endpoints/reference"
import type { FaultKind } from "./faults"
import { createPublicHandler } from "./public-api"
import { SandboxState } from "./state"

export interface SandboxOptions {
  host?: string
  /** Public API port; 0 (the default) picks a free one. */
  port?: number
  /** Control API port; 0 (the default) picks a free one. */
  controlPort?: number
  products?: number
  seed?: number
  apiKey?: string
  rpm?: number
  concurrency?: number
  dailyQuota?: number
  quotaEnforced?: boolean
  latencyMs?: number
  failRate?: number
  faultKinds?: FaultKind[]
  plan?: string | null
  planExpiresAt?: string | null
  /** Fixed HMAC secret for cursors (default: random per start, so cursors do not survive restarts). */
  cursorSecret?: string
  /** Clock, for tests. */
  now?: () => number
}

export interface Sandbox {
  /** Public API base, without /v1, e.g. http://127.0.0.1:4010 */
  baseUrl: string
  /** Control API base, e.g. http://127.0.0.1:4011 */
  controlUrl: string
  /** The current key (changes after revokeKey). */
  readonly apiKey: string
  /** Control actions in-process (same as the control API). */
  control: ControlActions
  /** The sandbox's state, for tests that need to look inside. Prefer the HTTP APIs. */
  state: SandboxState
  /** Milliseconds spent building the catalog and listening. */
  startupMs: number
  close(): Promise<void>
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const started = Date.now()
  const host = opts.host ?? "127.0.0.1"
  const state = new SandboxState({
    products: opts.products ?? 2000,
    seed: opts.seed ?? 1,
    apiKey: opts.apiKey ?? "sandbox-key",
    rpm: opts.rpm ?? 60,
    concurrency: opts.concurrency ?? 3,
    dailyQuota: opts.dailyQuota ?? 10000,
    quotaEnforced: opts.quotaEnforced ?? false,
    latencyMs: opts.latencyMs ?? 0,
    failRate: opts.failRate ?? 0,
    faultKinds: opts.faultKinds,
    plan: opts.plan === undefined ? "Ultra" : opts.plan,
    planExpiresAt: opts.planExpiresAt ?? null,
    cursorSecret: opts.cursorSecret,
    now: opts.now ?? Date.now,
  })
  const control = controlActions(state)
  const controlServer = createServer(createControlHandler(control))
  const controlPort = await listen(controlServer, host, opts.controlPort ?? 0)
  const controlUrl = `http://${urlHost(host)}:${controlPort}`

  // Card image URLs need the public address, so the renderer is made once the port is known.
  let publicHandler: ReturnType<typeof createPublicHandler> | null = null
  // A large header limit: ids (4000) and skus (8000 characters, more once percent-encoded) travel in the URL.
  const publicServer = createServer({ keepAliveTimeout: 65_000, maxHeaderSize: 64 * 1024 }, (req, res) => publicHandler!(req, res))
  const port = await listen(publicServer, host, opts.port ?? 0)
  const baseUrl = `http://${urlHost(host)}:${port}`
  const renderer = new CardRenderer(state.catalog, baseUrl, () => state.moneyAsNumbers)
  const references = new ReferenceDocuments(state.catalog, state.now)
  publicHandler = createPublicHandler(state, renderer, references)

  return {
    baseUrl,
    controlUrl,
    get apiKey() {
      return state.apiKey
    },
    control,
    state,
    startupMs: Date.now() - started,
    close: async () => {
      await Promise.all([closeServer(publicServer), closeServer(controlServer)])
    },
  }
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      server.off("error", reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host
}
