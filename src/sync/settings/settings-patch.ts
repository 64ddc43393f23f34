// An admin's change (POST /admin/catalog-sync/settings, a partial body) and a connection
// check's target: validated with zod, every refusal naming its field (the route answers 400).
import Decimal from "decimal.js"
import { z } from "zod"
import { parseBaseUrl } from "./base-url"
import { MASKED_KEY_PREFIX, type EffectiveSettings } from "./effective-settings"
import { MAX_POLL_INTERVAL_MINUTES, MIN_POLL_INTERVAL_MINUTES } from "./plugin-options"

const percent = (max: number, maxInclusive: boolean) =>
  z
    .union([z.string(), z.number()])
    .nullable()
    .transform((value, ctx) => {
      if (value === null || (typeof value === "string" && value.trim() === "")) return null
      let d: Decimal
      try {
        d = new Decimal(typeof value === "number" ? String(value) : value.trim())
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a number" })
        return z.NEVER
      }
      const tooBig = maxInclusive ? d.greaterThan(max) : d.greaterThanOrEqualTo(max)
      if (!d.isFinite() || d.isNegative() || tooBig) {
        ctx.addIssue({
          code: "custom",
          message: maxInclusive ? `must be from 0 to ${max}` : `must be from 0 and below ${max}`,
        })
        return z.NEVER
      }
      if (d.decimalPlaces() > 4) {
        ctx.addIssue({ code: "custom", message: "must have at most 4 decimals" })
        return z.NEVER
      }
      return d.toFixed()
    })

const httpUrl = z
  .string()
  .max(2000)
  .transform((value, ctx) => {
    const parsed = parseBaseUrl(value)
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message })
      return z.NEVER
    }
    return parsed.url
  })

// An HTTP header value: printable ASCII without whitespace (a CR/LF would make the request
// throw inside undici, which then looks like a network error and is retried).
const apiKeyInput = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(1000)
  .refine(
    (value) => value.startsWith(MASKED_KEY_PREFIX) || /^[\x21-\x7e]+$/.test(value),
    "must be printable characters without spaces"
  )

const optionalId = z.string().trim().min(1).max(200).nullable()

const pollInterval = `must be from ${MIN_POLL_INTERVAL_MINUTES} to ${MAX_POLL_INTERVAL_MINUTES}`

export const settingsPatchSchema = z
  .object({
    base_url: httpUrl.nullable(),
    api_key: apiKeyInput.nullable(),
    price_calculation: z.enum(["min", "avg", "max"]),
    markup_percent: percent(1000, true),
    discount_percent: percent(100, false),
    old_price_markup_percent: percent(1000, true),
    poll_interval_minutes: z.coerce
      .number()
      .int("must be a whole number")
      .min(MIN_POLL_INTERVAL_MINUTES, pollInterval)
      .max(MAX_POLL_INTERVAL_MINUTES, pollInterval),
    stock_location_id: optionalId,
    sales_channel_id: optionalId,
    removal_mode: z.enum(["delete", "draft"]),
    primary_language: z.enum(["uk", "ru"]),
    enabled: z.boolean(),
  })
  .partial()
  .strict()

export type SettingsPatch = z.output<typeof settingsPatchSchema>

export type FieldError = { field: string; message: string }

export type PatchValidation =
  | { ok: true; patch: SettingsPatch }
  | { ok: false; errors: FieldError[] }

/**
 * Validates a partial change against the current effective values (the cross-field rule
 * "not both discount and old-price markup" applies to the result, not only the body).
 */
export function validateSettingsPatch(body: unknown, current: Pick<EffectiveSettings, "pricing">): PatchValidation {
  const parsed = settingsPatchSchema.safeParse(body ?? {})
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map(issueToFieldError) }
  }
  const patch = parsed.data
  // A form that echoes the masked key back ("••••1234") means "keep the saved key".
  if (typeof patch.api_key === "string" && patch.api_key.startsWith(MASKED_KEY_PREFIX)) delete patch.api_key
  const discount = patch.discount_percent !== undefined ? patch.discount_percent : current.pricing.discount_percent
  const oldMarkup =
    patch.old_price_markup_percent !== undefined ? patch.old_price_markup_percent : current.pricing.old_price_markup_percent
  if (discount !== null && oldMarkup !== null) {
    const field = patch.discount_percent !== undefined && patch.discount_percent !== null ? "discount_percent" : "old_price_markup_percent"
    return {
      ok: false,
      errors: [{ field, message: "set either discount_percent or old_price_markup_percent, not both" }],
    }
  }
  return { ok: true, patch }
}

function issueToFieldError(issue: z.core.$ZodIssue): FieldError {
  if (issue.code === "unrecognized_keys") {
    return { field: String(issue.keys[0] ?? ""), message: "is not a setting" }
  }
  const field = issue.path.map(String).join(".") || "body"
  return { field, message: issue.message }
}

export type CheckTarget =
  | { ok: true; baseUrl: string; apiKey: string }
  | { ok: false; errors: FieldError[] }

/**
 * The URL and key a connection check (test-connection, a settings save) uses. The saved key
 * is only ever sent to the saved URL: a different base_url needs its api_key in the request.
 */
export function connectionCheckTarget(
  input: { base_url?: string | null; api_key?: string | null },
  current: Pick<EffectiveSettings, "baseUrl" | "apiKey">
): CheckTarget {
  const bodyUrl = typeof input.base_url === "string" ? input.base_url : null
  const bodyKey = typeof input.api_key === "string" && !input.api_key.startsWith(MASKED_KEY_PREFIX) ? input.api_key : null
  if (bodyUrl !== null && bodyUrl !== current.baseUrl && bodyKey === null) {
    return {
      ok: false,
      errors: [{ field: "api_key", message: "is required when base_url differs from the saved one (the saved key is only sent to the saved address)" }],
    }
  }
  const baseUrl = bodyUrl ?? current.baseUrl
  const apiKey = bodyKey ?? current.apiKey
  if (!baseUrl) return { ok: false, errors: [{ field: "base_url", message: "is not set" }] }
  if (!apiKey) return { ok: false, errors: [{ field: "api_key", message: "is not set" }] }
  return { ok: true, baseUrl, apiKey }
}
