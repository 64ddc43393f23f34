// The public port: routing, then in order 404 → 405 → 401 → 403 → 429 → quota 429 → handler
// (which validates: 422, then 404 for absent products). Faults and latency bend the answer last.

import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { CardRenderer } from "./cards"
import type { RequestContext } from "./endpoints/context"
import { productChanges } from "./endpoints/changes"
import { me } from "./endpoints/me"
import { listProducts, productById, productBySku } from "./endpoints/products"
import { referenceEndpoint, type ReferenceDocuments } from "./endpoints/reference"
import { stock } from "./endpoints/stock"
import type { FaultKind } from "./faults"
import { QueryParams } from "./params"
import { pngFor } from "./png"
import { errorReply, type Reply } from "./reply"
import type { SandboxState } from "./state"

type Handler = (ctx: RequestContext) => Reply

interface Route {
  handler: Handler
  pathParam: string | null
  /** /v1/me answers even when the plan has no API access. */
  withoutPlan: boolean
}

const EXACT: Record<string, Handler> = {
  "/v1/me": me,
  "/v1/products": listProducts,
  "/v1/products/changes": productChanges,
  "/v1/products/by-sku": productBySku,
  "/v1/stock": stock,
  "/v1/categories": referenceEndpoint("categories"),
  "/v1/brands": referenceEndpoint("brands"),
  "/v1/brand-models": referenceEndpoint("brand-models"),
}

function route(path: string): Route | null {
  const exact = EXACT[path]
  if (exact) return { handler: exact, pathParam: null, withoutPlan: path === "/v1/me" }
  const match = /^\/v1\/products\/([^/]+)$/.exec(path)
  if (match) return { handler: productById, pathParam: decodeURIComponent(match[1]), withoutPlan: false }
  return null
}

const IMAGE_PATH = /^\/images\/([0-9]+)\/([0-9a-f]{1,16})\.png$/

export function createPublicHandler(state: SandboxState, renderer: CardRenderer, references: ReferenceDocuments) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(state, renderer, references, req, res).catch((error) => {
      if (!res.headersSent) {
        const requestId = randomUUID()
        send(res, errorReply(500, "internal_error", "Internal server error", requestId), requestId)
      } else res.destroy()
      console.error("sandbox: unexpected error", error)
    })
  }
}

async function handle(state: SandboxState, renderer: CardRenderer, references: ReferenceDocuments, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = randomUUID()
  state.stats.requests++
  const url = new URL(req.url ?? "/", "http://sandbox")
  const path = url.pathname
  state.stats.countPath(path)

  const image = IMAGE_PATH.exec(path)
  const matched = image ? null : safeRoute(path)
  // 404 and 405 come before authentication; with a valid key they still show the limits (uncounted).
  const limitsIfKeyed = (): Record<string, string> => (req.headers["x-api-key"] === state.apiKey ? limitHeaders(state, state.apiKey) : {})
  if (!image && !matched) {
    return send(res, errorReply(404, "not_found", "Unknown address", requestId, null, limitsIfKeyed()), requestId, state)
  }
  if (req.method !== "GET") {
    const message = `Method ${req.method} is not allowed; use GET`
    return send(res, errorReply(405, "method_not_allowed", message, requestId, null, { Allow: "GET", ...limitsIfKeyed() }), requestId, state)
  }
  if (image) {
    // Images are public, unlimited and uncounted, as a CDN would serve them (also after a removal or
    // photo change, as CDNs keep old files); only ids the catalog never had are 404.
    if (!state.catalog.findAny(image[1])) {
      return send(res, errorReply(404, "not_found", "Unknown image", requestId), requestId, state)
    }
    if (state.failingImages.has(path)) {
      state.stats.imageFailures++
      return send(res, errorReply(503, "unavailable", "Image host failing", requestId), requestId, state)
    }
    state.stats.images++
    return send(
      res,
      { status: 200, headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=86400" }, body: pngFor(`${image[1]}/${image[2]}`) },
      requestId,
      state
    )
  }
  const routeInfo = matched!

  const key = req.headers["x-api-key"]
  if (typeof key !== "string" || key !== state.apiKey) {
    const message = key === undefined ? "X-API-Key header is missing" : "API key is invalid or revoked"
    return send(res, errorReply(401, "invalid_api_key", message, requestId), requestId, state)
  }

  const now = state.now()
  if (!routeInfo.withoutPlan && !state.planAllowsApi()) {
    const message = state.plan === "Ultra" ? "Your Ultra subscription has expired" : "API access requires the Ultra plan"
    state.quota.count(now) // an authenticated answer: counted in the daily quota (contracts.md)
    return send(res, errorReply(403, "plan_required", message, requestId, null, limitHeaders(state, key)), requestId, state)
  }

  const admission = state.limiter.admit(key, now)
  if (!admission.ok) {
    state.stats.rateLimited[admission.reason]++
    const message =
      admission.reason === "per_minute" ? `More than ${state.limiter.rpm} requests a minute` : `More than ${state.limiter.concurrency} requests at once`
    return send(
      res,
      errorReply(429, "rate_limited", message, requestId, null, {
        ...limitHeaders(state, key),
        "Retry-After": String(admission.retryAfterSeconds),
      }),
      requestId,
      state
    )
  }
  let released = false
  const release = () => {
    if (!released) {
      released = true
      state.limiter.release(key)
    }
  }
  // Free the slot as soon as the last byte is handed to the socket ('finish'), before the client can
  // see the answer and send its next request; 'close' covers answers cut short.
  res.once("finish", release)
  res.once("close", release)

  if (state.quota.exhausted(now)) {
    release()
    state.limiter.forget(key)
    state.stats.rateLimited.daily_quota++
    return send(
      res,
      errorReply(429, "daily_quota_exceeded", `Daily quota of ${state.quota.limit} requests exceeded`, requestId, null, {
        ...limitHeaders(state, key),
        "Retry-After": String(state.quota.secondsUntilReset(now)),
      }),
      requestId,
      state
    )
  }
  state.quota.count(now)

  const fault = state.faults.draw()
  const delay = state.faults.latencyMs + (fault === "slow" ? state.faults.slowMs : 0)
  if (delay > 0) await sleep(delay)
  if (fault) state.stats.countFault(fault)
  if (fault === "reset") {
    destroyWithReset(res)
    return
  }
  const faultReply = fault ? injectedFault(fault, requestId) : null
  const ctx: RequestContext = {
    state,
    renderer,
    references,
    query: new QueryParams(url.searchParams),
    requestId,
    headers: req.headers,
    pathParam: routeInfo.pathParam,
  }
  const handlerStarted = process.hrtime.bigint()
  const reply = faultReply ?? routeInfo.handler(ctx)
  // How long the sandbox itself worked on the answer (benchmarks separate it from queueing).
  reply.headers["Server-Timing"] = `app;dur=${(Number(process.hrtime.bigint() - handlerStarted) / 1e6).toFixed(2)}`
  if (reply.status === 304) {
    state.quota.uncount()
    state.stats.notModified++
  }
  Object.assign(reply.headers, limitHeaders(state, key))
  send(res, reply, requestId, state, fault === "truncate")
}

/** X-RateLimit-Remaining and X-Quota-Remaining as they stand after this answer. */
function limitHeaders(state: SandboxState, key: string): Record<string, string> {
  const now = state.now()
  return {
    "X-RateLimit-Remaining": String(state.limiter.remaining(key, now)),
    "X-Quota-Remaining": String(state.quota.remaining(now)),
  }
}

function safeRoute(path: string): Route | null {
  try {
    return route(path)
  } catch {
    return null // malformed percent-encoding in the path
  }
}

function injectedFault(kind: FaultKind, requestId: string): Reply | null {
  switch (kind) {
    case "500":
      return errorReply(500, "internal_error", "Injected fault: internal error", requestId)
    case "502":
      return errorReply(502, "internal_error", "Injected fault: bad gateway", requestId)
    case "503":
      return errorReply(503, "service_unavailable", "Injected fault: service unavailable", requestId, null, { "Retry-After": "1" })
    case "429":
      return errorReply(429, "rate_limited", "Injected fault: rate limited", requestId, null, { "Retry-After": "1" })
    default:
      return null // slow and truncate bend a normal answer
  }
}

function send(res: ServerResponse, reply: Reply, requestId: string, state?: SandboxState, truncate = false): void {
  state?.stats.countStatus(reply.status)
  const body = reply.body === null ? null : typeof reply.body === "string" ? Buffer.from(reply.body) : reply.body
  res.statusCode = reply.status
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value)
  res.setHeader("X-Trace-ID", requestId)
  if (body === null) {
    res.end()
    return
  }
  res.setHeader("Content-Length", body.length)
  if (truncate) {
    // Promise the whole body, send half, then close the connection. A close, not a reset: a
    // reset right after the write lets the client's kernel drop what it has not read yet, and
    // Node 24's client then sees ECONNRESET before any response (the "reset" fault's case).
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy())
    return
  }
  res.end(body)
}

function destroyWithReset(res: ServerResponse): void {
  const socket = res.socket as (typeof res.socket & { resetAndDestroy?: () => void }) | null
  if (socket?.resetAndDestroy) socket.resetAndDestroy()
  else socket?.destroy()
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
