// The control port (never the public one): lets tests and demos change the sandbox's world.

import type { IncomingMessage, ServerResponse } from "node:http"
import { parse } from "lossless-json"
import { FAULT_KINDS, type FaultKind } from "./faults"
import { stringifyJson } from "./json"
import { pricingHash } from "./cursor"
import { QueryParams } from "./params"
import { MUTATION_KINDS, type MutationKind } from "./mutations"
import type { SandboxState } from "./state"

class BadRequest extends Error {}

type Body = Record<string, unknown>

export interface ControlActions {
  mutate(body: Body): unknown
  newCategory(body: Body): unknown
  revokeKey(): unknown
  plan(body: Body): unknown
  faults(body: Body): unknown
  limits(body: Body): unknown
  resetLimits(): unknown
  rotateCursorSecret(): unknown
  stats(): unknown
  state(): unknown
  changesCursor(body: Body): unknown
  imageFaults(body: Body): unknown
  moneyFormat(body: Body): unknown
}

/** The control actions, callable in-process as well as over HTTP. Numbers in bodies arrive as strings. */
export function controlActions(state: SandboxState): ControlActions {
  return {
    mutate(body) {
      const count = optionalInteger(body.count, "count", 0, 100_000) ?? (body.remove_ids || body.scale_ids ? 0 : 1)
      // "all" draws every kind, the churn kinds included; absent: the default kinds.
      const kinds = (body.kinds === "all" ? MUTATION_KINDS : optionalList(body.kinds, "kinds", MUTATION_KINDS)) as MutationKind[] | null
      const ids = optionalIds(body.ids, "ids")
      const removeIds = optionalIds(body.remove_ids, "remove_ids")
      const removedFirst = removeIds ? state.mutator.removeIds(removeIds) : []
      // `scale_ids` with `scale_percent`: those products' costs set to that percent (10: a tenth).
      const scaleIds = optionalIds(body.scale_ids, "scale_ids")
      const scaled = scaleIds ? state.mutator.scaleCosts(scaleIds, optionalInteger(body.scale_percent, "scale_percent", 1, 1000) ?? 10) : []
      const result = state.mutator.mutate(count, kinds ?? undefined, ids)
      const changed = [...scaled, ...result.changed.filter((id) => !scaled.includes(id))]
      return { changed, removed: [...removedFirst, ...result.removed], added: result.added }
    },
    newCategory(body) {
      // A supplier adds a category: it joins /v1/categories (new ETag) and the products named in
      // `ids` (else one product on sale) move into it, each reported once in the changes feed.
      const parentId = optionalInteger(body.parent_id, "parent_id", 1, 1_000_000)
      const nameUk = body.name_uk === undefined ? "Нова категорія" : String(body.name_uk)
      const nameRu = body.name_ru === undefined ? "Новая категория" : String(body.name_ru)
      const ids = optionalIds(body.ids, "ids")
      if (parentId !== null && !state.catalog.category(parentId)) throw new BadRequest(`parent_id ${parentId} is not a category`)
      const products = ids ? ids.map((id) => state.catalog.findLive(id)).filter((p) => p !== undefined) : state.catalog.liveProducts().slice(0, 1)
      const category = state.catalog.addCategory(nameUk, nameRu, parentId)
      for (const product of products) state.catalog.moveToCategory(product, category.id, state.now())
      return { category: { id: category.id, parent_id: category.parentId, name_uk: category.nameUk }, moved: products.map((p) => p.idText) }
    },
    revokeKey() {
      return { api_key: state.revokeKey() }
    },
    plan(body) {
      if (body.plan !== undefined && body.plan !== null && typeof body.plan !== "string") {
        throw new BadRequest("plan must be a string or null")
      }
      const expires = body.expires_at ?? null
      if (expires !== null && (typeof expires !== "string" || Number.isNaN(Date.parse(expires)))) {
        throw new BadRequest("expires_at must be an ISO date-time or null")
      }
      if (body.plan !== undefined) state.plan = body.plan as string | null // absent: keep the plan
      state.planExpiresAt = expires === null ? null : new Date(expires as string).toISOString()
      return { plan: state.plan, expires_at: state.planExpiresAt }
    },
    faults(body) {
      const failRate = optionalNumber(body.fail_rate, "fail_rate", 0, 1)
      const latency = optionalInteger(body.latency_ms, "latency_ms", 0, 600_000)
      const slow = optionalInteger(body.slow_ms, "slow_ms", 0, 600_000)
      const kinds = optionalList(body.kinds, "kinds", FAULT_KINDS) as FaultKind[] | null
      if (failRate !== null) state.faults.failRate = failRate
      if (latency !== null) state.faults.latencyMs = latency
      if (slow !== null) state.faults.slowMs = slow
      if (kinds !== null) state.faults.kinds = kinds
      return faultConfig(state)
    },
    limits(body) {
      const rpm = optionalInteger(body.rpm, "rpm", 1, 10_000_000)
      const concurrency = optionalInteger(body.concurrency, "concurrency", 1, 100_000)
      const daily = optionalInteger(body.daily_quota, "daily_quota", 0, 1_000_000_000)
      if (body.quota_enforced !== undefined && typeof body.quota_enforced !== "boolean") {
        throw new BadRequest("quota_enforced must be a boolean")
      }
      if (rpm !== null) state.limiter.rpm = rpm
      if (concurrency !== null) state.limiter.concurrency = concurrency
      if (daily !== null) state.quota.limit = daily
      if (typeof body.quota_enforced === "boolean") state.quota.enforced = body.quota_enforced
      return limitConfig(state)
    },
    resetLimits() {
      state.limiter.reset()
      state.quota.reset()
      return { ok: true }
    },
    rotateCursorSecret() {
      state.cursors.rotateSecret()
      return { ok: true }
    },
    stats() {
      return state.stats.toJSON()
    },
    imageFaults(body) {
      // { fail: ["/images/<id>/<token>.png", …] } answer 503 from now on; { heal: [...] } serve again.
      const paths = (value: unknown, name: string): string[] => {
        if (value === undefined || value === null) return []
        if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw new BadRequest(`${name} must be a list of image paths`)
        return value as string[]
      }
      for (const p of paths(body.fail, "fail")) state.failingImages.add(p)
      for (const p of paths(body.heal, "heal")) state.failingImages.delete(p)
      return { failing: [...state.failingImages] }
    },
    moneyFormat(body) {
      // { as: "number" } serves every price and cost as a bare JSON number (130.5); "string" as before ("130.50").
      if (body.as !== "number" && body.as !== "string") throw new BadRequest('as must be "number" or "string"')
      state.moneyAsNumbers = body.as === "number"
      return { as: body.as }
    },
    changesCursor(body) {
      // A changes-feed cursor at the current end of the change log, for the pricing in `query`
      // (a query string such as "markup_percent=30"): follow changes from now on without an export.
      if (body.query !== undefined && typeof body.query !== "string") throw new BadRequest("query must be a query string")
      const params = new QueryParams(new URLSearchParams((body.query as string | undefined) ?? ""))
      const pricing = params.pricing()
      if (!pricing) throw new BadRequest(params.errors.map((e) => e.message).join("; "))
      const cursor = state.cursors.encode({
        mode: "changes",
        position: BigInt(state.catalog.log.length),
        logStart: 0,
        pricingHash: pricingHash(pricing.key),
        filterHash: "00000000",
      })
      return { cursor }
    },
    state() {
      const all = state.catalog.all()
      return {
        products: all.filter((p) => !p.removed).length,
        removed: all.filter((p) => p.removed).length,
        change_log_length: state.catalog.log.length,
        api_key: state.apiKey,
        plan: state.plan,
        plan_expires_at: state.planExpiresAt,
        limits: limitConfig(state),
        faults: faultConfig(state),
      }
    },
  }
}

function faultConfig(state: SandboxState) {
  return { fail_rate: state.faults.failRate, latency_ms: state.faults.latencyMs, slow_ms: state.faults.slowMs, kinds: state.faults.kinds }
}

function limitConfig(state: SandboxState) {
  return {
    rpm: state.limiter.rpm,
    concurrency: state.limiter.concurrency,
    daily_quota: state.quota.limit,
    quota_enforced: state.quota.enforced,
  }
}

const POST_ROUTES: Record<string, keyof ControlActions> = {
  "/mutate": "mutate",
  "/new-category": "newCategory",
  "/revoke-key": "revokeKey",
  "/plan": "plan",
  "/faults": "faults",
  "/limits": "limits",
  "/reset-limits": "resetLimits",
  "/rotate-cursor-secret": "rotateCursorSecret",
  "/changes-cursor": "changesCursor",
  "/image-faults": "imageFaults",
  "/money-format": "moneyFormat",
}
const GET_ROUTES: Record<string, keyof ControlActions> = { "/stats": "stats", "/state": "state" }

export function createControlHandler(actions: ControlActions) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? "/", "http://control").pathname
    const action = (req.method === "POST" ? POST_ROUTES : req.method === "GET" ? GET_ROUTES : {})[path]
    if (!action) {
      const known = path in POST_ROUTES || path in GET_ROUTES
      return answer(res, known ? 405 : 404, { error: { code: known ? "method_not_allowed" : "not_found", message: `${req.method} ${path}` } })
    }
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      try {
        const text = Buffer.concat(chunks).toString("utf8").trim()
        const body = text ? parse(text, undefined, (digits) => digits) : {}
        if (typeof body !== "object" || body === null || Array.isArray(body)) throw new BadRequest("body must be a JSON object")
        answer(res, 200, (actions[action] as (b: Body) => unknown)(body as Body))
      } catch (error) {
        const bad = error instanceof BadRequest || error instanceof SyntaxError || /JSON|Unexpected|Expected/.test(String(error))
        answer(res, bad ? 400 : 500, { error: { code: bad ? "bad_request" : "internal_error", message: String(error?.message ?? error) } })
      }
    })
  }
}

function answer(res: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(stringifyJson(value))
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length })
  res.end(body)
}

// Numbers parsed by lossless-json arrive as digit strings; in-process callers may pass numbers.
function optionalNumber(value: unknown, name: string, min: number, max: number): number | null {
  if (value === undefined || value === null) return null
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN
  if (!Number.isFinite(number) || number < min || number > max) throw new BadRequest(`${name} must be a number from ${min} to ${max}`)
  return number
}

function optionalInteger(value: unknown, name: string, min: number, max: number): number | null {
  const number = optionalNumber(value, name, min, max)
  if (number !== null && !Number.isInteger(number)) throw new BadRequest(`${name} must be an integer`)
  return number
}

function optionalList(value: unknown, name: string, allowed: readonly string[]): string[] | null {
  if (value === undefined || value === null) return null
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => !allowed.includes(v))) {
    throw new BadRequest(`${name} must be a non-empty list of: ${allowed.join(", ")}`)
  }
  return value
}

function optionalIds(value: unknown, name: string): string[] | null {
  if (value === undefined || value === null) return null
  if (!Array.isArray(value)) throw new BadRequest(`${name} must be a list of ids`)
  return value.map((v) => {
    const text = typeof v === "bigint" ? v.toString() : String(v)
    if (!/^[0-9]+$/.test(text)) throw new BadRequest(`${name} must hold integer ids`)
    return BigInt(text).toString()
  })
}
