// GET /v1/stock: stock and prices for up to 200 products by ids and/or skus.

import type { Product } from "../model"
import { stringifyJson, hasControlCharacters } from "../json"
import { parseInteger } from "../params"
import { pricingMeta } from "../pricing"
import { INT64_MAX } from "../prng"
import { jsonReply, validationReply, type Reply } from "../reply"
import type { RequestContext } from "./context"

const MAX_PRODUCTS = 200

export function stock(ctx: RequestContext): Reply {
  const { query, state, renderer } = ctx
  const pricing = query.pricing()
  const idsText = query.string("ids", { min: 1, max: 4000 })
  const skusText = query.string("skus", { min: 1, max: 8000 })
  if (idsText === null && skusText === null && !query.errors.some((e) => e.field === "ids" || e.field === "skus")) {
    query.errors.push({ field: "ids", message: "ids or skus is required" }, { field: "skus", message: "ids or skus is required" })
  }
  const ids: bigint[] = []
  if (idsText !== null) {
    for (const part of idsText.split(",")) {
      const id = parseInteger(part.trim(), 1n, INT64_MAX, (message) => {
        query.errors.push({ field: "ids", message: `ids: "${part}" ${message.replace("{name} ", "")}` })
        return null
      })
      if (id !== null && !ids.includes(id)) ids.push(id)
    }
  }
  const skus: string[] = []
  if (skusText !== null) {
    for (const part of skusText.split(",")) {
      const sku = part.trim()
      if (sku.length === 0 || sku.length > 100 || hasControlCharacters(sku)) {
        query.errors.push({ field: "skus", message: "skus must be comma-separated articles of 1 to 100 characters" })
      } else if (!skus.includes(sku)) skus.push(sku)
    }
  }
  if (ids.length + skus.length > MAX_PRODUCTS) {
    const message = `at most ${MAX_PRODUCTS} products per request (ids and skus together)`
    if (idsText !== null) query.errors.push({ field: "ids", message })
    if (skusText !== null) query.errors.push({ field: "skus", message })
  }
  if (query.errors.length > 0 || !pricing) return validationReply(dedupe(query.errors), ctx.requestId)

  const found: Product[] = []
  const missing: (bigint | string)[] = []
  const add = (product: Product | undefined, requested: bigint | string) => {
    if (!product) missing.push(requested)
    else if (!found.includes(product)) found.push(product)
  }
  for (const id of ids) add(state.catalog.findLive(id.toString()), id)
  for (const sku of skus) add(state.catalog.findLiveBySku(sku), sku)

  const items = found.map((p) => renderer.stockItem(p, pricing)).join(",")
  const meta = stringifyJson({ missing, pricing: pricingMeta(pricing) })
  return jsonReply(200, `{"data":[${items}],"meta":${meta}}`)
}

function dedupe<T extends { field: string | null; message: string }>(errors: T[]): T[] {
  const seen = new Set<string>()
  return errors.filter((e) => {
    const key = `${e.field}\u0000${e.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
