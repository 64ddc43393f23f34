// Bad input on every admin route of the plugin, over real HTTP to a real app (PostgreSQL, Redis,
// the sandbox catalog): wrong types, out of range, unknown ids, huge strings, NUL, nested junk.
// No answer is a 5xx; every refused setting is a 400 naming the field with a message that states
// the rule, and the settings row in PostgreSQL is exactly what it was before the refusal.
import { Client } from "pg"
import { configureAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(900_000)

const HUGE = "x".repeat(200_000)
const LONG = "y".repeat(5_000)
const NESTED = { a: { b: [{ c: { d: [null, { e: "\u0000" }] } }] } }
const UNKNOWN_ID = "999999999999"

/** Junk no field of any route accepts (booleans are added for the fields that are not booleans). */
const COMMON_JUNK: unknown[] = [[], [1, "2"], {}, { $gt: 1 }, NESTED, "\u0000", "abc\u0000def", LONG, HUGE, "<script>alert(1)</script>"]
const NOT_BOOLEAN: unknown[] = [...COMMON_JUNK, true, false]
/** Junk for a value meant to be anything but a number or numeric text. */
const NUMERIC_JUNK: unknown[] = ["abc", "NaN", "Infinity", "-Infinity", "1e999", "12,5", "--1"]

/** Per settings field: values it must refuse (each alone in a body). */
const SETTINGS_REFUSALS: Record<string, unknown[]> = {
  base_url: [...NOT_BOOLEAN, 12, "", "not a url", "ftp://catalog.example", "javascript:alert(1)"],
  api_key: [...NOT_BOOLEAN, 5, "", "a b", "line\r\nbreak", "ключ"],
  price_calculation: [...NOT_BOOLEAN, "mean", "", 1, null],
  markup_percent: [...NOT_BOOLEAN, ...NUMERIC_JUNK, -5, "-0.01", 1000.01, "1.00001", 1e308],
  discount_percent: [...NOT_BOOLEAN, ...NUMERIC_JUNK, -1, 100, "100.5", "99.99999"],
  old_price_markup_percent: [...NOT_BOOLEAN, ...NUMERIC_JUNK, -1, 1001],
  poll_interval_minutes: [...NOT_BOOLEAN, ...NUMERIC_JUNK, 7.5, "7.5", 4, 16, 0, -10, "10 min", 1e308, null, ""],
  stock_location_id: [...NOT_BOOLEAN, 5, "", "sloc_does_not_exist"],
  sales_channel_id: [...NOT_BOOLEAN, 5, "", "sc_does_not_exist"],
  removal_mode: [...NOT_BOOLEAN, "purge", null, ""],
  primary_language: [...NOT_BOOLEAN, "en", null, ""],
  enabled: [...COMMON_JUNK, "true", 1, 0, null],
  mirror_images: [...COMMON_JUNK, "false", 1, null],
  pricing_rules: [
    ...COMMON_JUNK.filter((v) => !(v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)),
    true,
    "abc",
    { base_markup_percent: "-101", rounding: { mode: "none" } },
    { base_markup_percent: "abc", rounding: { mode: "none" } },
    { base_markup_percent: "10", rounding: { mode: "ending" } },
    { base_markup_percent: "10", rounding: { mode: "none" }, overrides: [{ type: "category", category_id: UNKNOWN_ID, markup_percent: "5" }] },
    { base_markup_percent: "10", rounding: { mode: "none" }, overrides: [{ type: "brand", brand_id: UNKNOWN_ID, markup_percent: "5" }] },
    { base_markup_percent: "10", rounding: { mode: "none" }, overrides: [{ type: "brand", brand_id: "abc", markup_percent: "5" }] },
    { base_markup_percent: "10", rounding: { mode: "none" }, overrides: [{ type: "nope" }] },
    { base_markup_percent: "10", rounding: { mode: "none" }, overrides: "all" },
    { base_markup_percent: "10", rounding: { mode: "none" }, crossed_out: { type: "discount", discount_percent: "100" } },
    { base_markup_percent: "10", rounding: { mode: "none" }, minimum_margin: { amount: "-1" } },
  ],
  brake: [
    ...NOT_BOOLEAN.filter((v) => !(v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)),
    "abc",
    { remove_percent: 101 },
    { remove_percent: -1 },
    { price_drop_percent: "x" },
    { bogus: 1 },
  ],
  filter: [
    ...NOT_BOOLEAN.filter((v) => !(v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)),
    "abc",
    { cost_min: "abc" },
    { cost_max: "abc", cost_min: "1" },
    { cost_min: "10", cost_max: "5" },
    { cost_min: -1 },
    { include_category_ids: [UNKNOWN_ID] },
    { exclude_brand_ids: [UNKNOWN_ID] },
    { include_brand_ids: "1" },
    { include_brand_ids: ["0"] },
    { include_brand_ids: ["9223372036854775808"] },
    { in_stock_only: "yes" },
    { bogus: true },
  ],
  field_locks: [
    ...NOT_BOOLEAN.filter((v) => !(v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)),
    { locked: ["nope"] },
    { locked: "title" },
    { auto_lock_on_admin_edit: "yes" },
    { x: 1 },
  ],
}

/** Junk for query strings (every value is text there; arrays and objects come from brackets). */
const QUERY_JUNK = ["", "abc", "-1", "7.5", "1e308", "%00", encodeURIComponent(LONG), "a[b]=c", "[]"]

describe("admin input fuzz: every route, every field", () => {
  let env: SyncEnv
  let runId: string
  let productId: string
  const fivexx: string[] = []

  const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await env.app.admin(path, init as never)
    if (res.status >= 500)
      fivexx.push(
        `${init.method ?? (init.body === undefined ? "GET" : "POST")} ${path} ${JSON.stringify(init.body)?.slice(0, 200)} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`
      )
    return res
  }
  const settingsRow = async () => {
    const client = new Client({ connectionString: env.db.url })
    await client.connect()
    try {
      return (await client.query("select * from mcs_sync_settings where deleted_at is null order by created_at")).rows
    } finally {
      await client.end()
    }
  }

  beforeAll(async () => {
    env = await startSyncEnv("admin-input-fuzz", { products: 40, seed: 11 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run?.status).toBe("succeeded")
    runId = run!.id
    const client = new Client({ connectionString: env.db.url })
    await client.connect()
    productId = (await client.query("select product_id from mcs_product_map where deleted_at is null and product_id is not null limit 1")).rows[0].product_id
    await client.end()
  })
  afterAll(async () => {
    await env?.close()
  })

  it("the issue's cases: each told its rule, naming the field", async () => {
    const refusal = async (body: unknown) => {
      const res = await call("/admin/catalog-sync/settings", { body })
      expect(res.status).toBe(400)
      return res.body as { field: string; message: string; errors: { field: string; message: string }[] }
    }
    expect((await refusal({ markup_percent: -5 })).errors).toEqual([{ field: "markup_percent", message: "must be at least 0" }])
    expect((await refusal({ poll_interval_minutes: 7.5 })).errors).toEqual([
      { field: "poll_interval_minutes", message: "must be a whole number of minutes from 5 to 15" },
    ])
    const cost = await refusal({ filter: { cost_min: "abc" } })
    expect(cost.field).toBe("filter.cost_min")
    expect(cost.message).toMatch(/amount/)
    const count = await call("/admin/catalog-sync/filter/count", { body: { filter: { cost_min: "abc" } } })
    expect([count.status, count.body.field]).toEqual([400, "filter.cost_min"])
    const unknownCategory = await refusal({ filter: { include_category_ids: [UNKNOWN_ID] } })
    expect(unknownCategory.field).toBe("filter.include_category_ids")
    expect(unknownCategory.message).toContain(UNKNOWN_ID)
    const unknownBrand = await refusal({
      pricing_rules: { base_markup_percent: "10", rounding: { mode: "none" }, overrides: [{ type: "brand", brand_id: UNKNOWN_ID, markup_percent: "5" }] },
    })
    expect(unknownBrand.field).toBe("pricing_rules.overrides[0].brand_id")
    expect(unknownBrand.message).toContain(UNKNOWN_ID)
    const preview = await call("/admin/catalog-sync/pricing/preview", {
      body: {
        pricing_rules: {
          base_markup_percent: "10",
          rounding: { mode: "none" },
          overrides: [{ type: "category", category_id: UNKNOWN_ID, markup_percent: "5" }],
        },
      },
    })
    expect([preview.status, preview.body.field]).toEqual([400, "pricing_rules.overrides[0].category_id"])
    // A new address alone: the key is what is missing, and the message says the address was not tried.
    const address = await refusal({ base_url: "https://catalog.invalid" })
    expect(address.field).toBe("api_key")
    expect(address.message).toMatch(/new base_url/)
    expect(address.message).not.toMatch(/^is required/)
  })

  it("every settings field refuses its junk with a 400 naming it, and the saved row stays as it was", async () => {
    const before = await settingsRow()
    expect(before).toHaveLength(1)
    const problems: string[] = []
    const cases: [string, unknown][] = [
      ...Object.entries(SETTINGS_REFUSALS).flatMap(([field, values]) => values.map((v) => [field, v] as [string, unknown])),
      ["bogus_setting", 1],
    ]
    for (const [field, value] of cases) {
      const res = await call("/admin/catalog-sync/settings", { body: { [field]: value } })
      const shown = `${field}=${JSON.stringify(value)?.slice(0, 60)}`
      if (res.status === 413) continue // the body parser's size limit: a 4xx before any code of ours
      if (res.status !== 400) {
        problems.push(`${shown}: HTTP ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`)
        continue
      }
      const first = res.body?.errors?.[0]
      if (res.body?.type !== "invalid_data" || typeof first?.field !== "string" || !first.field.startsWith(field)) {
        problems.push(`${shown}: does not name ${field}: ${JSON.stringify(res.body).slice(0, 200)}`)
      } else if (typeof first.message !== "string" || first.message.length < 8 || /^Invalid input$/i.test(first.message)) {
        problems.push(`${shown}: message states no rule: ${JSON.stringify(first.message)}`)
      }
    }
    expect(problems).toEqual([])
    expect(await settingsRow()).toEqual(before)
  })

  it("price guards: below cost, a discount over the cap and most prices moved ask first; nothing is saved until confirmed", async () => {
    const before = await settingsRow()
    const rules = (over: Record<string, unknown>) => ({ base_markup_percent: "30", rounding: { mode: "none" }, ...over })
    const belowCost = await call("/admin/catalog-sync/settings", { body: { pricing_rules: rules({ base_markup_percent: "-20" }) } })
    expect(belowCost.status).toBe(409)
    expect(belowCost.body).toMatchObject({ type: "confirmation_required", code: "price_guards" })
    expect(belowCost.body.guards.map((g: { code: string }) => g.code)).toEqual(expect.arrayContaining(["below_cost", "moves_many_prices"]))
    // The preview is the pricing preview's own: the same summary the preview route gives.
    const preview = await call("/admin/catalog-sync/pricing/preview", { body: { pricing_rules: rules({ base_markup_percent: "-20" }) } })
    expect(belowCost.body.preview.summary).toEqual(preview.body.summary)
    const discount = await call("/admin/catalog-sync/settings", {
      body: { pricing_rules: rules({ crossed_out: { type: "discount", discount_percent: "99.99" } }) },
    })
    expect(discount.status).toBe(409)
    expect(discount.body.guards.map((g: { code: string }) => g.code)).toContain("discount_over_cap")
    expect(await settingsRow()).toEqual(before)
    // Confirmed: saved, and a reprice runs.
    const confirmed = await call("/admin/catalog-sync/settings", { body: { pricing_rules: rules({ base_markup_percent: "-20" }), confirm_price_guards: true } })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body).toMatchObject({ rules_changed: true, settings: { pricing_rules: { base_markup_percent: "-20" } } })
    const bad = await call("/admin/catalog-sync/settings", { body: { pricing_rules: rules({}), confirm_price_guards: "yes" } })
    expect([bad.status, bad.body.field]).toEqual([400, "confirm_price_guards"])
  })

  it("every other route answers junk with a 4xx, never a 5xx", async () => {
    const junkBodies: unknown[] = [...NOT_BOOLEAN, 5, "abc", null]
    const post = async (path: string, field: string | null) => {
      for (const value of junkBodies) await call(path, { body: field === null ? value : { [field]: value } })
    }
    await post("/admin/catalog-sync/runs", "mode")
    await post("/admin/catalog-sync/runs", null)
    await post("/admin/catalog-sync/test-connection", "api_key")
    await post("/admin/catalog-sync/test-connection", "base_url")
    await post("/admin/catalog-sync/filter/count", "filter")
    await post("/admin/catalog-sync/filter/count", null)
    await post("/admin/catalog-sync/pricing/preview", "pricing_rules")
    await post("/admin/catalog-sync/pricing/preview", null)
    await post("/admin/catalog-sync/readiness/fix", "check")
    await post(`/admin/catalog-sync/products/${productId}/locks`, "fields")
    await post(`/admin/catalog-sync/products/${productId}/locks`, "locked")
    await post(`/admin/catalog-sync/products/${productId}/locks`, null)
    for (const id of ["does-not-exist", encodeURIComponent(LONG), "%00", encodeURIComponent("' or 1=1 --")]) {
      await call(`/admin/catalog-sync/runs/${id}`)
      await call(`/admin/catalog-sync/runs/${id}/changes`)
      await call(`/admin/catalog-sync/runs/${id}/confirm`, { body: {} })
      await call(`/admin/catalog-sync/runs/${id}/discard`, { body: {} })
      await call(`/admin/catalog-sync/products/${id}/locks`)
      await call(`/admin/catalog-sync/products/${id}/locks`, { body: { fields: ["title"], locked: true } })
      await call(`/admin/catalog-sync/products/${id}/prices`)
      await call(`/admin/catalog-sync/products/${id}/changes`)
      await call(`/admin/catalog-sync/products/${id}/catalog`)
      await call(`/admin/catalog-sync/kept-for-orders?run_id=${id}`)
    }
    await call(`/admin/catalog-sync/runs/${runId}/confirm`, { body: { junk: NESTED } })
    for (const q of QUERY_JUNK) {
      for (const name of ["limit", "offset"]) await call(`/admin/catalog-sync/runs?${name}=${q}`)
      for (const name of ["days", "status", "trigger", "had_changes", "tz", "limit", "offset"]) await call(`/admin/catalog-sync/history?${name}=${q}`)
      for (const name of ["kind", "q", "limit", "offset"]) await call(`/admin/catalog-sync/runs/${runId}/changes?${name}=${q}`)
      await call(`/admin/catalog-sync/history?status[]=${q}&tz[a]=${q}`)
      await call(`/admin/catalog-sync/kept-for-orders?run_id=${q}`)
      await call(`/admin/catalog-sync/kept-for-orders?run_id[]=${q}&x=${q}`)
      for (const path of ["status", "progress", "readiness", "pricing/references", "settings"]) await call(`/admin/catalog-sync/${path}?x=${q}`)
    }
    expect(fivexx).toEqual([])
  })
})
