// Shared by the admin routes: the 400 shape, run serialisation and the /v1/me cache.
import type { MedusaResponse } from "@medusajs/framework/http"
import type { z } from "zod"
import { CatalogApiError } from "../../../catalog-client"
import type { AccountInfo, QuotaSnapshot } from "../../../catalog-client"
import type { FieldError } from "../../../sync/settings"
import type { EffectiveSettings } from "../../../sync/settings"
import { createCatalogClientFor } from "../../../queue/catalog-client-factory"
import type { RunRow } from "../../../queue/types"

/** 400 {type: "invalid_data", message, field, errors: [{field, message}]} */
export function invalidData(res: MedusaResponse, errors: FieldError[]) {
  const first = errors[0] ?? { field: "body", message: "is invalid" }
  res.status(400).json({
    type: "invalid_data",
    message: errors.map((e) => `${e.field}: ${e.message}`).join("; "),
    field: first.field,
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

export type ApiErrorBody = { code: string; message: string; request_id: string | null }

export function apiErrorBody(e: unknown): ApiErrorBody {
  if (e instanceof CatalogApiError) return { code: e.code, message: e.message, request_id: e.requestId }
  const err = e as { code?: unknown; message?: unknown }
  return {
    code: typeof err?.code === "string" ? err.code : "network_error",
    message: typeof err?.message === "string" ? err.message : String(e),
    request_id: null,
  }
}

/** Calls /v1/me with a throwaway client for these settings. */
export async function fetchAccount(settings: Pick<EffectiveSettings, "baseUrl" | "apiKey" | "apiKeyHash" | "pricing">) {
  const client = createCatalogClientFor(null, settings)
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
}
const ACCOUNT_TTL_MS = 60_000
const accountCache = new Map<string, AccountEntry>()

/** /v1/me for GET /status, cached per process for at most a minute; never throws. */
export async function cachedAccount(settings: EffectiveSettings): Promise<AccountEntry> {
  const cacheKey = `${settings.baseUrl}|${settings.apiKeyHash}`
  const hit = accountCache.get(cacheKey)
  if (hit && Date.now() - hit.at < ACCOUNT_TTL_MS) return hit
  let entry: AccountEntry
  try {
    const { account, quota } = await fetchAccount(settings)
    entry = { at: Date.now(), account, error: null, quota }
  } catch (e) {
    entry = { at: Date.now(), account: null, error: apiErrorBody(e), quota: null }
  }
  accountCache.set(cacheKey, entry)
  return entry
}

export function forgetCachedAccounts() {
  accountCache.clear()
}
