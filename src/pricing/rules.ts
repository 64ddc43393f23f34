// The shop's own pricing rules: their types, defaults and validation. Numbers are decimal
// strings (normalised, no exponent) so a stored rule set is exact and compares as text.
import { z } from "zod"
import { D, parseDecimal } from "./decimal"

/** Markups may go below zero (sell under cost on purpose) but never below −100 % (a negative price). */
export const MARKUP_MIN = -100
export const MARKUP_MAX = 1000
/** Money bounds: what the catalog's money schema accepts (13 integer digits, 2 decimals). */
export const MONEY_MAX = "9999999999999.99"

export type RoundingMode = "none" | "whole" | "ending"
/** "9": …9 hryvnia (1,289); "99": …99 hryvnia (1,299); ".99": …,99 kopiykas (1,287.99). */
export type RoundingEnding = "9" | "99" | ".99"
export type RoundingDirection = "up" | "nearest"

export type CategoryOverride = { type: "category"; category_id: string; markup_percent: string }
export type BrandOverride = { type: "brand"; brand_id: string; markup_percent: string }
/** Cost from `min_cost` (inclusive) below `max_cost` (exclusive); a null bound is open. */
export type CostBandOverride = { type: "cost_band"; min_cost: string | null; max_cost: string | null; markup_percent: string }
export type PricingOverride = CategoryOverride | BrandOverride | CostBandOverride
export type OverrideType = PricingOverride["type"]

export type CrossedOutRule =
  | { type: "none" }
  /** As the API's `discount_percent`: crossed-out = price / (1 − d/100). */
  | { type: "discount"; discount_percent: string }
  /** As the API's `old_price_markup_percent`: crossed-out = cost × (1 + m/100). */
  | { type: "markup"; markup_percent: string }

export type PricingRules = {
  base_markup_percent: string
  overrides: PricingOverride[]
  rounding: { mode: RoundingMode; ending: RoundingEnding | null; direction: RoundingDirection }
  /** A floor over cost no rule or rounding can undercut: cost + amount and cost × (1 + percent/100). */
  minimum_margin: { amount: string | null; percent: string | null }
  crossed_out: CrossedOutRule
}

export const DEFAULT_PRICING_RULES: PricingRules = {
  base_markup_percent: "0",
  overrides: [],
  rounding: { mode: "none", ending: null, direction: "nearest" },
  minimum_margin: { amount: null, percent: null },
  crossed_out: { type: "none" },
}

/** A decimal (string or number) within [min, max] (max exclusive when asked), normalised to text. */
function decimalField(min: string, max: string, options: { maxExclusive?: boolean; maxDecimals?: number } = {}) {
  const range = `from ${min} to ${options.maxExclusive ? "below " : ""}${max}`
  return z.union([z.string(), z.number()], { error: `must be a number ${range}` }).transform((value, ctx) => {
    const d = parseDecimal(value)
    if (d === null) {
      ctx.addIssue({ code: "custom", message: `must be a number ${range}` })
      return z.NEVER
    }
    const tooBig = options.maxExclusive ? d.gte(max) : d.gt(max)
    if (d.lt(min) || tooBig) {
      ctx.addIssue({ code: "custom", message: d.lt(min) ? `must be at least ${min}` : `must be ${options.maxExclusive ? "below" : "at most"} ${max}` })
      return z.NEVER
    }
    if (options.maxDecimals !== undefined && d.decimalPlaces() > options.maxDecimals) {
      ctx.addIssue({ code: "custom", message: `must have at most ${options.maxDecimals} decimals` })
      return z.NEVER
    }
    return d.toFixed()
  })
}

const markupPercent = decimalField(String(MARKUP_MIN), String(MARKUP_MAX), { maxDecimals: 4 })
const moneyAmount = decimalField("0", MONEY_MAX, { maxDecimals: 2 })
/** Catalog ids are 64-bit integers kept as decimal text. */
const catalogId = z
  .union([z.string(), z.number().int()], { error: "must be a catalog id (a whole number from 1)" })
  .transform((v) => String(v).trim())
  .refine((v) => /^[1-9][0-9]{0,18}$/.test(v) && (v.length < 19 || v <= "9223372036854775807"), "must be a catalog id (a whole number from 1)")

const overrideSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("category"), category_id: catalogId, markup_percent: markupPercent }).strict(),
    z.object({ type: z.literal("brand"), brand_id: catalogId, markup_percent: markupPercent }).strict(),
    z
      .object({
        type: z.literal("cost_band"),
        min_cost: moneyAmount.nullable().default(null),
        max_cost: moneyAmount.nullable().default(null),
        markup_percent: markupPercent,
      })
      .strict(),
  ],
  { error: "must be an override with type category, brand or cost_band" }
)

const crossedOutSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("none") }).strict(),
    z.object({ type: z.literal("discount"), discount_percent: decimalField("0", "100", { maxExclusive: true, maxDecimals: 4 }) }).strict(),
    z.object({ type: z.literal("markup"), markup_percent: decimalField("0", String(MARKUP_MAX), { maxDecimals: 4 }) }).strict(),
  ],
  { error: "must be a crossed-out rule with type none, discount or markup" }
)

export const pricingRulesSchema = z
  .object({
    base_markup_percent: markupPercent,
    overrides: z.array(overrideSchema).max(500, "at most 500 overrides").default([]),
    rounding: z
      .object({
        mode: z.enum(["none", "whole", "ending"]),
        ending: z.enum(["9", "99", ".99"]).nullable().default(null),
        direction: z.enum(["up", "nearest"]).default("nearest"),
      })
      .strict(),
    minimum_margin: z
      .object({
        amount: moneyAmount.nullable().default(null),
        percent: decimalField("0", String(MARKUP_MAX), { maxDecimals: 4 }).nullable().default(null),
      })
      .strict()
      .default({ amount: null, percent: null }),
    crossed_out: crossedOutSchema.default({ type: "none" }),
  })
  .strict()
  .superRefine((rules, ctx) => {
    if (rules.rounding.mode === "ending" && rules.rounding.ending === null) {
      ctx.addIssue({ code: "custom", path: ["rounding", "ending"], message: "pick an ending (…9, …99 or ,99)" })
    }
    const categories = new Map<string, number>()
    const brands = new Map<string, number>()
    rules.overrides.forEach((o, i) => {
      if (o.type === "category") {
        const first = categories.get(o.category_id)
        if (first !== undefined) {
          ctx.addIssue({ code: "custom", path: ["overrides", i, "category_id"], message: `category repeats overrides[${first}]` })
        } else categories.set(o.category_id, i)
      } else if (o.type === "brand") {
        const first = brands.get(o.brand_id)
        if (first !== undefined) {
          ctx.addIssue({ code: "custom", path: ["overrides", i, "brand_id"], message: `brand repeats overrides[${first}]` })
        } else brands.set(o.brand_id, i)
      } else {
        if (o.min_cost === null && o.max_cost === null) {
          ctx.addIssue({ code: "custom", path: ["overrides", i, "max_cost"], message: "a cost band needs a lower or an upper bound" })
        } else if (o.min_cost !== null && o.max_cost !== null && new D(o.min_cost).gte(o.max_cost)) {
          ctx.addIssue({ code: "custom", path: ["overrides", i, "max_cost"], message: "must be above the band's lower bound (cost from)" })
        }
      }
    })
  })

export type FieldError = { field: string; message: string }

export type RulesValidation = { ok: true; rules: PricingRules } | { ok: false; errors: FieldError[] }

/** Validates and normalises rules; errors name the field, e.g. `overrides[2].markup_percent`. */
export function parsePricingRules(input: unknown): RulesValidation {
  const parsed = pricingRulesSchema.safeParse(input)
  if (parsed.success) return { ok: true, rules: parsed.data as PricingRules }
  return { ok: false, errors: parsed.error.issues.map(issueToFieldError) }
}

/** ["overrides", 2, "markup_percent"] → "overrides[2].markup_percent" */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = ""
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`
    else out += (out === "" ? "" : ".") + String(part)
  }
  return out || "rules"
}

function issueToFieldError(issue: z.core.$ZodIssue): FieldError {
  if (issue.code === "unrecognized_keys") {
    const key = String(issue.keys[0] ?? "")
    return { field: fieldPath([...issue.path, key]), message: "is not a rule field" }
  }
  return { field: fieldPath(issue.path), message: issue.message }
}

/**
 * The rules that reproduce the API's own pricing parameters exactly (a shop's settings before it
 * had rules of its own): base markup = markup_percent (no markup: the cost, i.e. 0 %), the
 * crossed-out option as sent, no overrides, no rounding, no margin.
 */
export function rulesFromApiPricing(params: {
  markup_percent?: string | number | null
  discount_percent?: string | number | null
  old_price_markup_percent?: string | number | null
}): PricingRules {
  const base = parseDecimal(params.markup_percent ?? null)
  const discount = parseDecimal(params.discount_percent ?? null)
  const oldMarkup = parseDecimal(params.old_price_markup_percent ?? null)
  return {
    ...DEFAULT_PRICING_RULES,
    base_markup_percent: base === null ? "0" : base.toFixed(),
    crossed_out:
      base === null
        ? { type: "none" }
        : discount !== null
          ? { type: "discount", discount_percent: discount.toFixed() }
          : oldMarkup !== null
            ? { type: "markup", markup_percent: oldMarkup.toFixed() }
            : { type: "none" },
  }
}
