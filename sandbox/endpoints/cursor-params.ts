import type { CursorMode, CursorState } from "../cursor"
import { pricingHash } from "../cursor"
import type { Pricing } from "../pricing"
import { errorReply, type Reply } from "../reply"
import type { RequestContext } from "./context"

/** Decodes a cursor sent to an endpoint: damaged or foreign → invalid_cursor; other pricing → pricing_changed. */
export function readCursor(
  ctx: RequestContext,
  text: string,
  pricing: Pricing,
  modes: CursorMode[]
): { ok: true; cursor: CursorState } | { ok: false; reply: Reply } {
  const decoded = ctx.state.cursors.decode(text)
  if (!decoded.ok || !modes.includes(decoded.cursor.mode)) {
    const reason = decoded.ok ? "the cursor belongs to another endpoint" : decoded.reason
    return {
      ok: false,
      reply: errorReply(422, "invalid_cursor", `Invalid cursor (${reason}). Restart without cursor.`, ctx.requestId),
    }
  }
  if (decoded.cursor.pricingHash !== pricingHash(pricing.key)) {
    return {
      ok: false,
      reply: errorReply(422, "pricing_changed", "Pricing parameters differ from those the cursor was created with. Restart without cursor.", ctx.requestId),
    }
  }
  return { ok: true, cursor: decoded.cursor }
}
