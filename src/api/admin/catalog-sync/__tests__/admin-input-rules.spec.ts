// The admin's bad input, field by field: each refusal names its field and states its rule; a
// filter cost that is not a number is the field's refusal, never a DecimalError; unknown
// category and brand ids are named; NUL is found wherever it hides; a fixed key resumes.
import { catalogFilterInputSchema, catalogFilterSchema } from "../../../../catalog-filter/filter"
import { validateSettingsPatch } from "../../../../sync/settings"
import { DEFAULT_PRICING_RULES, parsePricingRules } from "../../../../pricing"
import { resumeWorkBlockedByKey } from "../../../../queue/resume-after-key-fix"
import { unknownReferenceErrors } from "../known-references"
import { nulPath } from "../refuse-nul"

const current = {
  pricingRules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "30" },
  pricingRulesSaved: true,
  storedApiPricing: { markup_percent: null, discount_percent: null, old_price_markup_percent: null },
}
const refusal = (body: unknown) => {
  const result = validateSettingsPatch(body, current)
  if (result.ok) throw new Error(`accepted ${JSON.stringify(body)}`)
  return result.errors
}

describe("settings: the message states the rule", () => {
  it.each([
    [{ markup_percent: -5 }, "markup_percent", "must be at least 0"],
    [{ markup_percent: "1000.5" }, "markup_percent", "must be at most 1000"],
    [{ markup_percent: "abc" }, "markup_percent", "must be a number from 0 to 1000, e.g. 30 or 12.5"],
    [{ markup_percent: true }, "markup_percent", "must be a number from 0 to 1000"],
    [{ discount_percent: 100 }, "discount_percent", "must be below 100"],
    [{ poll_interval_minutes: 7.5 }, "poll_interval_minutes", "must be a whole number of minutes from 5 to 15"],
    [{ poll_interval_minutes: "7.5" }, "poll_interval_minutes", "must be a whole number of minutes from 5 to 15"],
    [{ poll_interval_minutes: 16 }, "poll_interval_minutes", "must be a whole number of minutes from 5 to 15"],
    [{ poll_interval_minutes: [] }, "poll_interval_minutes", "must be a whole number of minutes from 5 to 15"],
    [{ enabled: "true" }, "enabled", "must be true or false"],
    [{ removal_mode: "purge" }, "removal_mode", "must be one of delete, draft"],
    [{ stock_location_id: "sloc_\u0000" }, "stock_location_id", "must be an id of this shop (letters, digits, _ and -)"],
    [{ filter: { cost_min: "abc" } }, "filter.cost_min", "must be a non-negative amount with at most 15 digits and 4 decimals, such as 1250 or 99.90"],
    [{ filter: { bogus: 1 } }, "filter.bogus", "is not a setting"],
  ])("%j → %s: %s", (body, field, message) => {
    expect(refusal(body)[0]).toEqual({ field, message })
  })

  it("accepts what the rules allow, a poll interval as text included", () => {
    expect(validateSettingsPatch({ markup_percent: 0, poll_interval_minutes: "7" }, current)).toEqual({
      ok: true,
      patch: { pricing_rules: DEFAULT_PRICING_RULES, poll_interval_minutes: 7 },
    })
  })
})

describe("filter cost bounds", () => {
  it("a bound that is not an amount is that field's refusal, not a DecimalError, with the other bound set", () => {
    for (const filter of [
      { cost_min: "abc", cost_max: "5" },
      { cost_min: "1", cost_max: "abc" },
      { cost_min: "1e5", cost_max: "5" },
    ]) {
      for (const schema of [catalogFilterSchema, catalogFilterInputSchema]) {
        const parsed = schema.safeParse(filter)
        expect(parsed.success).toBe(false)
      }
    }
    expect(catalogFilterInputSchema.safeParse({ cost_min: "10", cost_max: "5" }).error?.issues.map((i) => i.message)).toEqual([
      "cost_min must not exceed cost_max",
    ])
  })
  it("the stored filter ignores a field it does not know; the admin's is refused naming it", () => {
    expect(catalogFilterSchema.safeParse({ other: 1 }).success).toBe(true)
    expect(catalogFilterInputSchema.safeParse({ other: 1 }).success).toBe(false)
  })
})

describe("unknown category and brand ids", () => {
  const known = { categories: new Set(["1", "2"]), brands: new Set(["7"]) }
  const filter = catalogFilterSchema.parse({ include_category_ids: ["1", "99"], exclude_brand_ids: ["7", "8", "9"] })

  it("names each list's unknown ids under its field", () => {
    expect(unknownReferenceErrors(known, { filter })).toEqual([
      { field: "filter.include_category_ids", message: "must name catalog categories the shop has synced; unknown category id: 99" },
      { field: "filter.exclude_brand_ids", message: "must name catalog brands the shop has synced; unknown brand ids: 8, 9" },
    ])
  })
  it("names a rule's unknown category or brand by its override", () => {
    const rules = parsePricingRules({
      ...DEFAULT_PRICING_RULES,
      overrides: [
        { type: "category", category_id: "2", markup_percent: "5" },
        { type: "brand", brand_id: "55", markup_percent: "5" },
      ],
    })
    if (!rules.ok) throw new Error("rules refused")
    expect(unknownReferenceErrors(known, { pricing_rules: rules.rules })).toEqual([
      { field: "pricing_rules.overrides[1].brand_id", message: "must be a catalog brand the shop has synced; unknown id: 55" },
    ])
  })
  it("checks nothing of a kind the shop has not synced yet (before the first sync)", () => {
    expect(unknownReferenceErrors({ categories: null, brands: null }, { filter })).toEqual([])
  })
})

describe("NUL anywhere in the input", () => {
  it("finds its path in nested bodies, keys and query values", () => {
    expect(nulPath({ a: [1, { b: "x\u0000" }] })).toBe("a.1.b")
    expect(nulPath({ ["k\u0000"]: 1 })).toBe("k\u0000")
    expect(nulPath("\u0000")).toBe("body")
    expect(nulPath({ a: "fine", b: [true, null, 3] })).toBeNull()
  })
})

describe("a fixed key resumes the refused work", () => {
  const settings = { baseUrl: "https://c.example", apiKey: "k", enabled: true } as never
  const setup = (state: Record<string, unknown>, last: Record<string, unknown> | undefined) => {
    const calls: { updates: unknown[]; enqueued: unknown[] } = { updates: [], enqueued: [] }
    const service = {
      getState: async () => ({ id: "st_1", ...state }),
      updateCatalogSyncStates: async (u: unknown) => void calls.updates.push(u),
      listCatalogSyncRuns: async () => (last ? [last] : []),
    }
    const queue = { enqueueRun: async (input: unknown) => (calls.enqueued.push(input), { run: { id: "run_new" }, alreadyRunning: false }) }
    return { calls, service: service as never, queue: queue as never }
  }

  it("clears the block and queues the refused run's kind", async () => {
    const { calls, service, queue } = setup(
      { blocked_code: "invalid_api_key", blocked_revision: 3 },
      { status: "failed", mode: "full", error_code: "invalid_api_key" }
    )
    expect(await resumeWorkBlockedByKey({ service, queue, settings })).toMatchObject({ run: { id: "run_new" } })
    expect(calls.updates).toEqual([{ id: "st_1", blocked_code: null, blocked_message: null, blocked_revision: null }])
    expect(calls.enqueued).toEqual([{ mode: "full", trigger: "settings", behindActive: true }])
  })
  it("queues nothing when the key blocked nothing", async () => {
    const { calls, service, queue } = setup({ blocked_code: null }, { status: "failed", mode: "changes", error_code: "network_error" })
    expect(await resumeWorkBlockedByKey({ service, queue, settings })).toBeNull()
    expect(calls).toEqual({ updates: [], enqueued: [] })
  })
})
