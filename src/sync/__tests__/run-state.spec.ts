import { InvalidCursorError, PricingChangedError, NetworkError } from "../../catalog-client/errors"
import { afterPage, requestPricingFor, restartReason, startPosition } from "../run-state"
import type { PricingParams } from "../settings"

const pricing: PricingParams = { price_calculation: "max", markup_percent: "30", discount_percent: null, old_price_markup_percent: null }
const pass = () => "pass_new"

describe("run state", () => {
  it("starts a full pass when there is no cursor, on a full run, or when pricing changed", () => {
    expect(startPosition(null, "changes", pricing, pass)).toMatchObject({ cursor: null, fullPassId: "pass_new", reason: "first" })
    const state = { cursor: "c1", cursor_pricing: pricing, phase: "changes", full_pass_id: null }
    expect(startPosition(state, "full", pricing, pass)).toMatchObject({ cursor: null, fullPassId: "pass_new" })
    expect(startPosition(state, "changes", { ...pricing, markup_percent: "40" }, pass)).toMatchObject({ cursor: null, reason: "pricing_changed" })
    expect(startPosition(state, "changes", pricing, pass)).toMatchObject({ cursor: "c1", fullPassId: null, reason: "continue" })
  })

  it("continues an unfinished pass with its id so the sweep still happens", () => {
    const state = { cursor: "c1", cursor_pricing: pricing, phase: "full_export", full_pass_id: "pass_old" }
    expect(startPosition(state, "changes", pricing, pass)).toMatchObject({ cursor: "c1", fullPassId: "pass_old" })
  })

  it("a resumed full run continues its pass from the stored cursor, keeping the pass id", () => {
    const state = { cursor: "c7", cursor_pricing: pricing, phase: "full_export", full_pass_id: "pass_old" }
    expect(startPosition(state, "full", pricing, pass, { passId: "pass_old" })).toEqual({ cursor: "c7", fullPassId: "pass_old", reason: "resume" })
    // Twice in a row: the retry of a retry carries the same pass id.
    expect(startPosition({ ...state, cursor: "c9" }, "full", pricing, pass, { passId: "pass_old" })).toMatchObject({ cursor: "c9", fullPassId: "pass_old" })
    // A resumed changes run continues too.
    expect(startPosition(state, "changes", pricing, pass, { passId: "pass_old" })).toMatchObject({ cursor: "c7", fullPassId: "pass_old", reason: "resume" })
  })

  it("a resumed full run whose pass stored no page yet restarts that pass under the same id", () => {
    const state = { cursor: null, cursor_pricing: null, phase: "full_export", full_pass_id: "pass_old" }
    expect(startPosition(state, "full", pricing, pass, { passId: "pass_old" })).toEqual({ cursor: null, fullPassId: "pass_old", reason: "resume" })
  })

  it("a resumed full run that never began its pass starts one; a fresh full run never resumes", () => {
    const state = { cursor: "c1", cursor_pricing: pricing, phase: "changes", full_pass_id: null }
    expect(startPosition(state, "full", pricing, pass, { passId: null })).toMatchObject({ cursor: null, fullPassId: "pass_new", reason: "full" })
    expect(startPosition(state, "full", pricing, pass, null)).toMatchObject({ cursor: null, fullPassId: "pass_new", reason: "full" })
    const unfinished = { cursor: "c5", cursor_pricing: pricing, phase: "full_export", full_pass_id: "pass_old" }
    expect(startPosition(unfinished, "full", pricing, pass)).toMatchObject({ cursor: null, fullPassId: "pass_new", reason: "full" })
  })

  it("a resumed full run whose pass already ended continues the changes feed", () => {
    const state = { cursor: "c9", cursor_pricing: pricing, phase: "changes", full_pass_id: null }
    expect(startPosition(state, "full", pricing, pass, { passId: "pass_done" })).toEqual({ cursor: "c9", fullPassId: null, reason: "continue" })
  })

  it("a resumed run whose cursor was made with other pricing starts a new pass", () => {
    const state = { cursor: "c7", cursor_pricing: pricing, phase: "full_export", full_pass_id: "pass_old" }
    expect(startPosition(state, "full", { ...pricing, markup_percent: "45" }, pass, { passId: "pass_old" })).toMatchObject({
      cursor: null,
      fullPassId: "pass_new",
      reason: "pricing_changed",
    })
  })

  it("restarts only on invalid_cursor and pricing_changed", () => {
    const init = { code: "x", status: 422, requestId: null }
    expect(restartReason(new InvalidCursorError("m", { ...init, code: "invalid_cursor" }))).toBe("invalid_cursor")
    expect(restartReason(new PricingChangedError("m", { ...init, code: "pricing_changed" }))).toBe("pricing_changed")
    expect(restartReason(new NetworkError("m", { ...init, code: "network" }))).toBeNull()
  })

  it("stores every cursor and sweeps when the pass's last page commits", () => {
    const mid = afterPage({ cursor: null, fullPassId: "p" }, { nextCursor: "c2", hasMore: true }, pricing)
    expect(mid).toMatchObject({ done: false, sweepPassId: null, state: { cursor: "c2", phase: "full_export", full_pass_id: "p" } })
    const end = afterPage({ cursor: "c2", fullPassId: "p" }, { nextCursor: "c3", hasMore: false }, pricing)
    expect(end).toMatchObject({ done: true, sweepPassId: "p", state: { cursor: "c3", phase: "changes", full_pass_id: null } })
    const changes = afterPage({ cursor: "c3", fullPassId: null }, { nextCursor: "c4", hasMore: false }, pricing)
    expect(changes).toMatchObject({ done: true, sweepPassId: null, state: { cursor: "c4", phase: "changes" } })
  })
})

describe("requestPricingFor", () => {
  const costs: PricingParams = { price_calculation: "max", markup_percent: null, discount_percent: null, old_price_markup_percent: null }
  const legacy: PricingParams = { price_calculation: "max", markup_percent: "30", discount_percent: "20", old_price_markup_percent: null }
  const state = (cursor_pricing: PricingParams | null, cursor: string | null = "c1") => ({ cursor, cursor_pricing })

  it("asks for costs only without a cursor, for a fresh full run, and after a cost basis change", () => {
    expect(requestPricingFor(null, "changes", costs)).toEqual(costs)
    expect(requestPricingFor(state(legacy, null), "changes", costs)).toEqual(costs)
    expect(requestPricingFor(state(legacy), "full", costs)).toEqual(costs)
    expect(requestPricingFor(state({ ...legacy, price_calculation: "min" }), "changes", costs)).toEqual(costs)
  })
  it("continues a cursor made with the API's markup parameters with that set (no pricing_changed, no full pass)", () => {
    expect(requestPricingFor(state(legacy), "changes", costs)).toEqual(legacy)
    expect(requestPricingFor(state(legacy), "full", costs, { passId: "pass_1" })).toEqual(legacy)
    // and the start position then continues that cursor
    expect(
      startPosition({ ...state(legacy), phase: "changes", full_pass_id: null }, "changes", requestPricingFor(state(legacy), "changes", costs), () => "p")
    ).toMatchObject({
      cursor: "c1",
      reason: "continue",
    })
  })
})
