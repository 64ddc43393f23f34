// Drives the demo admin in headless Chromium (Debian's chromium, playwright-core): log in,
// connect the sandbox in Settings > Catalog sync, see a field error for a base markup of 5000
// in the pricing rules, save valid settings with the page's one Save, start a sync from the sync
// page's panel, watch it finish, read the product list's one line about it (against SQL), open
// the run history and a run. Screenshots go to artifacts/screenshots/ (and the product list's
// line to $SCREENSHOTS_DIR when set).
import fs from "node:fs"
import path from "node:path"
import { Client } from "pg"
import type { Browser, Page } from "playwright-core"
import { createTestDatabase } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { startAdminApp, type AdminApp } from "./admin-app"
import { waitFor } from "../medusa/poll-and-query"
import { adminApiOf, expectText, logIn, openBrowser, prepareAdmin, Screenshots, sql } from "./browser-session"

jest.setTimeout(600_000)

const API_KEY = "sandbox-admin-key-7421"
const screens = new Screenshots()

/** A screenshot of the page, or of one element (the widget sits below a long product list). */
async function shot(page: Page, name: string, testId?: string): Promise<void> {
  const file = screens.file(name)
  if (testId) await page.getByTestId(testId).screenshot({ path: file })
  else await page.screenshot({ path: file, fullPage: true })
}

describe("admin UI in the browser", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let sandbox: Sandbox
  let app: AdminApp
  let browser: Browser
  let page: Page
  const consoleErrors: string[] = []
  /** The admin API as the logged-in page sees it. */
  const adminGet = (path: string): Promise<any> => page.evaluate(async (p) => (await fetch(p, { credentials: "include" })).json(), path)
  const adminApi = adminApiOf(() => page)

  beforeAll(async () => {
    prepareAdmin()
    db = await createTestDatabase("browser")
    sandbox = await startSandbox({ products: 300, seed: 7, apiKey: API_KEY, rpm: 6000, concurrency: 3, port: 0, controlPort: 0 })
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser",
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_${process.pid}` },
    })
    // Tall enough that full-page screenshots show whole sections (the dashboard scrolls inside).
    ;({ browser, page } = await openBrowser({ width: 1440, height: 1600 }, 30_000))
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text())
    })
  })

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
    await sandbox?.close()
    await db?.drop()
    screens.print()
  })

  it("logs in", async () => {
    await logIn(page, app.url)
  })

  it("shows the empty state before the catalog is connected: one line on the product list, the panel on the sync page", async () => {
    await page.goto(`${app.url}/app/products`)
    const line = page.getByTestId("catalog-sync-list-widget")
    await page.locator('[data-testid="catalog-sync-list-widget"][data-state="not_configured"]').waitFor()
    await expectText(line.getByTestId("catalog-sync-list-state"), "Not configured")
    await expectText(line.getByTestId("catalog-sync-list-activity"), "The catalog is not connected yet.")
    // The full panel lives on the sync page only.
    expect(await page.getByTestId("catalog-sync-widget").count()).toBe(0)

    await page.goto(`${app.url}/app/catalog-sync`)
    await page.getByTestId("catalog-sync-empty").waitFor()
    await expectText(page.getByTestId("catalog-sync-state"), "Not configured")
  })

  it("connects the sandbox, refuses a base markup of 5000 beside the field, saves valid settings", async () => {
    await page.goto(`${app.url}/app/settings/catalog-sync`)
    await page.locator("#base_url").fill(sandbox.baseUrl)
    await page.locator("#api_key").fill(API_KEY)

    await page.getByTestId("test-connection").click()
    const result = page.getByTestId("connection-result")
    await result.waitFor()
    await expectText(result, "Connected")
    await expectText(result, "requests a minute")

    await page.locator("#base_markup_percent").fill("5000")
    await page.getByTestId("settings-save").click()
    await expectText(page.getByTestId("error-base_markup_percent"), "at most 1000")
    await expectText(page.getByTestId("settings-form-error"), "Some settings need fixing")
    await shot(page, "01-settings-validation-error")
    // Refused before sending: nothing was stored.
    const before = (await adminGet("/admin/catalog-sync/settings")).settings
    expect(before.api_key_set).toBe(false)
    expect(before.pricing_rules.base_markup_percent).toBe("0")

    await page.locator("#base_markup_percent").fill("30")
    await page.locator("#crossed_out_type").click()
    await page.getByRole("option", { name: "As a discount from it, %" }).click()
    await page.locator("#crossed_out_discount").fill("20")
    expect(await page.getByTestId("error-base_markup_percent").count()).toBe(0)

    await page.getByTestId("settings-save").click()
    // Saved: the key is shown masked, and the shop's first save started its first full pass.
    await page.getByTestId("api-key-masked").waitFor()
    expect(await page.getByTestId("api-key-masked").inputValue()).toBe("••••7421")
    await page.getByText("A full pass started").first().waitFor()
    const after = (await adminGet("/admin/catalog-sync/settings")).settings
    expect(after.pricing_rules.base_markup_percent).toBe("30")
    expect(after.pricing_rules.crossed_out).toEqual({ type: "discount", discount_percent: "20" })
    await shot(page, "02-settings-saved")
  })

  it("shows the API's refusal of a wrong key beside the key field, keeping the saved key", async () => {
    await page.getByRole("button", { name: "Replace" }).click()
    await page.locator("#api_key").fill("wrong-key-0000")
    await page.getByTestId("settings-save").click()
    await expectText(page.getByTestId("error-api_key"), "refused")
    await page.getByRole("button", { name: "Keep saved" }).click()
    expect(await page.getByTestId("api-key-masked").inputValue()).toBe("••••7421")
  })

  it("shows the full resync that the pricing started, then starts a sync from the sync page's panel and watches it finish", async () => {
    await page.goto(`${app.url}/app/catalog-sync`)
    const widget = page.getByTestId("catalog-sync-widget")
    await widget.waitFor()
    // The resync queued by the settings change runs first; wait for it to end.
    await waitForLastRun(page, "settings", 240_000)
    await expectText(page.getByTestId("catalog-sync-products"), "300")

    // Give the next run real work and slow the catalog down so its progress is visible.
    sandbox.control.mutate({ count: "40" })
    sandbox.control.faults({ latency_ms: "2000" })

    await page.getByTestId("sync-now").click()
    await page.locator('[data-testid="catalog-sync-progress"][data-status="running"]').waitFor({ timeout: 60_000 })
    await expectText(page.getByTestId("catalog-sync-state"), "Running")
    await expectText(page.getByTestId("catalog-sync-progress"), "Changes")
    await shot(page, "03-widget-during-run", "catalog-sync-widget")

    await waitForLastRun(page, "manual", 240_000)
    sandbox.control.faults({ latency_ms: "0" })
    await expectText(page.getByTestId("catalog-sync-state"), "Idle")
    expect(await page.getByTestId("catalog-sync-progress").count()).toBe(0)
    await expectText(page.getByTestId("catalog-sync-quota"), "of 10,000")
    await shot(page, "04-widget-after-run", "catalog-sync-widget")
  })

  it("on the product list, one line: the sync's state, when it last synced and what that run did (SQL), the way to the sync page; it refreshes the list when a run ends", async () => {
    await page.goto(`${app.url}/app/products`)
    await page.locator("table tbody tr").first().waitFor()
    const line = page.getByTestId("catalog-sync-list-widget")
    const previous = await waitFor("the line's last run", async () => (await line.getAttribute("data-run-id")) || null, 30_000, 250)
    // The dashboard's own product list requests, to see the line refresh it when a run ends.
    const productListCalls: number[] = []
    const onRequest = (request: { method(): string; url(): string }) => {
      if (request.method() === "GET" && new URL(request.url()).pathname === "/admin/products") productListCalls.push(Date.now())
    }
    page.on("request", onRequest)
    // A run that ends while the list is on screen.
    sandbox.control.mutate({ count: "10" })
    const started = await adminApi("/admin/catalog-sync/runs", { mode: "changes" })
    expect(started.status).toBe(202)
    const runId = started.body.run.id as string
    expect(runId).not.toBe(previous)
    await waitFor(
      "the line to show the run ended",
      async () => (await line.getAttribute("data-run-id")) === runId && (await line.getAttribute("data-run-status")) === "succeeded",
      120_000,
      250
    )
    await waitFor("the product list to be asked again", async () => productListCalls.length > 0, 10_000, 100)
    page.off("request", onRequest)

    // Its words against the run's SQL row: when, and what it did in the run counts' own terms.
    const [row] = await sql(db.url, "select status, created, updated, stock_only, removed, swept, skipped from mcs_sync_run where id = $1", [runId])
    expect(row.status).toBe("succeeded")
    const did =
      (
        [
          [row.created, "created"],
          [row.updated, "updated"],
          [row.stock_only, "stock only"],
          [row.removed + row.swept, "removed"],
          [row.skipped, "rejected"],
        ] as [number, string][]
      )
        .filter(([n]) => n > 0)
        .map(([n, word]) => `${n.toLocaleString("en-US")} ${word}`)
        .join(" · ") || "no changes"
    // Read while the line still names this run (a scheduled poll may end after it).
    const activity = await waitFor(
      "the line's words of this run",
      async () => {
        const text = ((await line.getByTestId("catalog-sync-list-activity").textContent()) ?? "").trim()
        return (await line.getAttribute("data-run-id")) === runId ? text : null
      },
      10_000,
      100
    )
    const didPattern = did.replace(/[.*+?^$()|[\]\\]/g, "\\$&")
    expect(activity).toMatch(new RegExp(`^Last synced (just now|\\d+ min ago): ${didPattern}( · next (in a moment|in \\d+ min))?$`))
    // Nothing needs the admin: the run succeeded and the shop keeps nothing the catalog dropped (SQL).
    const [{ pending }] = await sql(db.url, "select count(*)::int as pending from mcs_pending_removal where deleted_at is null")
    expect(pending).toBe(0)
    expect(await line.getByTestId("catalog-sync-list-warning").count()).toBe(0)
    // One line, not the panel: no buttons to start runs, no counts grid.
    expect(await page.getByTestId("catalog-sync-widget").count()).toBe(0)
    expect(await line.getByTestId("sync-now").count()).toBe(0)
    const box = (await line.boundingBox())!
    expect(box.height).toBeLessThanOrEqual(80)
    const state = line.getByTestId("catalog-sync-list-state")
    const listBadge = [((await state.textContent()) ?? "").trim(), await state.getAttribute("data-color")]
    await line.scrollIntoViewIfNeeded()
    await shot(page, "product-list-line", "catalog-sync-list-widget")
    if (process.env.SCREENSHOTS_DIR) {
      fs.mkdirSync(process.env.SCREENSHOTS_DIR, { recursive: true })
      fs.copyFileSync(screens.file("product-list-line"), path.join(process.env.SCREENSHOTS_DIR, "product-list-line.png"))
    }

    // The way to the full panel; the same state, by name and colour, there.
    expect(await line.getByTestId("catalog-sync-list-open").getAttribute("href")).toMatch(/\/catalog-sync$/)
    await line.getByTestId("catalog-sync-list-open").click()
    await page.waitForURL(/\/app\/catalog-sync$/)
    const panelState = page.getByTestId("catalog-sync-state")
    await panelState.waitFor()
    expect([((await panelState.textContent()) ?? "").trim(), await panelState.getAttribute("data-color")]).toEqual(listBadge)
    await waitForLastRun(page, "manual", 60_000)
  })

  it("asks before a full resync and runs it once confirmed", async () => {
    await page.getByTestId("full-resync").click()
    const dialog = page.getByRole("alertdialog")
    await expectText(dialog, "Start a full resync?")
    await dialog.getByRole("button", { name: "Cancel" }).click()
    await dialog.waitFor({ state: "detached" })
    expect(await page.getByTestId("catalog-sync-progress").count()).toBe(0)

    await page.getByTestId("full-resync").click()
    await page.getByRole("alertdialog").getByRole("button", { name: "Start full resync" }).click()
    await page.getByText("Full resync started").first().waitFor()
    await waitForLastRun(page, "manual", 240_000, "full")
    await expectText(page.getByTestId("catalog-sync-last-run"), "Full resync")
  })

  it("opens the run history and a run's details", async () => {
    // An older failed run with rejected cards, as the sync records them.
    await insertFailedRun(db.url)
    await page.getByRole("link", { name: "History" }).click()
    await page.getByTestId("catalog-sync-runs").waitFor()
    const rows = page.getByTestId("catalog-sync-run-row")
    // The sync page's history is in the dashboard's query cache, fresh for its stale time; the run
    // inserted behind the app's back shows once the page reads the rows again.
    await page.waitForURL(/\/settings\/catalog-sync\/runs$/)
    await page.reload()
    await page.locator('[data-testid="catalog-sync-run-row"][data-run-id="csrun_browser_failed"]').waitFor()
    // Newest first: the confirmed full resync, the run the product list's line watched, "Sync now", the resync the pricing started.
    const texts = await rows.allTextContents()
    expect(texts.length).toBeGreaterThanOrEqual(4)
    const ours = texts.filter((text) => !text.includes("Scheduled") && !text.includes("Retry"))
    expect(ours[0]).toMatch(/Manual.*Full resync/)
    expect(ours[1]).toMatch(/Manual.*Changes/)
    expect(ours[2]).toMatch(/Manual.*Changes/)
    expect(ours[3]).toMatch(/Settings change.*Full resync/)
    // All four succeeded; a succeeded run's badge reads "Succeeded", or "No changes" when it changed nothing.
    const states = (
      await rows.evaluateAll((els) => els.map((el) => [el.getAttribute("data-status"), el.getAttribute("data-state"), el.textContent ?? ""]))
    ).filter(([, , text]) => !text?.includes("Scheduled") && !text?.includes("Retry"))
    expect(states.slice(0, 4).map(([status]) => status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"])
    // The resync the pricing started created the products, "Sync now" wrote the 40 changes and the line's run the 10: each says Succeeded.
    expect(states.slice(1, 4).map(([, state]) => state)).toEqual(["succeeded", "succeeded", "succeeded"])
    for (const [, state, text] of states.slice(0, 4)) expect(text).toContain(state === "no_changes" ? "No changes" : "Succeeded")
    expect(texts[texts.length - 1]).toMatch(/Failed/)
    await shot(page, "05-run-history")

    // The "Sync now" run, the second manual changes run from the top (hasText would also match a "No changes" badge).
    await page.locator('[data-testid="catalog-sync-run-row"][data-trigger="manual"][data-mode="changes"]').nth(1).click()
    await page.getByTestId("catalog-sync-rejected").waitFor()
    await expectText(page.getByTestId("catalog-sync-run"), "Succeeded")
    await shot(page, "06-run-detail")

    await page.getByRole("link", { name: "All runs" }).click()
    await rows.last().click()
    const rejected = page.getByTestId("catalog-sync-rejected-row")
    await rejected.first().waitFor()
    expect(await rejected.count()).toBe(2)
    await expectText(rejected.first(), "9223372036854775807")
    await expectText(rejected.first(), "price: expected a decimal string")
    await expectText(page.getByTestId("catalog-sync-run"), "daily_quota_exceeded")
    await shot(page, "06b-run-detail-rejected")
  })

  it("shows the catalog details of a synced product", async () => {
    await page.goto(`${app.url}/app/products`)
    await page.locator("table tbody tr").first().click()
    await page.waitForURL(/\/products\/prod_/)
    const widget = page.getByTestId("catalog-product-widget")
    try {
      await widget.waitFor()
    } catch (error) {
      const productId = /products\/(prod_[^/?]+)/.exec(page.url())?.[1]
      const link = await page.request.get(`${app.url}/admin/catalog-sync/products/${productId}/catalog`)
      await shot(page, "07-product-catalog-widget-missing")
      throw new Error(`no catalog widget on ${page.url()}: link API ${link.status()} ${await link.text()}`)
    }
    await expectText(widget, "Catalog id")
    await expectText(widget, "Sync version")
    await shot(page, "07-product-catalog-widget")
  })

  it("locks fields shop-wide on the settings page; a product's widget shows them locked by the shop", async () => {
    await page.goto(`${app.url}/app/settings/catalog-sync`)
    await page.getByTestId("catalog-field-locks-section").waitFor()
    await page.locator("#lock-title").click()
    await page.locator("#lock-prices").click()
    await page.getByTestId("settings-save").click()
    // Nothing runs for a locks change; the toast says so and what the next sync does.
    await page.getByText("Nothing runs now: the next sync leaves the locked fields of every product as they are.").first().waitFor()
    const saved = await adminGet("/admin/catalog-sync/settings")
    expect(saved.settings.field_locks).toEqual({ locked: ["title", "prices"], auto_lock_on_admin_edit: false })
    await shot(page, "09-field-locks-shop-default", "catalog-field-locks-section")

    await page.goto(`${app.url}/app/products`)
    await page.locator("table tbody tr").first().click()
    await page.waitForURL(/\/products\/prod_/)
    const title = page.locator('[data-testid="catalog-product-lock"][data-field="title"]')
    await expectText(title, "locked (shop default)")
    expect(await title.getAttribute("data-locked")).toBe("true")
    expect(await page.locator('[data-testid="catalog-product-lock"][data-field="description"]').getAttribute("data-locked")).toBe("false")

    // Unlocked again, so the steps after this one see the shop as before.
    await page.goto(`${app.url}/app/settings/catalog-sync`)
    await page.locator("#lock-title").click()
    await page.locator("#lock-prices").click()
    await page.getByTestId("settings-save").click()
    await page.getByTestId("settings-dirty").getByText("Everything on this page is saved.").waitFor()
    const after = await adminGet("/admin/catalog-sync/settings")
    expect(after.settings.field_locks.locked).toEqual([])
  })

  it("one Save at the page's end saves every card in one request; a refused field keeps every stored setting", async () => {
    await page.goto(`${app.url}/app/settings/catalog-sync`)
    await page.getByTestId("catalog-brake-section").waitFor()
    // One Save on the page, in view at the bottom of the viewport without scrolling (sticky footer).
    expect(await page.getByRole("button", { name: /^Save/ }).count()).toBe(1)
    const box = (await page.getByTestId("settings-save").boundingBox())!
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height)
    expect(await page.evaluate(() => document.querySelector('[data-testid="catalog-sync-settings"]')!.scrollHeight)).toBeGreaterThan(
      page.viewportSize()!.height
    )
    await expectText(page.getByTestId("settings-dirty"), "Everything on this page is saved.")

    const stored = (await adminGet("/admin/catalog-sync/settings")).settings
    const runsBefore = (await adminGet("/admin/catalog-sync/runs?limit=50")).runs.length as number
    const posts: string[] = []
    const onRequest = (request: { method(): string; url(): string; postData(): string | null }) => {
      if (request.method() === "POST" && request.url().endsWith("/admin/catalog-sync/settings")) posts.push(request.postData() ?? "")
    }
    page.on("request", onRequest)

    // A change in every card: the poll interval, the rules' base markup, the filter, a shop-wide lock, the brake.
    await page.locator("#poll_interval_minutes").fill("12")
    await page.locator("#base_markup_percent").fill("35")
    await page.locator("#filter-cost_max").fill("9999999")
    await page.locator("#lock-description").click()
    await page.locator("#brake-remove_percent").fill("25")
    // One of them out of range: the server's 400 names it and nothing is stored.
    await page.locator("#brake-price_drop_percent").fill("150")
    await expectText(page.getByTestId("settings-dirty"), "Unsaved changes")
    const refused = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/admin/catalog-sync/settings"))
    await page.getByTestId("settings-save").click()
    const answer = await refused
    expect(answer.status()).toBe(400)
    expect((await answer.json()).field).toBe("brake.price_drop_percent")
    await expectText(page.getByTestId("error-brake-price_drop_percent"), "100")
    await expectText(page.getByTestId("settings-form-error"), "Some settings were refused")
    expect(posts).toHaveLength(1)
    const sent = JSON.parse(posts[0])
    expect(Object.keys(sent).sort()).toEqual(expect.arrayContaining(["brake", "field_locks", "filter", "poll_interval_minutes", "pricing_rules"]))
    // Nothing of the stored settings changed, and no run started.
    expect((await adminGet("/admin/catalog-sync/settings")).settings).toEqual(stored)
    expect((await adminGet("/admin/catalog-sync/runs?limit=50")).runs.length).toBe(runsBefore)
    // The edits stay on the page for fixing.
    expect(await page.locator("#base_markup_percent").inputValue()).toBe("35")
    expect(await page.locator("#poll_interval_minutes").inputValue()).toBe("12")
    await shot(page, "10-settings-one-save-refused")

    // Fixed and saved: one request stores every card; the rules changed, so the toast names the reprice it started.
    await page.locator("#brake-price_drop_percent").fill("40")
    await page.getByTestId("settings-save").click()
    // The new base markup moves every price: the price guard asks first (a 409, nothing stored),
    // and confirming sends the same changes again, confirmed.
    const guard = page.getByRole("alertdialog")
    await expectText(guard, "Confirm this price change")
    await guard.getByRole("button", { name: "Confirm and save" }).click()
    await page.getByText("Settings saved · a reprice started").first().waitFor()
    expect(posts).toHaveLength(3)
    expect(JSON.parse(posts[2])).toEqual({ ...JSON.parse(posts[1]), confirm_price_guards: true })
    expect(JSON.parse(posts[1])).toMatchObject({ poll_interval_minutes: 12, brake: { remove_percent: "25", price_drop_percent: "40" } })
    page.off("request", onRequest)
    const saved = (await adminGet("/admin/catalog-sync/settings")).settings
    expect(saved.poll_interval_minutes).toBe(12)
    expect(saved.pricing_rules.base_markup_percent).toBe("35")
    expect(saved.filter.cost_max).toBe("9999999")
    expect(saved.field_locks.locked).toEqual(["description"])
    expect(saved.brake).toEqual({ remove_percent: "25", price_drop_share_percent: stored.brake.price_drop_share_percent, price_drop_percent: "40" })
    const runs = (await adminGet("/admin/catalog-sync/runs?limit=50")).runs as { mode: string; trigger: string }[]
    expect(runs.length).toBe(runsBefore + 1)
    expect(runs[0]).toMatchObject({ mode: "reprice", trigger: "rules_changed" })
    await page.getByTestId("settings-dirty").getByText("Everything on this page is saved.").waitFor()
    await shot(page, "10b-settings-one-save-saved")
    // The toast gone, so the committed screenshot shows the footer with its one Save.
    await page.getByText("Settings saved · a reprice started").first().waitFor({ state: "hidden", timeout: 60_000 })
    // The whole page with its one Save at the end, for docs/screenshots when SCREENSHOTS_DIR is set.
    const onePage = screens.file("settings-one-save")
    await page.screenshot({ path: onePage, fullPage: true })
    if (process.env.SCREENSHOTS_DIR) {
      fs.mkdirSync(process.env.SCREENSHOTS_DIR, { recursive: true })
      fs.copyFileSync(onePage, path.join(process.env.SCREENSHOTS_DIR, "settings-one-save.png"))
    }
  })

  it("keeps the product list working when the catalog sync API is unreachable", async () => {
    await page.route("**/admin/catalog-sync/**", (route) => route.abort("connectionrefused"))
    await page.goto(`${app.url}/app/products`)
    await page.locator("table tbody tr").first().waitFor()
    const lineError = page.getByTestId("catalog-sync-list-widget").getByTestId("catalog-sync-error")
    await lineError.waitFor({ timeout: 60_000 })
    await expectText(lineError, "could not be reached")
    await shot(page, "08-widget-api-unreachable", "catalog-sync-list-widget")
    await page.unroute("**/admin/catalog-sync/**")
    await lineError.getByRole("button", { name: "Retry" }).click()
    await page.getByTestId("catalog-sync-list-activity").waitFor()

    // The sync page's panel says the same, and recovers the same way.
    await page.route("**/admin/catalog-sync/**", (route) => route.abort("connectionrefused"))
    await page.goto(`${app.url}/app/catalog-sync`)
    const error = page.getByTestId("catalog-sync-widget").getByTestId("catalog-sync-error")
    await error.waitFor({ timeout: 60_000 })
    await expectText(error, "could not be reached")
    await shot(page, "08b-panel-api-unreachable", "catalog-sync-widget")
    await page.unroute("**/admin/catalog-sync/**")
    await error.getByRole("button", { name: "Retry" }).click()
    await page.getByTestId("catalog-sync-last-run").waitFor()
    expect(consoleErrors.filter((text) => /Uncaught|React/.test(text))).toEqual([])
  })
})

/** Waits until the widget's last run was started by `trigger` (in `mode`) and ended, and checks it succeeded. */
async function waitForLastRun(page: Page, trigger: string, timeoutMs: number, mode?: "full" | "changes"): Promise<void> {
  const lastRun = page.getByTestId("catalog-sync-last-run")
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const status = await lastRun.getAttribute("data-status").catch(() => null)
    const runTrigger = await lastRun.getAttribute("data-trigger").catch(() => null)
    const runMode = await lastRun.getAttribute("data-mode").catch(() => null)
    const matches = runTrigger === trigger && (!mode || runMode === mode)
    if (matches && status && (await page.getByTestId("catalog-sync-progress").count()) === 0) {
      if (status !== "succeeded") {
        throw new Error(`the ${trigger} run ended ${status}: ${await lastRun.textContent()}`)
      }
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`no finished ${trigger} run within ${timeoutMs} ms: ${await lastRun.textContent().catch(() => "")}`)
}

async function insertFailedRun(databaseUrl: string): Promise<void> {
  const pg = new Client({ connectionString: databaseUrl })
  await pg.connect()
  try {
    const rejected = [
      { id: "9223372036854775807", reason: "price: expected a decimal string, got 12.5" },
      { id: null, reason: "id: missing" },
    ]
    await pg.query(
      `insert into mcs_sync_run (id, trigger, mode, status, started_at, finished_at, created_at, updated_at,
         pages, items_seen, created, skipped, requests_used, error_code, error_message, rejected_items)
       values ('csrun_browser_failed', 'schedule', 'changes', 'failed', now() - interval '1 day',
         now() - interval '1 day' + interval '95 seconds', now() - interval '1 day', now() - interval '1 day',
         3, 600, 598, 2, 4, 'daily_quota_exceeded', 'Daily quota exceeded; retry after 00:00 UTC', $1::jsonb)`,
      [JSON.stringify(rejected)]
    )
  } finally {
    await pg.end()
  }
}
