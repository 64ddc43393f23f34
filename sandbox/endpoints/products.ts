// GET /v1/products, /v1/products/{product_id} and /v1/products/by-sku.

import type { ListFilters } from "../catalog"
import { pricingHash, shortHash } from "../cursor"
import { stringifyJson } from "../json"
import { parseInteger } from "../params"
import { pricingMeta, type Pricing } from "../pricing"
import { INT64_MAX } from "../prng"
import { errorReply, jsonReply, validationReply, type Reply } from "../reply"
import type { RequestContext } from "./context"
import { readCursor } from "./cursor-params"

export function listProducts(ctx: RequestContext): Reply {
  const { query } = ctx
  const pricing = query.pricing()
  const cursorText = query.string("cursor", { min: 1, max: 200 })
  const limit = query.limit()
  const categoryId = query.integer("category_id", 1n)
  const brandId = query.integer("brand_id", 1n)
  const filters: ListFilters = {
    categoryId: smallId(categoryId),
    brandId: smallId(brandId),
    skuContains: query.string("sku_contains", { min: 3, max: 100 }),
    q: query.string("q", { min: 3, max: 100 }),
    inStock: query.boolean("in_stock"),
    isNew: query.boolean("is_new"),
  }
  if (query.errors.length > 0 || !pricing) return validationReply(query.errors, ctx.requestId)

  // The cursor is bound to the filters as given (ids as sent, not as parsed to numbers).
  const filterHash = shortHash([categoryId, brandId, filters.skuContains, filters.q, filters.inStock, filters.isNew].map(String).join("|"), 4)
  let afterId: bigint | null = null
  if (cursorText !== null) {
    const read = readCursor(ctx, cursorText, pricing, ["list"])
    if (!read.ok) return read.reply
    if (read.cursor.filterHash !== filterHash) {
      return errorReply(422, "invalid_cursor", "The cursor was made for other filters. Restart without cursor.", ctx.requestId)
    }
    afterId = read.cursor.position
  }

  const page = ctx.state.catalog.listPage(afterId, limit, filters)
  const last = page.products[page.products.length - 1]
  const nextCursor =
    page.hasMore && last ? ctx.state.cursors.encode({ mode: "list", position: last.id, logStart: 0, pricingHash: pricingHash(pricing.key), filterHash }) : null
  const cards = page.products.map((p) => ctx.renderer.card(p, pricing)).join(",")
  const meta = stringifyJson({ next_cursor: nextCursor, has_more: page.hasMore, pricing: pricingMeta(pricing) })
  return jsonReply(200, `{"data":[${cards}],"meta":${meta}}`)
}

export function productById(ctx: RequestContext): Reply {
  const { query } = ctx
  const pricing = query.pricing()
  const id = parseInteger(ctx.pathParam ?? "", 1n, INT64_MAX, (message) => {
    query.errors.push({ field: "product_id", message: message.replace("{name}", "product_id") })
    return null
  })
  if (query.errors.length > 0 || !pricing || id === null) return validationReply(query.errors, ctx.requestId)
  const product = ctx.state.catalog.findLive(id.toString())
  if (!product) return notFound(ctx, "Product not found or taken off sale")
  return singleCard(ctx, product, pricing)
}

export function productBySku(ctx: RequestContext): Reply {
  const { query } = ctx
  const pricing = query.pricing()
  const sku = query.string("sku", { min: 1, max: 100, required: true })
  if (query.errors.length > 0 || !pricing || sku === null) return validationReply(query.errors, ctx.requestId)
  const product = ctx.state.catalog.findLiveBySku(sku)
  if (!product) return notFound(ctx, "Product not found or taken off sale")
  return singleCard(ctx, product, pricing)
}

function singleCard(ctx: RequestContext, product: Parameters<RequestContext["renderer"]["card"]>[0], pricing: Pricing): Reply {
  const meta = stringifyJson({ pricing: pricingMeta(pricing) })
  return jsonReply(200, `{"data":${ctx.renderer.card(product, pricing)},"meta":${meta}}`)
}

/** Category and brand ids are small; a valid but larger id matches nothing (-1). */
function smallId(id: bigint | null): number | null {
  if (id === null) return null
  return id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : -1
}

function notFound(ctx: RequestContext, message: string): Reply {
  return errorReply(404, "not_found", message, ctx.requestId)
}
