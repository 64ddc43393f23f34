// The storefront readiness checklist in the admin, in headless Chromium: a fresh shop (no
// region sells UAH, no stock location yet) whose publishable key was also narrowed to another
// channel shows red items; pressing each item's fix button turns the checklist green.
// Screenshots go to artifacts/screenshots/readiness-*.png.
import fs from "node:fs"
import path from "node:path"
import { chromium, type Browser, type Page } from "playwright-core"
import { ADMIN_EMAIL, ADMIN_PASSWORD, ARTIFACTS_DIR, createTestDatabase } from "../harness"
import { ensureAdminBuilt, snapshotPluginBuild, startAdminApp, type AdminApp } from "./admin-app"
import { Client } from "pg"

jest.setTimeout(600_000)

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium"
const SHOTS = path.join(ARTIFACTS_DIR, "screenshots")

async function sql<T = any>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const pg = new Client({ connectionString: url })
  await pg.connect()
  try {
    return (await pg.query(text, params)).rows as T[]
  } finally {
    await pg.end()
  }
}

describe("storefront readiness checklist in the browser", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: AdminApp
  let browser: Browser
  let page: Page

  const check = (id: string) => page.getByTestId(`readiness-check-${id}`)
  const waitForStatus = async (id: string, status: string, timeout = 60_000) =>
    page.waitForSelector(`[data-testid="readiness-check-${id}"][data-status="${status}"]`, { timeout })
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

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true })
    ensureAdminBuilt()
    snapshotPluginBuild()
    db = await createTestDatabase("browser-readiness")
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser-readiness",
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_readiness_${process.pid}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "" },
    })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    })
    page = await browser.newPage({ viewport: { width: 1440, height: 1600 } })
    page.setDefaultTimeout(60_000)
  })

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
    await db?.drop()
  })

  it("shows red items on a shop without a UAH region, and turns green as each fix is pressed", async () => {
    expect(await sql(db.url, "select id from region where currency_code = 'uah' and deleted_at is null")).toHaveLength(0)
    await page.goto(`${app.url}/app/login`)
    await page.fill('input[name="email"]', ADMIN_EMAIL)
    await page.fill('input[name="password"]', ADMIN_PASSWORD)
    await page.click('button[type="submit"]')
    await page.waitForURL((url) => !url.pathname.includes("/login"), { timeout: 60_000 })

    // The default publishable key sees only a new channel, not the store's default one.
    const [key] = await sql(db.url, "select id from api_key where type = 'publishable' and revoked_at is null order by created_at limit 1")
    const [store] = await sql(db.url, "select default_sales_channel_id from store limit 1")
    const other = await adminApi("/admin/sales-channels", { name: "Wholesale" })
    expect(other.status).toBe(200)
    expect((await adminApi(`/admin/api-keys/${key.id}/sales-channels`, { add: [other.body.sales_channel.id], remove: [store.default_sales_channel_id] })).status).toBe(200)

    await page.goto(`${app.url}/app/settings/catalog-sync`)
    await page.getByTestId("readiness-checklist").waitFor()
    await waitForStatus("region", "error")
    await waitForStatus("publishable_key", "error")
    await waitForStatus("stock_location", "error")
    await waitForStatus("sales_channel", "ok")
    expect(await page.getByTestId("readiness-checklist").getAttribute("data-ready")).toBe("false")
    expect(await check("region").textContent()).toContain("No region sells in UAH")
    await page.getByTestId("readiness-checklist").screenshot({ path: path.join(SHOTS, "readiness-1-before.png") })

    for (const id of ["region", "publishable_key", "stock_location"]) {
      await page.getByTestId(`readiness-fix-${id}`).click()
      await waitForStatus(id, "ok")
    }
    await page.waitForSelector('[data-testid="readiness-checklist"][data-ready="true"]')
    expect(await check("region").textContent()).toContain("Україна")
    expect(await page.locator('[data-testid^="readiness-fix-"]').count()).toBe(0)
    await page.getByTestId("readiness-checklist").screenshot({ path: path.join(SHOTS, "readiness-2-after-fixes.png") })
    await page.screenshot({ path: path.join(SHOTS, "readiness-3-settings-page.png"), fullPage: true })

    // What the buttons did, in the database.
    const regions = await sql(db.url, "select r.name, r.currency_code, array_agg(c.iso_2) as countries from region r left join region_country c on c.region_id = r.id where r.deleted_at is null group by r.id")
    expect(regions).toEqual([{ name: "Україна", currency_code: "uah", countries: ["ua"] }])
    const links = await sql(db.url, "select 1 from publishable_api_key_sales_channel where publishable_key_id = $1 and sales_channel_id = $2 and deleted_at is null", [
      key.id,
      store.default_sales_channel_id,
    ])
    expect(links).toHaveLength(1)

    // A reload reads the live state again: still green.
    await page.reload()
    await page.waitForSelector('[data-testid="readiness-checklist"][data-ready="true"]')
  })
})
