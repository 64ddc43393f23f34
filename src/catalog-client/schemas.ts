// zod schemas for everything the API returns. Input is lossless-json output (numbers are
// LosslessNumber), output uses decimal strings for ids and money and JS numbers only for small
// counts. Unknown fields are dropped; optional fields may be absent.
import { z } from "zod"
import { toCatalogId } from "./ids"
import { isLosslessNumber, numberText } from "./json"

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/

/** int64 catalog id → canonical decimal string. */
export const catalogId = z.unknown().transform((value, ctx) => {
  const id = toCatalogId(value)
  if (id === null) {
    ctx.addIssue({ code: "custom", message: "expected an integer id from 1 to 9223372036854775807" })
    return z.NEVER
  }
  return id
})

/** Digits a double holds exactly: any decimal of up to 15 significant digits round-trips through one. */
const EXACT_SIGNIFICANT_DIGITS = 15

/**
 * The exact text of a JS number, when it can be known: the JSON parser keeps integers of up to
 * 15 digits as numbers. A safe integer, or a fraction of at most 15 significant digits in plain
 * notation; anything else (non-finite, unsafe integers, floats that may have lost digits) is undefined.
 */
function exactNumberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined
  if (Number.isInteger(value)) return Number.isSafeInteger(value) ? numberText(value) : undefined
  const text = numberText(value)
  if (text === undefined || !DECIMAL.test(text)) return undefined
  const significant = text.replace(/[-.]/g, "").replace(/^0+/, "")
  return significant.length <= EXACT_SIGNIFICANT_DIGITS ? text : undefined
}

/** Money and measures: a decimal string (a JSON number is accepted by its exact text). */
export const decimalString = z.unknown().transform((value, ctx) => {
  const text =
    typeof value === "string" ? value.trim()
    : isLosslessNumber(value) ? value.value
    : typeof value === "number" ? exactNumberText(value)
    : undefined
  if (text === undefined || !DECIMAL.test(text)) {
    ctx.addIssue({ code: "custom", message: "expected a decimal string" })
    return z.NEVER
  }
  return text
})

/** A safe integer (counts, versions, limits). */
export const safeInteger = z.unknown().transform((value, ctx) => {
  const text = numberText(value)
  const n = text !== undefined && /^-?[0-9]+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: "custom", message: "expected an integer" })
    return z.NEVER
  }
  return n
})

export const nonNegativeInteger = safeInteger.refine((n) => n >= 0, "expected a non-negative integer")

const text = z.string()

export const pricingEchoSchema = z.object({
  price_calculation: z.string().nullable().optional(),
  markup_percent: decimalString.nullable().optional(),
  discount_percent: decimalString.nullable().optional(),
  old_price_markup_percent: decimalString.nullable().optional(),
})

export const sizeSchema = z.object({
  size: text,
  stock: nonNegativeInteger,
  cost_price: decimalString.nullable().optional(),
  price: decimalString.nullable().optional(),
  old_price: decimalString.nullable().optional(),
})

export const imageSchema = z.object({
  url: text,
  is_main: z.boolean(),
})

const namedRef = z.object({ id: catalogId, name: text })

const attributeSchema = z.object({
  name_uk: text.nullable().optional(),
  name_ru: text.nullable().optional(),
  value_uk: text.nullable().optional(),
  value_ru: text.nullable().optional(),
})

const dimensionsSchema = z.object({
  length: decimalString.nullable().optional(),
  width: decimalString.nullable().optional(),
  height: decimalString.nullable().optional(),
})

export const productCardSchema = z.object({
  id: catalogId,
  sku: text,
  name: text,
  cost_price: decimalString.nullable(),
  price: decimalString.nullable().optional(),
  old_price: decimalString.nullable().optional(),
  in_stock: z.boolean(),
  sizes: z.array(sizeSchema),
  images: z.array(imageSchema),
  sync_version: safeInteger,
  // Fields the spec leaves "not shown"; shapes from docs/contracts.md, all optional.
  name_uk: text.nullable().optional(),
  name_ru: text.nullable().optional(),
  description_uk: text.nullable().optional(),
  description_ru: text.nullable().optional(),
  marketplace_text_uk: text.nullable().optional(),
  marketplace_text_ru: text.nullable().optional(),
  category_id: catalogId.nullable().optional(),
  brand: namedRef.nullable().optional(),
  brand_model: namedRef.nullable().optional(),
  attributes: z.array(attributeSchema).nullable().optional(),
  material_uk: text.nullable().optional(),
  material_ru: text.nullable().optional(),
  origin_country: text.nullable().optional(),
  weight_kg: decimalString.nullable().optional(),
  dimensions_cm: dimensionsSchema.nullable().optional(),
  is_new: z.boolean().nullable().optional(),
  stock: nonNegativeInteger.nullable().optional(),
  updated_at: text.nullable().optional(),
})

export const stockItemSchema = z.object({
  id: catalogId,
  sku: text.nullable().optional(),
  in_stock: z.boolean(),
  stock: nonNegativeInteger.nullable().optional(),
  cost_price: decimalString.nullable().optional(),
  price: decimalString.nullable().optional(),
  old_price: decimalString.nullable().optional(),
  sizes: z.array(sizeSchema).default([]),
  sync_version: safeInteger.nullable().optional(),
})

export const accountInfoSchema = z.object({
  plan: text.nullable(),
  plan_expires_at: text.nullable(),
  limits: z.object({
    requests_per_minute: nonNegativeInteger,
    requests_per_day: nonNegativeInteger,
    page_size_max: nonNegativeInteger,
    stock_batch_max: nonNegativeInteger,
    max_concurrent: nonNegativeInteger,
  }),
  usage: z.object({
    requests_today: nonNegativeInteger,
    quota_enforced: z.boolean(),
  }),
})

export const categorySchema = z.object({
  id: catalogId,
  parent_id: catalogId.nullable().optional().transform((v) => v ?? null),
  name: text.nullable().optional(),
  name_uk: text.nullable().optional(),
  name_ru: text.nullable().optional(),
  slug: text.nullable().optional(),
})

export const brandSchema = z.object({
  id: catalogId,
  name: text.nullable().optional(),
  slug: text.nullable().optional(),
})

export const brandModelSchema = z.object({
  id: catalogId,
  brand_id: catalogId.nullable().optional(),
  name: text.nullable().optional(),
  slug: text.nullable().optional(),
})

/** Envelope of a list page: items are validated one by one elsewhere. */
export const listEnvelopeSchema = z.object({
  data: z.array(z.unknown()),
  meta: z
    .object({
      next_cursor: text.nullable().optional(),
      has_more: z.boolean().optional(),
      pricing: pricingEchoSchema.nullable().optional(),
      missing: z.array(z.unknown()).optional(),
    })
    .optional(),
})

export const singleEnvelopeSchema = z.object({
  data: z.unknown(),
  meta: z.object({ pricing: pricingEchoSchema.nullable().optional() }).optional(),
})

export const errorBodySchema = z.object({
  error: z.object({
    code: text,
    message: text.nullable().optional(),
    request_id: text.nullable().optional(),
    details: z
      .array(z.object({ field: text.nullable().optional(), message: text.nullable().optional() }))
      .nullable()
      .optional(),
  }),
})

export type ProductCard = z.output<typeof productCardSchema>
export type ProductSize = z.output<typeof sizeSchema>
export type ProductImage = z.output<typeof imageSchema>
export type StockItem = z.output<typeof stockItemSchema>
export type AccountInfo = z.output<typeof accountInfoSchema>
export type Category = z.output<typeof categorySchema>
export type Brand = z.output<typeof brandSchema>
export type BrandModel = z.output<typeof brandModelSchema>
export type PricingEcho = z.output<typeof pricingEchoSchema>

/** One line per zod issue, "path: message", short enough for a run log. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ")
}
