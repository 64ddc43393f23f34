// The pricing rules editor in the browser (issue 12): a small catalog synced from the sandbox,
// then on Settings → Catalog sync a category override and a rounding to …99 are added; the live
// preview's rows and moved-prices count change (Reset before that brings the saved rules back) (checked against the preview route and the
// engine); saving starts a `reprice` run, and afterwards every price in Medusa equals the engine's
// result for its stored cost (SQL). Last, the safety brake: the sandbox removes 30 % of the
// products, the next sync pauses, the widget shows why, and Confirm applies it.
// Screenshots: artifacts/screenshots/pricing-*.png.
import type { Browser, Page } from "playwright-core"
import { createTestDatabase } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { type PricingRules, planReprice } from "../../src/pricing"
import { sql, waitFor } from "../medusa/poll-and-query"
import { storedPricesFromSql } from "../medusa/pricing-helpers"
import { formatCount } from "../../src/admin/lib/format"
import { startAdminApp, type AdminApp } from "./admin-app"
import { adminApiOf, expectText, logIn, openBrowser, prepareAdmin, Screenshots } from "./browser-session"

jest.setTimeout(900_000)

const API_KEY = "sandbox-pricing-key-7731"
const PRODUCTS = Number(process.env.PRICING_BROWSER_PRODUCTS ?? 300)
const screens = new Screenshots()

describe("pricing rules editor in the browser", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let sandbox: Sandbox
  let app: AdminApp
  let browser: Browser
  let page: Page
  let rules: PricingRules

  const adminApi = adminApiOf(() => page)
  /** The dashboard scrolls inside its main column: bring `testId` into view, then the viewport. */
  const shot = async (name: string, testId?: string) => {
    if (testId) await page.getByTestId(testId).first().scrollIntoViewIfNeeded()
    const file = screens.file(`pricing-${name}`)
    await page.screenshot({ path: file })
  }
  const lastRuns = async () => (await adminApi("/admin/catalog-sync/runs?limit=5")).body.runs as { id: string; mode: string; status: string; removed: number }[]

  beforeAll(async () => {
    prepareAdmin()
    db = await createTestDatabase("browser-pricing")
    sandbox = await startSandbox({ products: PRODUCTS, seed: 21, apiKey: API_KEY, rpm: 6000, concurrency: 3, port: 0, controlPort: 0 })
    app = await startAdminApp({ databaseUrl: db.url, label: "browser-pricing", env: { CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_pricing_${process.pid}` } })
    // Tall enough for the rules editor and its preview in one screenshot.
    ;({ browser, page } = await openBrowser({ width: 1440, height: 1900 }))
  })

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
    await sandbox?.close()
    await db?.drop()
    screens.print()
  })

  it("syncs the catalog with a 30 % markup", async () => {
    await logIn(page, app.url)
    const res = await adminApi("/admin/catalog-sync/settings", { base_url: sandbox.baseUrl, api_key: API_KEY, markup_percent: "30" })
    expect(res.status).toBe(200)
    const runId = res.body.run.id as string
    const run = await waitFor(
      "the first sync",
      async () => {
        const r = (await adminApi(`/admin/catalog-sync/runs/${runId}`)).body.run
        return ["succeeded", "failed"].includes(r.status) ? r : null
      },
      600_000,
      1000
    )
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
    // The sync stored every priced size's cost, and today's prices are the engine's for 30 %.
    const stored = await storedPricesFromSql(db.url)
    expect(stored.length).toBeGreaterThan(PRODUCTS)
    expect(planReprice(stored, (await adminApi("/admin/catalog-sync/settings")).body.settings.pricing_rules).summary.moved).toBe(0)
  })

  it("edits the rules: a category override and rounding change the preview rows and the moved-prices count", async () => {
    await page.goto(`${app.url}/app/settings/catalog-sync`)
    // One pricing system: the rules editor is the page's pricing, its base markup the 30 % saved above.
    const editor = page.getByTestId("pricing-rules-editor")
    await editor.waitFor()
    expect(await page.locator("#base_markup_percent").inputValue()).toBe("30")
    const preview = page.locator('[data-testid="pricing-preview"][data-state="ready"]')
    await preview.waitFor()
    await expectText(page.getByTestId("pricing-move-summary"), "No price will change")
    const before = await previewAmounts(page)
    expect(before).toHaveLength(10)
    await shot("1-editor", "pricing-rules-editor")

    // Reset before saving: the rules come back as saved and the server's settings are as they were.
    const savedBefore = (await adminApi("/admin/catalog-sync/settings")).body.settings
    await page.locator("#base_markup_percent").fill("45")
    await page.getByTestId("pricing-reprice-notice").waitFor()
    await page.getByRole("button", { name: "Reset", exact: true }).click()
    expect(await page.locator("#base_markup_percent").inputValue()).toBe("30")
    await page.getByTestId("pricing-reprice-notice").waitFor({ state: "detached" })
    expect((await adminApi("/admin/catalog-sync/settings")).body.settings).toEqual(savedBefore)
    await preview.waitFor()
    await expectText(page.getByTestId("pricing-move-summary"), "No price will change")

    // The top-level category with the most products, by its name in the picker.
    const refs = (await adminApi("/admin/catalog-sync/pricing/references")).body as { categories: { id: string; name: string; parent_id: string | null }[] }
    const stored = await storedPricesFromSql(db.url)
    const tops = refs.categories.filter((c) => c.parent_id === null)
    const count = (id: string) => stored.filter((v) => v.context.categoryPath[0] === id).length
    const top = tops.sort((a, b) => count(b.id) - count(a.id))[0]

    await page.getByTestId("add-override-category").click()
    await page.locator('[id="overrides[0].category_id"]').click()
    await page.getByRole("option", { name: top.name, exact: true }).click()
    await page.locator('[id="overrides[0].markup_percent"]').fill("60")
    await page.locator("#rounding_mode").click()
    await page.getByRole("option", { name: "To an ending" }).click()
    await page.locator("#rounding_direction").click()
    await page.getByRole("option", { name: "Up" }).click()

    rules = {
      ...(await adminApi("/admin/catalog-sync/settings")).body.settings.pricing_rules,
      overrides: [{ type: "category", category_id: top.id, markup_percent: "60" }],
      rounding: { mode: "ending", ending: "99", direction: "up" },
    }
    const expected = planReprice(stored, rules).summary
    expect(expected.moved).toBeGreaterThan(0)
    // The summary the page shows is the engine's over every stored cost.
    await expectText(page.getByTestId("pricing-move-summary"), `${formatCount(expected.moved)} of ${formatCount(expected.priced)} prices will move`)
    await preview.waitFor()
    const after = await previewAmounts(page)
    expect(after).toHaveLength(10)
    expect(after).not.toEqual(before)
    for (const amount of after) expect(amount).toMatch(/99\.00$/)
    // Same rows as the route answers for the same rules.
    const routed = (await adminApi("/admin/catalog-sync/pricing/preview", { pricing_rules: rules })).body
    expect(routed.summary).toEqual(expected)
    expect(routed.sample.map((r: { next: { amount: string } }) => r.next.amount)).toEqual(after)
    expect(await page.locator('[data-testid="pricing-preview-row"][data-move="up"]').count()).toBeGreaterThan(0)
    await page.getByTestId("pricing-reprice-notice").waitFor()
    await shot("2-preview", "pricing-rules-editor")

    // A band just added is not red before anything was typed, and its empty fields keep the last
    // valid preview on screen (marked stale) instead of blanking it; leaving a field says what it needs.
    await page.getByTestId("add-override-cost_band").click()
    await page.locator('[data-testid="pricing-preview"][data-state="stale"]').waitFor()
    expect(await page.locator('[data-testid^="error-overrides[1]"]').count()).toBe(0)
    expect(await previewAmounts(page)).toEqual(after)
    await page.locator('[id="overrides[1].markup_percent"]').focus()
    await page.locator('[id="overrides[1].markup_percent"]').blur()
    await page.getByTestId("error-overrides[1].markup_percent").waitFor()
    await shot("2b-preview-stale", "pricing-rules-editor")
    await page.getByRole("button", { name: "Delete override" }).nth(1).click()
    await preview.waitFor()
    expect(await previewAmounts(page)).toEqual(after)
  })

  it("saves: a reprice run completes and every price in Medusa is the engine's for the new rules", async () => {
    const startedAt = new Date().toISOString()
    await page.getByTestId("settings-save").click()
    // Rounding every price up to .99 moves most of them: the price guard asks first, and
    // nothing is saved (no reprice run) until the admin confirms.
    const guard = page.getByRole("alertdialog")
    await expectText(guard, "selling prices would change")
    expect((await lastRuns()).some((r) => r.mode === "reprice")).toBe(false)
    await shot("2b-price-guard")
    await guard.getByRole("button", { name: "Confirm and save" }).click()
    const reprice = await waitFor(
      "a reprice run to succeed",
      async () => {
        const run = (await lastRuns()).find((r) => r.mode === "reprice")
        return run && ["succeeded", "failed"].includes(run.status) ? run : null
      },
      300_000,
      1000
    )
    expect(reprice.status).toBe("succeeded")
    const savedRules = (await adminApi("/admin/catalog-sync/settings")).body.settings.pricing_rules
    expect(savedRules).toEqual(expect.objectContaining({ overrides: rules.overrides, rounding: rules.rounding }))
    // Every stored size's price in Medusa now equals the engine's result: nothing left to move.
    const stored = await storedPricesFromSql(db.url)
    const left = planReprice(stored, savedRules).summary
    expect([left.moved, left.changed]).toEqual([0, 0])
    const moved = await sql(db.url, "select count(*)::int as n from price where updated_at >= $1 and deleted_at is null", [startedAt])
    expect(moved[0].n).toBeGreaterThan(0)
    await page.goto(`${app.url}/app/catalog-sync`)
    const last = page.getByTestId("catalog-sync-last-run")
    await waitFor("the reprice as the last run", async () => (await last.getAttribute("data-mode")) === "reprice", 60_000, 500)
    await shot("3-reprice-done")
  })

  it("the brake: 30 % of the products removed in the catalog pauses the sync; Confirm applies it", async () => {
    const live = sandbox.state.catalog.liveProducts().map((p) => p.idText)
    const removeIds = live.slice(0, Math.ceil(live.length * 0.3))
    sandbox.control.mutate({ remove_ids: removeIds })
    await page.goto(`${app.url}/app/catalog-sync`)
    await page.getByTestId("sync-now").click()
    const brake = page.getByTestId("catalog-sync-brake")
    await brake.waitFor({ timeout: 300_000 })
    await expectText(page.getByTestId("catalog-sync-brake-reason"), `would remove ${removeIds.length} of`)
    await expectText(page.getByTestId("catalog-sync-brake-removals"), `Would remove ${removeIds.length} products`)
    // Nothing removed while paused.
    const active = async () => (await sql(db.url, "select count(*)::int as n from product where deleted_at is null and external_id is not null"))[0].n
    expect(await active()).toBe(PRODUCTS)
    await shot("4-brake-paused", "catalog-sync-brake")
    await page.getByTestId("catalog-sync-brake-confirm").click()
    await page.getByRole("alertdialog").getByRole("button", { name: "Confirm and apply" }).click()
    // Confirm queues the run that continues the paused one; it applies exactly the previewed removals.
    await waitFor("the confirmed removals", async () => (await active()) === PRODUCTS - removeIds.length, 300_000, 1000)
    const runs = await lastRuns()
    expect(runs[0].status).not.toBe("failed")
    await brake.waitFor({ state: "detached" })
    await shot("5-brake-confirmed")
  })
})

/** The preview table's new prices, top to bottom (without the ↑/↓ marks). */
async function previewAmounts(page: Page): Promise<string[]> {
  return (await page.getByTestId("pricing-preview-amount").allTextContents()).map((t) => t.replace(/[^\d.]/g, ""))
}
