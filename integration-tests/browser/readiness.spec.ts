// The storefront readiness checklist in the admin, in headless Chromium: a fresh shop (no
// region sells UAH, no stock location yet) whose publishable key was also narrowed to another
// channel shows red items; pressing each item's fix button turns the checklist green.
// Screenshots go to artifacts/screenshots/readiness-*.png.
import type { Browser, Page } from "playwright-core"
import { createTestDatabase } from "../harness"
import { startAdminApp, type AdminApp } from "./admin-app"
import { adminApiOf, logIn, openBrowser, prepareAdmin, Screenshots, sql } from "./browser-session"

jest.setTimeout(600_000)

const screens = new Screenshots()

describe("storefront readiness checklist in the browser", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: AdminApp
  let browser: Browser
  let page: Page

  const check = (id: string) => page.getByTestId(`readiness-check-${id}`)
  const waitForStatus = async (id: string, status: string, timeout = 60_000) =>
    page.waitForSelector(`[data-testid="readiness-check-${id}"][data-status="${status}"]`, { timeout })
  const adminApi = adminApiOf(() => page)

  beforeAll(async () => {
    prepareAdmin()
    db = await createTestDatabase("browser-readiness")
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser-readiness",
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_readiness_${process.pid}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "" },
    })
    ;({ browser, page } = await openBrowser({ width: 1440, height: 1600 }))
  })

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
    await db?.drop()
    screens.print()
  })

  it("shows red items on a shop without a UAH region, and turns green as each fix is pressed", async () => {
    expect(await sql(db.url, "select id from region where currency_code = 'uah' and deleted_at is null")).toHaveLength(0)
    await logIn(page, app.url)

    // The default publishable key sees only a new channel, not the store's default one.
    const [key] = await sql(db.url, "select id from api_key where type = 'publishable' and revoked_at is null order by created_at limit 1")
    const [store] = await sql(db.url, "select default_sales_channel_id from store limit 1")
    const other = await adminApi("/admin/sales-channels", { name: "Wholesale" })
    expect(other.status).toBe(200)
    expect(
      (await adminApi(`/admin/api-keys/${key.id}/sales-channels`, { add: [other.body.sales_channel.id], remove: [store.default_sales_channel_id] })).status
    ).toBe(200)

    await page.goto(`${app.url}/app/settings/catalog-sync`)
    await page.getByTestId("readiness-checklist").waitFor()
    await waitForStatus("region", "error")
    await waitForStatus("publishable_key", "error")
    await waitForStatus("stock_location", "error")
    await waitForStatus("sales_channel", "ok")
    expect(await page.getByTestId("readiness-checklist").getAttribute("data-ready")).toBe("false")
    expect(await check("region").textContent()).toContain("No region sells in UAH")
    await page.getByTestId("readiness-checklist").screenshot({ path: screens.file("readiness-1-before") })

    for (const id of ["region", "publishable_key", "stock_location"]) {
      await page.getByTestId(`readiness-fix-${id}`).click()
      await waitForStatus(id, "ok")
    }
    await page.waitForSelector('[data-testid="readiness-checklist"][data-ready="true"]')
    expect(await check("region").textContent()).toContain("Україна")
    expect(await page.locator('[data-testid^="readiness-fix-"]').count()).toBe(0)
    await page.getByTestId("readiness-checklist").screenshot({ path: screens.file("readiness-2-after-fixes") })
    await page.screenshot({ path: screens.file("readiness-3-settings-page"), fullPage: true })

    // What the buttons did, in the database.
    const regions = await sql(
      db.url,
      "select r.name, r.currency_code, array_agg(c.iso_2) as countries from region r left join region_country c on c.region_id = r.id where r.deleted_at is null group by r.id"
    )
    expect(regions).toEqual([{ name: "Україна", currency_code: "uah", countries: ["ua"] }])
    const links = await sql(
      db.url,
      "select 1 from publishable_api_key_sales_channel where publishable_key_id = $1 and sales_channel_id = $2 and deleted_at is null",
      [key.id, store.default_sales_channel_id]
    )
    expect(links).toHaveLength(1)

    // A reload reads the live state again: still green.
    await page.reload()
    await page.waitForSelector('[data-testid="readiness-checklist"][data-ready="true"]')
  })
})
