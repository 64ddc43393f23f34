// An admin's change (POST /admin/catalog-sync/settings, a partial body) and a connection
// check's target: validated with zod, every refusal naming its field (the route answers 400).
import Decimal from "decimal.js"
import { z } from "zod"
import { catalogFilterInputSchema, type CatalogFilter } from "../../catalog-filter/filter"
import { brakeThresholdsSchema, type BrakeThresholds } from "../../pricing/brake"
import { DEFAULT_PRICING_RULES, fieldPath, parsePricingRules, rulesFromApiPricing, type PricingRules } from "../../pricing/rules"
import { lockableFieldSchema } from "../../field-locks/fields"
import type { ShopLockDefaults } from "../../field-locks/locks"
import { parseBaseUrl } from "./base-url"
import { MASKED_KEY_PREFIX, type EffectiveSettings } from "./effective-settings"
import { MAX_POLL_INTERVAL_MINUTES, MIN_POLL_INTERVAL_MINUTES } from "./plugin-options"

/** A percent setting: decimal text or a number, 0 to max, at most 4 decimals; the message states the rule. */
const percent = (max: number, maxInclusive: boolean) => {
  const range = maxInclusive ? `from 0 to ${max}` : `from 0 to below ${max}`
  return z
    .union([z.string(), z.number()], { error: `must be a number ${range}` })
    .nullable()
    .transform((value, ctx) => {
      if (value === null || (typeof value === "string" && value.trim() === "")) return null
      let d: Decimal
      try {
        d = new Decimal(typeof value === "number" ? String(value) : value.trim())
      } catch {
        ctx.addIssue({ code: "custom", message: `must be a number ${range}, e.g. 30 or 12.5` })
        return z.NEVER
      }
      if (!d.isFinite()) {
        ctx.addIssue({ code: "custom", message: `must be a number ${range}` })
        return z.NEVER
      }
      if (d.isNegative() && !d.isZero()) {
        ctx.addIssue({ code: "custom", message: "must be at least 0" })
        return z.NEVER
      }
      if (maxInclusive ? d.greaterThan(max) : d.greaterThanOrEqualTo(max)) {
        ctx.addIssue({ code: "custom", message: maxInclusive ? `must be at most ${max}` : `must be below ${max}` })
        return z.NEVER
      }
      if (d.decimalPlaces() > 4) {
        ctx.addIssue({ code: "custom", message: "must have at most 4 decimals" })
        return z.NEVER
      }
      return d.toFixed()
    })
}

const httpUrl = z
  .string({ error: "must be an http(s) address such as https://api.example.com" })
  .max(2000, "must be at most 2000 characters")
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
  .string({ error: "must be the key as text" })
  .trim()
  .min(1, "must not be empty")
  .max(1000, "must be at most 1000 characters")
  .refine((value) => value.startsWith(MASKED_KEY_PREFIX) || /^[\x21-\x7e]+$/.test(value), "must be printable characters without spaces")

const optionalId = z
  .string({ error: "must be an id of this shop, or null" })
  .trim()
  .min(1, "must be an id of this shop, or null")
  .max(200, "must be at most 200 characters")
  // Medusa's ids (sloc_01…, sc_01…); anything else, a NUL included, never reaches a query.
  .regex(/^[A-Za-z0-9_-]+$/, "must be an id of this shop (letters, digits, _ and -)")
  .nullable()

// Where alerts are emailed (src/queue/catalog-sync-alerts.ts); empty or null: no email.
const alertEmail = z
  .string({ error: "must be an email address, or null" })
  .trim()
  .max(320, "must be at most 320 characters")
  .nullable()
  .transform((value, ctx) => {
    if (value === null || value === "") return null
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
      ctx.addIssue({ code: "custom", message: "must be an email address" })
      return z.NEVER
    }
    return value
  })

const pollInterval = `must be a whole number of minutes from ${MIN_POLL_INTERVAL_MINUTES} to ${MAX_POLL_INTERVAL_MINUTES}`
/** A number, or its text from a form; 7.5, "abc", true and [] all get the rule's one sentence. */
const pollMinutes = z.union([z.number(), z.string()], { error: pollInterval }).transform((value, ctx) => {
  const n = typeof value === "number" ? value : /^\s*[0-9]{1,3}\s*$/.test(value) ? Number(value) : NaN
  if (!Number.isInteger(n) || n < MIN_POLL_INTERVAL_MINUTES || n > MAX_POLL_INTERVAL_MINUTES) {
    ctx.addIssue({ code: "custom", message: pollInterval })
    return z.NEVER
  }
  return n
})
const trueOrFalse = { error: "must be true or false" }
const oneOf = (values: string[]) => ({ error: `must be one of ${values.join(", ")}` })

export const settingsPatchSchema = z
  .object(
    {
      base_url: httpUrl.nullable(),
      api_key: apiKeyInput.nullable(),
      price_calculation: z.enum(["min", "avg", "max"], oneOf(["min", "avg", "max"])),
      markup_percent: percent(1000, true),
      discount_percent: percent(100, false),
      old_price_markup_percent: percent(1000, true),
      poll_interval_minutes: pollMinutes,
      stock_location_id: optionalId,
      sales_channel_id: optionalId,
      removal_mode: z.enum(["delete", "draft"], oneOf(["delete", "draft"])),
      primary_language: z.enum(["uk", "ru"], oneOf(["uk", "ru"])),
      enabled: z.boolean(trueOrFalse),
      mirror_images: z.boolean(trueOrFalse),
      alert_email: alertEmail,
      // Checked by validateSettingsPatch (src/pricing): errors name the field inside, e.g.
      // pricing_rules.overrides[2].markup_percent. null = the default rules (the cost, no markup).
      pricing_rules: z.unknown(),
      // { remove_percent, price_drop_share_percent, price_drop_percent }: any of them.
      brake: z.unknown(),
      // Which part of the catalog the shop imports (src/catalog-filter/filter.ts).
      filter: z.unknown(),
      // { locked, auto_lock_on_admin_edit }: either; the other keeps its saved value.
      field_locks: z.unknown(),
    },
    { error: "must be a JSON object of settings" }
  )
  .partial()
  .strict()

const fieldLocksPatchSchema = z
  .object({
    locked: z.array(lockableFieldSchema, { error: "must be a list of field names" }).transform((f) => [...new Set(f)]),
    auto_lock_on_admin_edit: z.boolean(trueOrFalse),
  })
  .partial()
  .strict()

/** The brake as the admin API names it → the thresholds of src/pricing/brake.ts. */
const brakePatchSchema = z
  .object({
    remove_percent: z.unknown(),
    price_drop_share_percent: z.unknown(),
    price_drop_percent: z.unknown(),
  })
  .partial()
  .strict()

export type SettingsPatch = Omit<z.output<typeof settingsPatchSchema>, "pricing_rules" | "brake" | "field_locks" | "filter"> & {
  filter?: CatalogFilter
  pricing_rules?: PricingRules | null
  brake?: BrakeThresholds
  field_locks?: ShopLockDefaults
}

export type FieldError = { field: string; message: string }

export type PatchValidation = { ok: true; patch: SettingsPatch } | { ok: false; errors: FieldError[] }

/**
 * Validates a partial change against the current effective values (the cross-field rule
 * "not both discount and old-price markup" applies to the result, not only the body).
 */
export function validateSettingsPatch(
  body: unknown,
  current: Pick<EffectiveSettings, "pricingRules" | "pricingRulesSaved" | "storedApiPricing"> & Partial<Pick<EffectiveSettings, "brake" | "fieldLocks">>
): PatchValidation {
  const parsed = settingsPatchSchema.safeParse(body ?? {})
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map(issueToFieldError) }
  }
  const { pricing_rules: rulesInput, brake: brakeInput, field_locks: locksInput, filter: filterInput, ...fields } = parsed.data
  const patch: SettingsPatch = fields
  if (rulesInput !== undefined) {
    if (rulesInput === null) patch.pricing_rules = null
    else {
      const rules = parsePricingRules(rulesInput)
      if (!rules.ok) return { ok: false, errors: rules.errors.map((e) => ({ field: `pricing_rules.${e.field}`, message: e.message })) }
      patch.pricing_rules = rules.rules
    }
  }
  if (brakeInput !== undefined) {
    const brake = brakeOf(brakeInput, current.brake)
    if (!brake.ok) return { ok: false, errors: brake.errors }
    patch.brake = brake.brake
  }
  if (locksInput !== undefined) {
    const locks = fieldLocksPatchSchema.safeParse(locksInput)
    if (!locks.success) return { ok: false, errors: locks.error.issues.map((i) => prefixed("field_locks", issueToFieldError(i))) }
    patch.field_locks = {
      locked: locks.data.locked ?? current.fieldLocks?.locked ?? [],
      auto_lock_on_admin_edit: locks.data.auto_lock_on_admin_edit ?? current.fieldLocks?.auto_lock_on_admin_edit ?? false,
    }
  }
  if (filterInput !== undefined) {
    const filter = catalogFilterInputSchema.safeParse(filterInput ?? {})
    if (!filter.success) return { ok: false, errors: filter.error.issues.map((i) => prefixed("filter", issueToFieldError(i))) }
    patch.filter = filter.data
  }
  // A form that echoes the masked key back ("••••1234") means "keep the saved key".
  if (typeof patch.api_key === "string" && patch.api_key.startsWith(MASKED_KEY_PREFIX)) delete patch.api_key
  const folded = foldApiMarkup(patch, current)
  if (!folded.ok) return folded
  return { ok: true, patch: folded.patch }
}

/**
 * `markup_percent`, `discount_percent` and `old_price_markup_percent` (the API's parameters, still
 * accepted) are the shop's rules now: folded into `pricing_rules` (base markup, crossed-out rule)
 * over the rules the patch brings, else the current ones, so saving one is a local reprice. While
 * no rules are saved, the stored parameters and the patch's are folded together, as the API
 * combined them. A crossed-out rule given replaces the other kind (one crossed-out rule); both at once are refused.
 */
function foldApiMarkup(patch: SettingsPatch, current: Pick<EffectiveSettings, "pricingRules" | "pricingRulesSaved" | "storedApiPricing">): PatchValidation {
  const { markup_percent: markup, discount_percent: discount, old_price_markup_percent: oldMarkup, ...rest } = patch
  if (markup === undefined && discount === undefined && oldMarkup === undefined) return { ok: true, patch }
  if (discount !== undefined && discount !== null && oldMarkup !== undefined && oldMarkup !== null) {
    return { ok: false, errors: [{ field: "discount_percent", message: "set either discount_percent or old_price_markup_percent, not both" }] }
  }
  if (patch.pricing_rules === undefined && !current.pricingRulesSaved) {
    const stored = current.storedApiPricing
    const merged = {
      markup_percent: markup !== undefined ? markup : stored.markup_percent,
      discount_percent: discount !== undefined ? discount : oldMarkup ? null : stored.discount_percent,
      old_price_markup_percent: oldMarkup !== undefined ? oldMarkup : discount ? null : stored.old_price_markup_percent,
    }
    // No markup: the shop sells at cost (the API sent no price), as before.
    return { ok: true, patch: { ...rest, pricing_rules: rulesFromApiPricing({ ...merged, markup_percent: merged.markup_percent ?? "0" }) } }
  }
  // Rules cleared in the same patch (null: the default rules) are the base, not the ones saved before.
  const base = patch.pricing_rules === null ? DEFAULT_PRICING_RULES : (patch.pricing_rules ?? current.pricingRules)
  const rules: PricingRules = {
    ...base,
    base_markup_percent: markup === undefined ? base.base_markup_percent : markup === null ? "0" : markup,
    crossed_out: crossedOutAfter(base.crossed_out, discount, oldMarkup),
  }
  const checked = parsePricingRules(rules)
  if (!checked.ok) return { ok: false, errors: checked.errors.map((e) => ({ field: `pricing_rules.${e.field}`, message: e.message })) }
  return { ok: true, patch: { ...rest, pricing_rules: checked.rules } }
}

/** The crossed-out rule after a patch's discount / old-price markup (null clears a rule of that type). */
function crossedOutAfter(
  current: PricingRules["crossed_out"],
  discount: string | null | undefined,
  oldMarkup: string | null | undefined
): PricingRules["crossed_out"] {
  if (discount) return { type: "discount", discount_percent: discount }
  if (oldMarkup) return { type: "markup", markup_percent: oldMarkup }
  if (discount === null && current.type === "discount") return { type: "none" }
  if (oldMarkup === null && current.type === "markup") return { type: "none" }
  return current
}

/** The brake's new thresholds: the body's values over the current ones, each a percent 0–100. */
function brakeOf(input: unknown, current: BrakeThresholds | undefined): { ok: true; brake: BrakeThresholds } | { ok: false; errors: FieldError[] } {
  const named = brakePatchSchema.safeParse(input)
  if (!named.success) return { ok: false, errors: named.error.issues.map((i) => prefixed("brake", issueToFieldError(i))) }
  const b = named.data
  const thresholds = brakeThresholdsSchema.safeParse({
    ...(current ?? {}),
    ...(b.remove_percent !== undefined ? { removal_percent: b.remove_percent } : {}),
    ...(b.price_drop_share_percent !== undefined ? { lowered_prices_percent: b.price_drop_share_percent } : {}),
    ...(b.price_drop_percent !== undefined ? { price_drop_percent: b.price_drop_percent } : {}),
  })
  if (thresholds.success) return { ok: true, brake: thresholds.data }
  const publicName: Record<string, string> = {
    removal_percent: "remove_percent",
    lowered_prices_percent: "price_drop_share_percent",
    price_drop_percent: "price_drop_percent",
  }
  return {
    ok: false,
    errors: thresholds.error.issues.map((i) => ({ field: `brake.${publicName[String(i.path[0])] ?? fieldPath(i.path)}`, message: i.message })),
  }
}

function prefixed(prefix: string, error: FieldError): FieldError {
  return { ...error, field: `${prefix}.${error.field}` }
}

function issueToFieldError(issue: z.core.$ZodIssue): FieldError {
  if (issue.code === "unrecognized_keys") {
    return { field: String(issue.keys[0] ?? ""), message: "is not a setting" }
  }
  const field = issue.path.map(String).join(".") || "body"
  return { field, message: issue.message }
}

export type CheckTarget = { ok: true; baseUrl: string; apiKey: string } | { ok: false; errors: FieldError[] }

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
      // What is missing is the key for the new address; the address itself was not tried.
      errors: [
        {
          field: "api_key",
          message:
            "must be entered again with a new base_url: the saved key is only ever sent to the address it was saved for, so the new address has not been tried",
        },
      ],
    }
  }
  const baseUrl = bodyUrl ?? current.baseUrl
  const apiKey = bodyKey ?? current.apiKey
  if (!baseUrl) return { ok: false, errors: [{ field: "base_url", message: "is not set" }] }
  if (!apiKey) return { ok: false, errors: [{ field: "api_key", message: "is not set" }] }
  return { ok: true, baseUrl, apiKey }
}
