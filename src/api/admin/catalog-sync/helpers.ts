// Shared by the admin routes: the 400 shape, run serialisation and the /v1/me cache.
import type { MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { CatalogApiError, DailyQuotaExceededError, InvalidApiKeyError, PlanRequiredError, RateLimitedError } from "../../../catalog-client"
import type { AccountInfo, QuotaSnapshot } from "../../../catalog-client"
import type { FieldError } from "../../../sync/settings"
import type { EffectiveSettings } from "../../../sync/settings"
import type { Logger } from "@medusajs/framework/types"
import { standaloneClientFactory, WeakEncryptionSecretError, type CatalogClientFactory } from "../../../queue/catalog-client-factory"
import type { RunRow } from "../../../queue/types"
import { CATALOG_SYNC_MODULE, type CatalogSyncModuleService } from "../../../modules/catalog_sync"
import { CATALOG_SYNC_RUNTIME_MODULE, type CatalogSyncRuntimeService } from "../../../modules/catalog_sync_runtime"
import { runErrorOf } from "../../../sync/write-failures"

type Resolver = { resolve<T = unknown>(key: string): T }

/** The paging fields of a list query (`limit`, `offset`), spread into the route's zod object. */
export function pagingFields(maxLimit = 200, defaultLimit = 50) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
    offset: z.coerce.number().int().min(0).default(0),
  }
}

/** The catalog_sync data module's service (settings, state, runs, product map). */
export function catalogSyncService(scope: Resolver): CatalogSyncModuleService {
  return scope.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
}

/** The runtime module's service (the queue and the catalog client factory). */
export function catalogSyncRuntime(scope: Resolver): CatalogSyncRuntimeService {
  return scope.resolve<CatalogSyncRuntimeService>(CATALOG_SYNC_RUNTIME_MODULE)
}

type CodedFieldError = FieldError & { code?: string; request_id?: string | null; expired_at?: string | null }

/**
 * 400 {type: "invalid_data", message, field, errors: [{field, message}]}; a refusal that came from
 * the catalog also has `code` and `request_id` (and `expired_at`) at the top and in its entry.
 */
export function invalidData(res: MedusaResponse, errors: CodedFieldError[]) {
  const first: CodedFieldError = errors[0] ?? { field: "body", message: "is invalid" }
  res.status(400).json({
    type: "invalid_data",
    message: errors.map((e) => `${e.field}: ${e.message}`).join("; "),
    field: first.field,
    ...(first.code ? { code: first.code, request_id: first.request_id ?? null } : {}),
    ...(first.expired_at ? { expired_at: first.expired_at } : {}),
    errors,
  })
}

export function zodFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") return { field: String(issue.keys[0] ?? ""), message: "is not accepted here" }
    return { field: issue.path.map(String).join(".") || "body", message: issue.message }
  })
}

/** A run row as the admin API returns it; the list leaves the rejected items out. */
export function serializeRun(run: RunRow | null | undefined, opts: { withRejected?: boolean } = {}) {
  if (!run) return null
  const { rejected_items, deleted_at, ...rest } = run as RunRow & { deleted_at?: unknown }
  const rejected = Array.isArray(rejected_items) ? rejected_items : []
  return {
    ...rest,
    rejected_count: rejected.length,
    ...(opts.withRejected ? { rejected_items: rejected } : {}),
  }
}

/** What the admin sees of /v1/me: the documented fields only, whatever else the API adds. */
export function publicAccount(account: AccountInfo) {
  return { plan: account.plan, plan_expires_at: account.plan_expires_at, limits: account.limits, usage: account.usage }
}

/** A failed catalog check as the admin sees it: the code, one sentence (never the code again), the request id. */
export type ApiErrorBody = { code: string; message: string; request_id: string | null; expired_at?: string | null }

/** The one answer for every failure that must not tell what is (or is not) at an address. */
export const UNREACHABLE_MESSAGE = "Could not reach the catalog at this address."

/**
 * What the admin may see of a failed catalog call. Only answers a reached catalog gives with a
 * documented code (401, 403, 429) are told apart, in fixed words; everything else (refused
 * address, closed or open port, timeout, redirect, non-JSON or unexpected answer) is the same
 * sentence, so a route cannot be used to map the shop's network. Never remote text: the
 * detail goes to the server log (the client's messages never hold the key).
 */
export function apiErrorBody(e: unknown, logger?: Pick<Logger, "warn"> | null, context = "catalog check"): ApiErrorBody {
  const { code, message } = runErrorOf(e)
  // One line: remote text must not forge log lines.
  const detail = `${code}: ${message}`.replace(/[\x00-\x1f\x7f]+/g, " ")
  logger?.warn(`catalog sync: ${context} failed: ${detail.slice(0, 2000)}`)
  if (e instanceof WeakEncryptionSecretError) return { code: e.code, message: e.message, request_id: null }
  if (e instanceof CatalogApiError) {
    const requestId = e.requestId && /^[A-Za-z0-9._:-]{1,100}$/.test(e.requestId) ? e.requestId : null
    // A bare 401/403 (any HTTP service behind a login) is not the catalog: only its own error code counts.
    if (e instanceof InvalidApiKeyError && e.code === "invalid_api_key")
      return { code: "invalid_api_key", message: "The catalog refused the API key.", request_id: requestId }
    if (e instanceof PlanRequiredError && e.code === "plan_required")
      return { code: "plan_required", message: "The catalog account's plan has no API access.", request_id: requestId }
    if (e instanceof RateLimitedError || e instanceof DailyQuotaExceededError) {
      const wait = e.retryAfterSeconds ? ` Try again in ${e.retryAfterSeconds} s.` : " Try again later."
      return {
        code: e instanceof DailyQuotaExceededError ? "daily_quota_exceeded" : "rate_limited",
        message: `The catalog is limiting requests for this key.${wait}`,
        request_id: requestId,
      }
    }
  }
  return { code: "unreachable", message: UNREACHABLE_MESSAGE, request_id: null }
}

/** Admin routes answer within seconds: one retry, no waiting out a 429, 10 s in all. */
export const ROUTE_CLIENT_RETRY = { maxRetries: 1, maxRateLimitWaits: 0 } as const
export const ROUTE_CLIENT_TIMEOUT_MS = 10_000

/**
 * Calls /v1/me with a throwaway client for these settings. It waits in the key's one limiter
 * (whatever the host: the API's limits are per key) and never adopts limits into it.
 * @param clients the runtime's client factory (routes); default a standalone one (tests)
 */
export async function fetchAccount(
  settings: Pick<EffectiveSettings, "baseUrl" | "apiKey" | "apiKeyHash" | "pricing">,
  clients: Pick<CatalogClientFactory, "create"> = standaloneClientFactory()
) {
  const client = clients.create(settings, {
    signal: AbortSignal.timeout(ROUTE_CLIENT_TIMEOUT_MS),
    retry: ROUTE_CLIENT_RETRY,
    adoptLimits: false,
  })
  try {
    const account = await client.me()
    return { account, quota: client.quota }
  } finally {
    await client.close().catch(() => undefined)
  }
}

type AccountEntry = {
  at: number
  account: AccountInfo | null
  error: ApiErrorBody | null
  quota: QuotaSnapshot | null
  /** The sync's refusal (its blocked code and settings revision) when this answer was asked for, or null. */
  refusal?: string | null
  /** Whether the key's limiter held its plan as stale right after this answer (a /v1/me answer clears it). */
  planStaleAtRead?: boolean
  /**
   * Asked again for a stale mark: a run's next contradicting answer marks the plan stale again, and
   * the admin polls /status every few seconds while runs go, so such an answer is not asked again
   * for a stale mark within its minute (every poll would take a request from the key's quota).
   */
  askedForStaleMark?: boolean
}

/** What the /status route knows when it reads the cache: the sync's refusal now, and a way to read the limiter's stale mark. */
export type AccountContext = { refusal?: string | null; planStale?: () => Promise<boolean>; askedForStaleMark?: boolean }

/** Whether the sync is refused now under another refusal than the one the answer was read under. */
function refusedSince(entry: Pick<AccountEntry, "refusal">, refusal: string | null): boolean {
  return refusal !== null && refusal !== (entry.refusal ?? null)
}

/**
 * Whether a cached /v1/me answer is older than a refusal the catalog gave since (pure): the sync was
 * blocked (the key or the plan refused) after it was read, or the key's limiter marked the plan
 * stale after it (a refused key or /v1/me, a quota refusal, answers that contradict the plan). Such
 * an answer is not shown as the plan now: /status asks /v1/me again, once. An answer read while the
 * mark already stood (the mark could not be cleared) is not asked again for it; an error answer
 * shows no plan, so it is never outdated.
 */
export function accountAnswerOutdated(
  entry: Pick<AccountEntry, "account" | "refusal" | "planStaleAtRead" | "askedForStaleMark">,
  now: { refusal: string | null; planStale: boolean }
): boolean {
  if (!entry.account) return false
  if (refusedSince(entry, now.refusal)) return true
  return now.planStale && !entry.planStaleAtRead && !entry.askedForStaleMark
}
const ACCOUNT_TTL_MS = 60_000
/** Answers (and calls in flight) per URL and key: simultaneous misses share one /v1/me call. */
const accountCache = new Map<string, { promise: Promise<AccountEntry>; settled: AccountEntry | null }>()
/** Bumped by forgetCachedAccounts, so a call that started before it is not cached after it. */
let cacheGeneration = 0

/** /v1/me for GET /status, cached per process for at most a minute; never throws. */
export function cachedAccount(
  settings: EffectiveSettings,
  logger?: Pick<Logger, "warn"> | null,
  clients?: Pick<CatalogClientFactory, "create">,
  context: AccountContext = {}
): Promise<AccountEntry> {
  const cacheKey = `${settings.baseUrl}|${settings.apiKeyHash}`
  const hit = accountCache.get(cacheKey)
  if (hit && (!hit.settled || Date.now() - hit.settled.at < ACCOUNT_TTL_MS)) return hit.promise
  const generation = cacheGeneration
  const refusal = context.refusal ?? null
  const slot: { promise: Promise<AccountEntry>; settled: AccountEntry | null } = { promise: null as never, settled: null }
  slot.promise = fetchAccount(settings, clients)
    .then(
      async ({ account, quota }): Promise<AccountEntry> => ({
        at: Date.now(),
        account,
        error: null,
        quota,
        refusal,
        planStaleAtRead: await Promise.resolve(context.planStale?.()).catch(() => false),
        askedForStaleMark: context.askedForStaleMark ?? false,
      }),
      (e): AccountEntry => ({ at: Date.now(), account: null, error: apiErrorBody(e, logger, "status /v1/me"), quota: null, refusal })
    )
    .then((entry) => {
      if (generation === cacheGeneration && accountCache.get(cacheKey) === slot) slot.settled = entry
      return entry
    })
  accountCache.set(cacheKey, slot)
  return slot.promise
}

/** The last /v1/me answer held for these settings, however old, without calling the catalog (GET /progress's daily limit). */
export function cachedAccountIfAny(settings: Pick<EffectiveSettings, "baseUrl" | "apiKeyHash">): AccountInfo | null {
  return accountCache.get(`${settings.baseUrl}|${settings.apiKeyHash}`)?.settled?.account ?? null
}

/**
 * /v1/me for GET /status as cachedAccount, asked again when the plan a run read since (kept by the
 * key's limiter for every holder) has another daily limit than the cached answer (the plan
 * changed), and when a refusal came after the cached answer (accountAnswerOutdated: the sync was
 * blocked since, `refusal`, or the limiter marked the plan stale): the Plan row never shows an
 * answer from before a refusal as the plan now. A refused key then reads as such (its error).
 */
export async function cachedAccountAgreeingWithPlan(
  settings: EffectiveSettings,
  logger: Pick<Logger, "warn"> | null,
  clients: Pick<CatalogClientFactory, "create" | "limiterFor">,
  refusal: string | null = null
): Promise<AccountEntry> {
  const limiter = settings.apiKey ? clients.limiterFor(settings.apiKey) : null
  const heldPlan = () => Promise.resolve(limiter?.plan?.()).catch(() => null)
  const context: AccountContext = { refusal, planStale: async () => !!(await heldPlan())?.stale }
  const entry = await cachedAccount(settings, logger, clients, context)
  if (!entry.account || !settings.apiKey) return entry
  const plan = await heldPlan()
  const limitChanged = !!plan && plan.requestsPerDay !== entry.account.limits.requests_per_day
  if (!limitChanged && !accountAnswerOutdated(entry, { refusal, planStale: !!plan?.stale })) return entry
  const cacheKey = `${settings.baseUrl}|${settings.apiKeyHash}`
  // Polls side by side (two tabs) that found the same outdated answer share one call: only the
  // first replaces it; the others wait for that call.
  const current = accountCache.get(cacheKey)
  if (current && current.settled !== entry) return current.promise
  accountCache.delete(cacheKey)
  return cachedAccount(settings, logger, clients, { ...context, askedForStaleMark: !limitChanged && !refusedSince(entry, refusal) })
}

/** After a settings save: the next /status asks the API again. */
export function forgetCachedAccounts() {
  cacheGeneration++
  accountCache.clear()
}
