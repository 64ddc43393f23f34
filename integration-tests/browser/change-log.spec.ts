// A run's change log in the browser (issue 11): a small sandbox catalog is synced, the sandbox's
// control API /mutate changes some products' prices, "Sync now" runs a changes sync, and the
// run's page in headless Chromium must list exactly the mutated products whose served prices
// moved, each with the selling price before and after as the sandbox served them (read from
// its public API before and after /mutate, not from the plugin's bookkeeping).
import fs from "node:fs"
import path from "node:path"
import { parse } from "lossless-json"
import { chromium, type Browser, type Page } from "playwright-core"
import { ADMIN_EMAIL, ADMIN_PASSWORD, ARTIFACTS_DIR, createTestDatabase } from "../harness"
import { servedPricesKey, servedSellingPrice } from "../harness/served-prices"
import type { TruthCard } from "../harness/shop-truth"
import { readCatalog } from "../medusa/sync-helpers"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { formatUah } from "../../src/admin/lib/format"
import { ensureAdminBuilt, snapshotPluginBuild, startAdminApp, type AdminApp } from "./admin-app"

jest.setTimeout(600_000)

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium"
const SHOTS = path.join(ARTIFACTS_DIR, "screenshots")
const API_KEY = "sandbox-change-log-key-7741"
// One page of products keeps the spec short; /mutate picks among all of them.
const PRODUCTS = 200
const MUTATIONS = 12
// "avg": a change of any supplier's cost moves the served price (with "max" a cheaper supplier's would not).
const PRICING = { price_calculation: "avg", markup_percent: "30", discount_percent: null, old_price_markup_percent: null } as const
const saved: string[] = []

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

  const adminApi = (p: string, body?: unknown) =>
    page.evaluate(
      async ({ p, body }) => {
        const res = await fetch(p, {
          method: body === undefined ? "GET" : "POST",
          credentials: "include",
          headers: body === undefined ? {} : { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
        return { status: res.status, body: await res.json().catch(() => null) }
      },
      { p, body }
    )

  async function waitForRunEnd(runId: string, timeoutMs = 300_000) {
    const started = Date.now()
    while (Date.now() - started < timeoutMs) {
      const { body } = await adminApi(`/admin/catalog-sync/runs/${runId}`)
      if (["succeeded", "failed", "interrupted"].includes(body?.run?.status)) return body.run
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    throw new Error(`run ${runId} did not end`)
  }

  const servedCards = async () =>
    new Map(((await readCatalog(sandbox.baseUrl, API_KEY, PRICING as never)) as unknown as TruthCard[]).map((c) => [c.id, c]))

  async function shot(name: string) {
    const file = path.join(SHOTS, `${name}.png`)
    await page.screenshot({ path: file, fullPage: true })
    saved.push(file)
  }

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true })
    ensureAdminBuilt()
    snapshotPluginBuild()
    db = await createTestDatabase("browser-change-log")
    sandbox = await startSandbox({ products: PRODUCTS, seed: 31, apiKey: API_KEY, rpm: 6000, concurrency: 3, port: 0, controlPort: 0 })
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser-change-log",
      // No scheduled poll: it would pick up the mutations before the test's own run.
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_change_log_${process.pid}`, CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000) },
    })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    })
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } })
    page.setDefaultTimeout(60_000)
  })

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
    await sandbox?.close()
    await db?.drop()
    if (saved.length) console.log(`Screenshots:\n${saved.map((file) => `  ${path.relative(process.cwd(), file)}`).join("\n")}`)
  })

  it("syncs the catalog, then the sandbox's /mutate changes some prices", async () => {
    await page.goto(`${app.url}/app/login`)
    await page.fill('input[name="email"]', ADMIN_EMAIL)
    await page.fill('input[name="password"]', ADMIN_PASSWORD)
    await page.click('button[type="submit"]')
    await page.waitForURL((url) => !url.pathname.includes("/login"), { timeout: 60_000 })
    const settings = await adminApi("/admin/catalog-sync/settings", { base_url: sandbox.baseUrl, api_key: API_KEY, ...PRICING })
    expect(settings.status).toBe(200)
    firstRunId = settings.body.run.id
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
    console.log(`mutated ${mutated.length} products, ${repriced.length} repriced; change log rows: ${rows.map((r) => `${r.catalogId} ${r.kind} ${r.before}→${r.after}`).join(", ")}`)
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
      expect(row.price).toBe(`${formatUah(was)} → ${formatUah(now)}`)
      expect(row.href).toMatch(/\/products\/prod_/)
    }
    await shot("15-change-log")

    // Search by a catalog id finds that product's row alone.
    await log.getByTestId("change-log-search").fill(repriced[0])
    await waitForRows(page, (found) => found.length === 1 && found[0].catalogId === repriced[0])
    await shot("16-change-log-search")
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
