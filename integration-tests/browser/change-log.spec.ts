// A run's change log in the browser (issue 11): a small sandbox catalog is synced, the sandbox's
// control API /mutate changes some products' prices, "Sync now" runs a changes sync, and the
// run's page in headless Chromium must list exactly the mutated products whose served prices
// moved, each with the selling price before and after as the sandbox served them (read from
// its public API before and after /mutate, not from the plugin's bookkeeping). Then a repriced
// product's page: the catalog widget's prices per size, its last catalog change and the notice of
// the fields the sync manages; and a product the catalog has no price for: why it is a draft.
import { parse } from "lossless-json"
import type { Browser, Locator, Page } from "playwright-core"
import { createTestDatabase } from "../harness"
import { servedPricesKey, servedSellingPrice } from "../harness/served-prices"
import { expectedOf, type TruthCard } from "../harness/shop-truth"
import { readCatalog } from "../medusa/sync-helpers"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { formatUah } from "../../src/admin/lib/format"
import { markupPercent } from "../../src/api/admin/catalog-sync/products/[product_id]/prices/price-story"
import { startAdminApp, type AdminApp } from "./admin-app"
import { adminApiOf, expectText as expectTextIn, logIn, openBrowser, prepareAdmin, Screenshots } from "./browser-session"

jest.setTimeout(600_000)

const API_KEY = "sandbox-change-log-key-7741"
// One page of products keeps the spec short; /mutate picks among all of them.
const PRODUCTS = 200
const MUTATIONS = 12
// "avg": a change of any supplier's cost moves the served price (with "max" a cheaper supplier's would not).
const PRICING = { price_calculation: "avg", markup_percent: "30", discount_percent: null, old_price_markup_percent: null } as const
const screens = new Screenshots()

type Row = { kind: string; catalogId: string; before: string; after: string; price: string; href: string | null }

describe("a changes run's change log in the browser", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let sandbox: Sandbox
  let app: AdminApp
  let browser: Browser
  let page: Page
  let firstRunId: string
  let mutated: string[] = []
  let before = new Map<string, TruthCard>()
  let after = new Map<string, TruthCard>()

  const adminApi = adminApiOf(() => page)

  async function waitForRunEnd(runId: string, timeoutMs = 300_000) {
    const started = Date.now()
    while (Date.now() - started < timeoutMs) {
      const { body } = await adminApi(`/admin/catalog-sync/runs/${runId}`)
      if (["succeeded", "failed", "interrupted"].includes(body?.run?.status)) return body.run
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    throw new Error(`run ${runId} did not end`)
  }

  const servedCards = async () => new Map(((await readCatalog(sandbox.baseUrl, API_KEY, PRICING as never)) as unknown as TruthCard[]).map((c) => [c.id, c]))

  /** The viewport, or one element (the dashboard scrolls inside its own container, so a full-page shot would not reach it). */
  async function shot(name: string, element?: ReturnType<Page["locator"]>) {
    const file = screens.file(name)
    if (element) await element.screenshot({ path: file })
    else await page.screenshot({ path: file })
  }

  beforeAll(async () => {
    prepareAdmin()
    db = await createTestDatabase("browser-change-log")
    sandbox = await startSandbox({ products: PRODUCTS, seed: 31, apiKey: API_KEY, rpm: 6000, concurrency: 3, port: 0, controlPort: 0 })
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser-change-log",
      // No scheduled poll: it would pick up the mutations before the test's own run. Each page's
      // write is held 5 s, so the first sync is still running when the product list has loaded.
      env: {
        CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_change_log_${process.pid}`,
        CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
        CATALOG_SYNC_TEST_PAGE_DELAY_MS: "5000",
      },
    })
    ;({ browser, page } = await openBrowser({ width: 1440, height: 1000 }))
  })

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
    await sandbox?.close()
    await db?.drop()
    screens.print()
  })

  it("syncs the catalog, then the sandbox's /mutate changes some prices", async () => {
    await logIn(page, app.url)
    const settings = await adminApi("/admin/catalog-sync/settings", { base_url: sandbox.baseUrl, api_key: API_KEY, ...PRICING })
    expect(settings.status).toBe(200)
    firstRunId = settings.body.run.id
    // While it runs, the top bar's chip shows it on the product list without scrolling
    // (Medusa 2.21 puts the list's own widget below the 20-row list).
    await page.goto(`${app.url}/app/products`)
    const chip = page.getByTestId("catalog-sync-topbar")
    await chip.waitFor({ timeout: 60_000 })
    await expectText(chip, "Catalog sync")
    const box = (await chip.boundingBox())!
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height)
    expect(await chip.getAttribute("href")).toMatch(/\/catalog-sync$/)
    await shot("19-product-list-topbar-chip")
    expect(await waitForRunEnd(firstRunId)).toMatchObject({ status: "succeeded", created: PRODUCTS })

    before = await servedCards()
    const res = await fetch(`${sandbox.controlUrl}/mutate`, { method: "POST", body: JSON.stringify({ count: MUTATIONS, kinds: ["price"] }) })
    expect(res.status).toBe(200)
    // Catalog ids are 64-bit: read losslessly, compared as text like the cards' ids.
    mutated = [...new Set((parse(await res.text()) as { changed: unknown[] }).changed.map(String))]
    expect(mutated.length).toBeGreaterThan(0)
    after = await servedCards()
  })

  it("lists exactly the mutated products whose served prices moved, with the selling price before and after", async () => {
    // A mutation can land on a supplier without stock or cancel out: only a moved served price is a repricing.
    const repriced = mutated.filter((id) => servedPricesKey(before.get(id)!) !== servedPricesKey(after.get(id)!)).sort()
    expect(repriced.length).toBeGreaterThan(0)

    await page.goto(`${app.url}/app/catalog-sync`)
    await page.getByTestId("sync-now").click()
    let runId = ""
    const started = Date.now()
    while (!runId && Date.now() - started < 60_000) {
      const { body } = await adminApi("/admin/catalog-sync/runs?limit=1")
      const latest = body?.runs?.[0]
      if (latest && latest.id !== firstRunId) runId = latest.id
      else await new Promise((resolve) => setTimeout(resolve, 300))
    }
    expect(runId).not.toBe("")
    const run = await waitForRunEnd(runId)
    expect(run).toMatchObject({ status: "succeeded", mode: "changes", trigger: "manual", skipped: 0 })

    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${runId}`)
    const log = page.getByTestId("catalog-sync-change-log")
    await log.getByTestId("change-log-row").first().waitFor()
    const rows = await readRows(page)
    console.log(
      `mutated ${mutated.length} products, ${repriced.length} repriced; change log rows: ${rows.map((r) => `${r.catalogId} ${r.kind} ${r.before}→${r.after}`).join(", ")}`
    )
    // Every row is a mutated product, an update (price mutations create and remove nothing).
    expect(rows.every((r) => mutated.includes(r.catalogId) && r.kind === "updated")).toBe(true)
    // The rows with a price are exactly the products whose served prices moved...
    const priced = rows.filter((r) => r.after !== "")
    expect(priced.map((r) => r.catalogId).sort()).toEqual(repriced)
    for (const id of repriced) {
      const row = priced.find((r) => r.catalogId === id)!
      const was = servedSellingPrice(before.get(id)!)!
      const now = servedSellingPrice(after.get(id)!)!
      // ...with the selling price the sandbox served before and after /mutate, as data and as shown.
      expect({ before: row.before, after: row.after }).toEqual({ before: was, after: now })
      // The lowest over the sizes stays when another size was repriced: the row says so.
      expect(row.price).toBe(was === now ? `${formatUah(now)} (lowest price unchanged; another size changed)` : `${formatUah(was)} → ${formatUah(now)}`)
      expect(row.href).toMatch(/\/products\/prod_/)
    }
    await shot("15-change-log", log)

    // Search by a catalog id finds that product's row alone.
    await log.getByTestId("change-log-search").fill(repriced[0])
    await waitForRows(page, (found) => found.length === 1 && found[0].catalogId === repriced[0])
    await shot("16-change-log-search", log)
  })

  it("a repriced product's page shows its prices per size as served, the last catalog change and the managed fields", async () => {
    // The search above left one row: a repriced product.
    const [repricedRow] = await readRows(page)
    expect(repricedRow.after).not.toBe("")
    const id = repricedRow.catalogId
    const card = after.get(id)!
    await page.getByTestId("change-log-row").first().locator("a").click()
    await page.waitForURL(/\/products\/prod_/)
    const widget = page.getByTestId("catalog-product-widget")
    await widget.waitFor()
    await expectText(widget.getByTestId("catalog-product-badge"), "Synced")
    await widget.getByTestId("catalog-product-size").first().waitFor()
    const sizes = await widget.getByTestId("catalog-product-size").evaluateAll((els) =>
      els.map((el) => ({
        size: el.getAttribute("data-size") ?? "",
        selling: el.getAttribute("data-selling") ?? "",
        crossedOut: el.getAttribute("data-crossed-out") ?? "",
        cost: el.getAttribute("data-cost") ?? "",
        markup: el.getAttribute("data-markup") ?? "",
      }))
    )
    // Selling and crossed-out price per size, as the sandbox serves them after /mutate.
    const strip = (money: string | undefined) => (money ? money.replace(/^uah:/, "") : "")
    const expected = expectedOf(card).variants.map((v) => ({ selling: strip(v.sale[0] ?? v.base[0]), crossedOut: v.sale[0] ? strip(v.base[0]) : "" }))
    const key = (r: { selling: string; crossedOut: string }) => `${r.selling}/${r.crossedOut}`
    expect(sizes.map(key).sort()).toEqual(expected.map(key).sort())
    // Cost and markup per size when the sync has stored the size's cost (never made up when it has not).
    const servedCost = new Map(card.sizes.map((s) => [s.size.trim(), s.cost_price ?? null]))
    for (const s of sizes.filter((s) => s.cost !== "")) {
      expect(s.cost).toBe(servedCost.get(s.size) ?? card.cost_price)
      expect(s.markup).toBe(markupPercent(s.selling || null, s.cost))
    }
    if (sizes.every((s) => s.cost === "")) await expectText(widget.getByTestId("catalog-product-cost-note"), "no cost stored")
    // The last change the catalog made: the repricing, with its prices before and after.
    const was = servedSellingPrice(before.get(id)!)!
    const now = servedSellingPrice(card)!
    await expectText(
      widget.getByTestId("catalog-product-last-change"),
      `Updated (price) · ${was === now ? `${formatUah(now)} (lowest price unchanged; another size changed)` : `${formatUah(was)} → ${formatUah(now)}`}`
    )
    await expectText(widget.getByTestId("catalog-product-managed"), "Edits to these fields are overwritten at the next sync")
    await shot("17-product-price-story", widget)
  })

  it("a product the catalog has no price for says why it is a draft", async () => {
    const drafted = await adminApi(`/admin/catalog-sync/runs/${firstRunId}/changes?kind=drafted`)
    const row = (drafted.body.changes as { catalog_id: string; product_id: string }[])[0]
    expect(row).toBeTruthy()
    // The catalog indeed serves no price for it.
    expect(servedSellingPrice(after.get(row.catalog_id)!)).toBeNull()
    await page.goto(`${app.url}/app/products/${row.product_id}`)
    const widget = page.getByTestId("catalog-product-widget")
    await widget.waitFor()
    await expectText(widget.getByTestId("catalog-product-badge"), "Draft")
    await expectText(widget.getByTestId("catalog-product-draft-reason"), "The catalog has no price for this product")
    await expectText(widget.getByTestId("catalog-product-last-change"), "Drafted")
    await shot("18-product-draft-reason", widget)
  })
})

/** The change log's rows as shown: kind, catalog id, prices (data attributes and visible text), product link. */
async function readRows(page: Page): Promise<Row[]> {
  return page.getByTestId("change-log-row").evaluateAll((elements) =>
    elements.map((el) => ({
      kind: el.getAttribute("data-kind") ?? "",
      catalogId: el.getAttribute("data-catalog-id") ?? "",
      before: el.getAttribute("data-price-before") ?? "",
      after: el.getAttribute("data-price-after") ?? "",
      price: (el.querySelector('[data-testid="change-log-price"]')?.textContent ?? "").replace(/\s+/g, " ").trim(),
      href: el.querySelector("a")?.getAttribute("href") ?? null,
    }))
  )
}

async function waitForRows(page: Page, ok: (rows: Row[]) => boolean, timeoutMs = 30_000): Promise<Row[]> {
  const started = Date.now()
  let rows: Row[] = []
  while (Date.now() - started < timeoutMs) {
    rows = await readRows(page)
    if (ok(rows)) return rows
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`unexpected change log rows: ${JSON.stringify(rows)}`)
}

/** The widget's texts wrap prices over lines: compare with runs of whitespace as one space. */
const expectText = (locator: Locator, text: string, timeoutMs = 30_000) => expectTextIn(locator, text, timeoutMs, { collapseWhitespace: true })
