// GET /v1/products/changes (section 4.3). Without a cursor: the full export, by id; its last
// cursor continues from the change-log position taken when the export began.
// With a cursor: each product changed since, once, at its latest state, older changes first.

import { pricingHash } from "../cursor"
import { stringifyJson } from "../json"
import { pricingMeta } from "../pricing"
import { jsonReply, validationReply, type Reply } from "../reply"
import type { RequestContext } from "./context"
import { readCursor } from "./cursor-params"

const NO_FILTER = "00000000"

export function productChanges(ctx: RequestContext): Reply {
  const { query, state, renderer } = ctx
  const pricing = query.pricing()
  const cursorText = query.string("cursor", { min: 1, max: 200 })
  const limit = query.limit()
  if (query.errors.length > 0 || !pricing) return validationReply(query.errors, ctx.requestId)

  let cursor = { mode: "export" as "export" | "changes", position: 0n, logStart: state.catalog.log.length, fresh: true }
  if (cursorText !== null) {
    const read = readCursor(ctx, cursorText, pricing, ["export", "changes"])
    if (!read.ok) return read.reply
    cursor = { ...read.cursor, mode: read.cursor.mode as "export" | "changes", fresh: false }
  }

  const hash = pricingHash(pricing.key)
  const items: string[] = []
  let nextCursor: string
  let hasMore: boolean
  if (cursor.mode === "export") {
    state.stats.exportPages++
    const page = state.catalog.exportPage(cursor.fresh ? null : cursor.position, limit)
    for (const product of page.products) {
      items.push(`{"status":"active","id":${product.idText},"product":${renderer.card(product, pricing)}}`)
    }
    hasMore = page.hasMore
    const last = page.products[page.products.length - 1]
    nextCursor = hasMore
      ? state.cursors.encode({ mode: "export", position: last.id, logStart: cursor.logStart, pricingHash: hash, filterHash: NO_FILTER })
      : state.cursors.encode({ mode: "changes", position: BigInt(cursor.logStart), logStart: 0, pricingHash: hash, filterHash: NO_FILTER })
  } else {
    const afterSeq = Number(cursor.position)
    const page = state.catalog.changesPage(afterSeq, limit)
    for (const entry of page.entries) {
      const product = entry.product
      const changed = JSON.stringify(state.catalog.changedSince(product, afterSeq))
      if (product.removed) {
        items.push(`{"status":"removed","id":${product.idText},"changed":${changed}}`)
      } else {
        const status = product.createdSeq > afterSeq ? "created" : "updated"
        items.push(`{"status":"${status}","id":${product.idText},"product":${renderer.card(product, pricing)},"changed":${changed}}`)
      }
    }
    hasMore = page.hasMore
    nextCursor = state.cursors.encode({
      mode: "changes",
      position: BigInt(page.nextSeq),
      logStart: 0,
      pricingHash: hash,
      filterHash: NO_FILTER,
    })
  }
  const meta = stringifyJson({ next_cursor: nextCursor, has_more: hasMore, pricing: pricingMeta(pricing) })
  return jsonReply(200, `{"data":[${items.join(",")}],"meta":${meta}}`)
}
