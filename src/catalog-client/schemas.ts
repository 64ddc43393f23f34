// zod schemas for everything the API returns. Input is parseCatalogJson output (numbers a
// double cannot hold are LosslessNumber, strings stay strings), output uses decimal strings for
// ids and money and JS numbers only for small counts. Unknown fields are dropped; optional
// fields may be absent. Every string is cleaned of characters PostgreSQL refuses (sanitise.ts);
// ids and counts must be JSON integers; money must be a price Medusa stores exactly; image
// URLs that are not absolute http(s) are dropped from the card (droppedImagesOf reports them).
import { z } from "zod"
import { toJsonCatalogId } from "./ids"
import { isLosslessNumber, numberText } from "./json"
import { cleanExcerpt, cleanText } from "./sanitise"

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/

/** int64 catalog id (a JSON integer; a string is refused) → canonical decimal string. */
export const catalogId = z.unknown().transform((value, ctx) => {
  const id = toJsonCatalogId(value)
  if (id === null) {
    ctx.addIssue({
      code: "custom",
      message: typeof value === "string" ? "expected an integer id, got a string" : "expected an integer id from 1 to 9223372036854775807",
    })
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
  const text = typeof value === "string" ? value.trim() : isLosslessNumber(value) ? value.value : typeof value === "number" ? exactNumberText(value) : undefined
  if (text === undefined || !DECIMAL.test(text)) {
    ctx.addIssue({ code: "custom", message: "expected a decimal string" })
    return z.NEVER
  }
  return text
})

/**
 * Money: a non-negative decimal that Medusa stores, and its store API serves, exactly. Medusa
 * keeps an amount as `numeric` plus `raw_amount` (bignumber.js text at 20 significant digits)
 * and serves it as a JS number, which holds any decimal of up to 15 significant digits exactly;
 * hryvnia have 2 decimals. So at most 13 integer digits and 2 decimals (trailing zeros aside):
 * a price beyond that is refused, never rounded.
 */
export const MONEY_MAX_INTEGER_DIGITS = 13
export const MONEY_MAX_FRACTION_DIGITS = 2

/** "-0", "-0.00" (JSON `-0.0` too): zero with a sign, which decimal.js would call negative. */
const NEGATIVE_ZERO = /^-0+(\.0+)?$/

/** Why a decimal text is not storable money, or null when it is. */
export function moneyProblem(text: string): string | null {
  if (text.startsWith("-")) return NEGATIVE_ZERO.test(text) ? null : "a price cannot be negative"
  const [whole, fraction = ""] = text.split(".")
  if (whole.replace(/^0+(?=.)/, "").length > MONEY_MAX_INTEGER_DIGITS) {
    return `more than ${MONEY_MAX_INTEGER_DIGITS} integer digits: too large to store exactly`
  }
  if (fraction.replace(/0+$/, "").length > MONEY_MAX_FRACTION_DIGITS) {
    return `more than ${MONEY_MAX_FRACTION_DIGITS} decimals: a hryvnia price is whole kopiykas`
  }
  return null
}

/** Storable money; a signed zero comes out unsigned, so every later step reads zero. */
export const moneyString = decimalString.transform((text, ctx) => {
  const problem = moneyProblem(text)
  if (problem) {
    ctx.addIssue({ code: "custom", message: `${problem} (got ${cleanExcerpt(text, 40)})` })
    return z.NEVER
  }
  return NEGATIVE_ZERO.test(text) ? text.slice(1) : text
})

/** The exact text of a JSON number only: a string, even of digits, is not a number. */
function jsonNumberText(value: unknown): string | undefined {
  return typeof value === "string" ? undefined : numberText(value)
}

/** A safe integer given as a JSON number (counts, versions, limits). */
export const safeInteger = z.unknown().transform((value, ctx) => {
  const text = jsonNumberText(value)
  const n = text !== undefined && /^-?[0-9]+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: "custom", message: typeof value === "string" ? "expected an integer, got a string" : "expected an integer" })
    return z.NEVER
  }
  return n
})

export const nonNegativeInteger = safeInteger.refine((n) => n >= 0, "expected a non-negative integer")

/** Any string, cleaned of characters PostgreSQL refuses. */
const text = z.string().transform(cleanText)

export const pricingEchoSchema = z.object({
  price_calculation: z.string().nullable().optional(),
  markup_percent: decimalString.nullable().optional(),
  discount_percent: decimalString.nullable().optional(),
  old_price_markup_percent: decimalString.nullable().optional(),
})

export const sizeSchema = z.object({
  size: text,
  stock: nonNegativeInteger,
  cost_price: moneyString.nullable().optional(),
  price: moneyString.nullable().optional(),
  old_price: moneyString.nullable().optional(),
})

/** A card's sizes: each label non-blank and distinct (after trimming), or the card is refused. */
const sizesSchema = z.array(sizeSchema).superRefine((sizes, ctx) => {
  const seen = new Map<string, number>()
  sizes.forEach((s, i) => {
    const label = s.size.trim()
    if (label === "") {
      ctx.addIssue({ code: "custom", path: [i, "size"], message: "empty size label" })
      return
    }
    const first = seen.get(label)
    if (first !== undefined) {
      ctx.addIssue({ code: "custom", path: [i, "size"], message: `size "${cleanExcerpt(label, 40)}" repeats sizes.${first}` })
    } else seen.set(label, i)
  })
})

export const imageSchema = z.object({
  url: text,
  is_main: z.boolean(),
})

/** Longest image URL kept (longer ones are dropped like malformed ones). */
export const MAX_IMAGE_URL_LENGTH = 2048

/** Why an image URL is not kept (not an absolute http(s) URL), or null when it is fine. */
export function imageUrlProblem(url: string): string | null {
  const trimmed = url.trim()
  if (trimmed === "") return "empty image URL"
  if (trimmed.length > MAX_IMAGE_URL_LENGTH) return `image URL longer than ${MAX_IMAGE_URL_LENGTH} characters`
  if (/[\s<>"]/.test(trimmed)) return "image URL contains spaces or markup characters"
  let parsed: URL
  try {
    parsed = new URL(trimmed)
  } catch {
    return "not an absolute URL"
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `not an http(s) URL (${cleanExcerpt(parsed.protocol, 20)})`
  if (!parsed.hostname) return "image URL without a host"
  if (parsed.username || parsed.password) return "image URL with credentials"
  return null
}

/** An image dropped from a card's gallery: its index in the card's `images` and why. */
export interface DroppedImage {
  index: number
  reason: string
}

const DROPPED_IMAGES = Symbol("droppedImages")

/** The images validation dropped from a card (not enumerable: the card's data stays as served). */
export function droppedImagesOf(card: object): DroppedImage[] {
  return (card as { [DROPPED_IMAGES]?: DroppedImage[] })[DROPPED_IMAGES] ?? []
}

/** Keeps the gallery's absolute http(s) URLs (trimmed), in order; notes the rest on the card. */
function screenImages<T extends { images: { url: string; is_main: boolean }[] }>(card: T): T {
  const dropped: DroppedImage[] = []
  const images: T["images"] = []
  card.images.forEach((image, index) => {
    const problem = imageUrlProblem(image.url)
    if (problem) dropped.push({ index, reason: problem })
    else images.push({ ...image, url: image.url.trim() })
  })
  if (!dropped.length) return card
  const out = { ...card, images }
  Object.defineProperty(out, DROPPED_IMAGES, { value: dropped, enumerable: false })
  return out
}

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

export const productCardSchema = z
  .object({
    id: catalogId,
    sku: text,
    name: text,
    cost_price: moneyString.nullable(),
    price: moneyString.nullable().optional(),
    old_price: moneyString.nullable().optional(),
    in_stock: z.boolean(),
    sizes: sizesSchema,
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
  .transform(screenImages)

export const stockItemSchema = z.object({
  id: catalogId,
  sku: text.nullable().optional(),
  in_stock: z.boolean(),
  stock: nonNegativeInteger.nullable().optional(),
  cost_price: moneyString.nullable().optional(),
  price: moneyString.nullable().optional(),
  old_price: moneyString.nullable().optional(),
  sizes: sizesSchema.default([]),
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
  parent_id: catalogId
    .nullable()
    .optional()
    .transform((v) => v ?? null),
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

/** A zod path as a field name: ["sizes", 0, "price"] → "sizes[0].price"; [] → null. */
export function fieldName(path: readonly PropertyKey[]): string | null {
  let out = ""
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out ? `.${String(part)}` : String(part)
  return out || null
}

/** The field of the first issue. */
export function firstIssueField(error: z.ZodError): string | null {
  return fieldName(error.issues[0]?.path ?? [])
}
