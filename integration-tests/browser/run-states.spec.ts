// One name and one colour per run state on every screen, and the paused run's own page (issue 43,
// items 4, 7 and 9), in headless Chromium on the demo app, the catalog changed only through the
// sandbox's control API and every figure checked against SQL on Medusa's and the plugin's tables:
//   - a pause: the run page carries the preview (the count the sandbox no longer serves) and the
//     answer buttons, says nothing was written (SQL: no product gone) and shows no "Finished";
//   - Discard on the run page: the page says discarded; the history names the paused run
//     "Discarded by you" and keeps the run that carried the answer out on its own row ("After your
//     discard"), never folded into the quiet polls;
//   - a poll that changed nothing: the chip says "no changes" without a moving dot, its history row
//     "No changes" (a folded row's single time is the unit test's, src/admin/lib/__tests__/history.spec.ts).
//   - a changes run's chip says its state and what it did ("succeeded · 12 updated"), not "100 % · succeeded"; a quiet run's page
//     and the sync page say "no changes" once; an answered run's phase names the answer and the
//     run that carried it out; the kept list is its own section, the runs' filters sit on their table.
//   - kept products (item 2): the products whose removal was discarded are one list on the sync
//     page with counts equal to SQL against the sandbox (its first 5 rows, "Show all <N>" for the
//     rest), a line on the product's widget, kept
//     through a full pass; one click removes one through a run that counts and logs it.
//   - the product list's one line: the paused state with what waits, the kept products' warning.
//   - kept for open orders: a product bought through the store API, then dropped by the catalog, is
//     listed on the sync page and its run's page; the count is the server's past one page of rows;
//     once the order is fulfilled the next run removes it and the list goes.
// Screenshots go to artifacts/screenshots/run-states-*.png, and to $SCREENSHOTS_DIR when set.
import fs from "node:fs"
import path from "node:path"
import { parse } from "lossless-json"
import type { Browser, Page } from "playwright-core"
import { createTestDatabase } from "../harness"
import { readCatalog } from "../medusa/sync-helpers"
import { waitFor } from "../medusa/poll-and-query"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { formatCount } from "../../src/admin/lib/format"
import { runDisplayState } from "../../src/sync/run-display-state"
import { COLLAPSED_ROWS } from "../../src/admin/lib/show-all"
import { startAdminApp, type AdminApp } from "./admin-app"
import { checkout, enableShipping, storeApiOf } from "../harness/store-checkout"
import { adminApiOf, expectText, logIn, openBrowser, prepareAdmin, Screenshots, sql } from "./browser-session"

jest.setTimeout(1_800_000)

const API_KEY = "sandbox-run-states-key-7319"
const PRODUCTS = 100
const REMOVED = 30
const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: null } as const
const ENDED = ["succeeded", "failed", "interrupted", "paused"]
const VIEWPORT = { width: 1280, height: 1000 }
const screens = new Screenshots()

describe("every screen names a run's state the same way, in the browser", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let sandbox: Sandbox
  let app: AdminApp
  let browser: Browser
  let page: Page
  const adminApi = adminApiOf(() => page)

  async function control(route: string, body: unknown = {}): Promise<any> {
    const res = await fetch(`${sandbox.controlUrl}${route}`, { method: "POST", body: JSON.stringify(body) })
    const text = await res.text()
    expect({ route, status: res.status, text: res.status === 200 ? "" : text }).toEqual({ route, status: 200, text: "" })
    return parse(text, undefined, (digits) => digits)
  }

  const liveCatalogIds = async () =>
    (await sql(db.url, "select external_id from product where deleted_at is null and metadata->>'catalog_sync' = 'true'"))
      .map((r) => r.external_id as string)
      .sort()
  const servedIds = async () => new Set(((await readCatalog(sandbox.baseUrl, API_KEY, PRICING as never)) as unknown as { id: string }[]).map((c) => c.id))
  const runRow = async (id: string) => (await sql(db.url, "select * from mcs_sync_run where id = $1", [id]))[0]
  const getRun = async (id: string) => (await adminApi(`/admin/catalog-sync/runs/${id}`)).body.run

  const waitForRunEnd = (runId: string, timeoutMs = 600_000) =>
    waitFor(
      `run ${runId} to end`,
      async () => {
        const run = await getRun(runId)
        return ENDED.includes(run?.status) ? run : null
      },
      timeoutMs,
      500
    )

  async function startRun(mode: "changes" | "full" = "changes") {
    const res = await adminApi("/admin/catalog-sync/runs", { mode })
    expect(res.status).toBe(202)
    return waitForRunEnd(res.body.run.id)
  }

  async function shot(name: string, testId?: string) {
    const file = screens.file(`run-states-${name}`)
    if (testId) {
      // The dashboard scrolls inside its own container, which cuts an element taller than the
      // viewport: the viewport is made as tall as the element for the shot.
      const element = page.getByTestId(testId).first()
      const box = await element.boundingBox()
      if (box && box.y + box.height > VIEWPORT.height) await page.setViewportSize({ width: VIEWPORT.width, height: Math.ceil(box.y + box.height) + 24 })
      await element.screenshot({ path: file })
      await page.setViewportSize(VIEWPORT)
    } else await page.screenshot({ path: file, fullPage: true })
    const dir = process.env.SCREENSHOTS_DIR
    if (dir) {
      fs.mkdirSync(dir, { recursive: true })
      fs.copyFileSync(file, path.join(dir, `${name}.png`))
    }
  }

  /** The history row of a run: its state as the page marks it, its badge's words and its trigger cell. */
  async function historyRow(runId: string) {
    const row = page.locator(`[data-testid="catalog-sync-run-row"][data-run-id="${runId}"]`)
    await row.waitFor()
    return {
      state: await row.getAttribute("data-state"),
      badge: ((await row.getByTestId("catalog-sync-run-state").textContent()) ?? "").trim(),
      cells: await row.locator("td").allTextContents(),
    }
  }

  beforeAll(async () => {
    prepareAdmin()
    db = await createTestDatabase("browser-run-states")
    sandbox = await startSandbox({ products: PRODUCTS, seed: 43, apiKey: API_KEY, rpm: 6000, concurrency: 3, port: 0, controlPort: 0 })
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser-run-states",
      // No scheduled poll: each run here is started by the test or by the admin's answer.
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_run_states_${process.pid}`, CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000) },
    })
    ;({ browser, page } = await openBrowser(VIEWPORT))
    await logIn(page, app.url)
    const settings = await adminApi("/admin/catalog-sync/settings", { base_url: sandbox.baseUrl, api_key: API_KEY, ...PRICING })
    expect(settings.status).toBe(200)
    expect(await waitForRunEnd(settings.body.run.id)).toMatchObject({ status: "succeeded", created: PRODUCTS })
  })

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
    await sandbox?.close()
    await db?.drop()
    screens.print()
  })

  it("a pause and its Discard: the run page carries the preview and the answer, the history names both runs truly", async () => {
    const shop = await liveCatalogIds()
    const victims = shop.slice(0, REMOVED)
    await control("/mutate", { remove_ids: victims })
    const served = await servedIds()
    for (const id of victims) expect(served.has(id)).toBe(false)

    const paused = await startRun()
    expect(paused).toMatchObject({ status: "paused", created: 0, updated: 0, stock_only: 0, removed: 0, swept: 0 })
    expect(await liveCatalogIds()).toEqual(shop)

    // The chip names the state the run page names.
    await page.goto(`${app.url}/app/catalog-sync`)
    await waitFor("the chip to say paused", async () => (await page.getByTestId("catalog-sync-topbar").getAttribute("data-state")) === "paused", 60_000, 250)

    // The product list's line: the sync's state as the sync page names it, what waits (the count the
    // sandbox no longer serves) and the way to answer.
    const held = shop.filter((id) => !served.has(id)).length
    const panelState = page.getByTestId("catalog-sync-state")
    await page.locator('[data-testid="catalog-sync-state"][data-state="paused"]').waitFor({ timeout: 60_000 })
    const panelBadge = [((await panelState.textContent()) ?? "").trim(), await panelState.getAttribute("data-color")]
    await page.goto(`${app.url}/app/products`)
    const line = page.locator('[data-testid="catalog-sync-list-widget"][data-state="paused"]')
    await line.waitFor({ timeout: 60_000 })
    const lineState = line.getByTestId("catalog-sync-list-state")
    expect([((await lineState.textContent()) ?? "").trim(), await lineState.getAttribute("data-color")]).toEqual(panelBadge)
    expect(panelBadge).toEqual(["Paused: waiting for your answer", "orange"])
    const waits = line.locator('[data-testid="catalog-sync-list-warning"][data-kind="paused"]')
    await expectText(waits, `A sync waits for your answer: it would remove ${formatCount(held)} products.`)
    expect(await waits.getByTestId("catalog-sync-list-warning-link").getAttribute("href")).toMatch(new RegExp(`/settings/catalog-sync/runs/${paused.id}$`))
    await shot("product-list-line-paused", "catalog-sync-list-widget")

    // The paused run's own page: state, preview, buttons, nothing written, no finish time.
    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${paused.id}`)
    const state = page.getByTestId("catalog-sync-run-state")
    await waitFor("the paused state", async () => (await state.getAttribute("data-state")) === "paused", 60_000, 250)
    expect((await state.textContent())?.trim()).toBe("Paused: waiting for your answer")
    expect(await page.getByTestId("catalog-sync-brake").getAttribute("data-run-id")).toBe(paused.id)
    // The preview's count is what the sandbox no longer serves of the shop's products.
    const gone = shop.filter((id) => !served.has(id)).length
    expect(gone).toBe(REMOVED)
    await expectText(page.getByTestId("catalog-sync-brake-removals"), `Would remove ${formatCount(gone)} products`)
    await expectText(
      page.getByTestId("catalog-sync-run-pause-outcome"),
      `Nothing was written to the shop by this run. It held ${formatCount(gone)} removals for your answer.`
    )
    expect(await page.getByTestId("catalog-sync-run-finished").count()).toBe(0)
    expect(await page.getByTestId("catalog-sync-run-paused-at").count()).toBe(1)
    expect(await page.getByTestId("catalog-sync-brake-confirm").isEnabled()).toBe(true)
    await expectText(page.getByTestId("catalog-sync-run-phase"), "Paused by the safety brake: waiting for your answer")
    await shot("run-page-paused", "catalog-sync-run")

    // Discard on the run page.
    const response = page.waitForResponse((res) => res.url().endsWith("/discard") && res.request().method() === "POST")
    await page.getByTestId("catalog-sync-brake-discard").click()
    await page.getByRole("alertdialog").getByRole("button", { name: "Discard", exact: true }).click()
    const answered = await response
    expect(answered.status()).toBe(200)
    const continuedId = (await answered.json()).continued_by.id as string
    const continued = await waitForRunEnd(continuedId)
    expect(continued).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(await liveCatalogIds()).toEqual(shop)
    expect((await runRow(paused.id)).brake_resolution).toMatchObject({ action: "discarded", removals: REMOVED })
    // The continuing run's row keeps what it carried out, after it ran.
    expect((await runRow(continuedId)).progress).toMatchObject({ after_brake: paused.id, brake_answer: "discarded" })
    // The bell (Medusa's feed notifications): the pause's entry in words that stay true after the
    // answer, and the answer's outcome with the count SQL shows kept, both under the paused run.
    const feed = (kind: string) =>
      sql(db.url, "select data from notification where trigger_type = $1 and channel = 'feed' and resource_id = $2", [`catalog-sync.${kind}`, paused.id])
    const [outcome] = await waitFor("the answer's bell entry", async () => ((await feed("brake_answered")).length ? feed("brake_answered") : null), 60_000, 500)
    expect(outcome.data.title).toBe("Removals discarded")
    expect(outcome.data.description).toMatch(new RegExp(`^${formatCount(REMOVED)} products kept in the shop, as you discarded their removal\\.`))
    const pauses = await feed("brake_paused")
    expect(pauses).toHaveLength(1)
    expect(pauses[0].data.description).not.toMatch(/waits|waiting/)

    await waitFor("the run page to say discarded", async () => (await state.getAttribute("data-state")) === "discarded", 60_000, 250)
    expect((await state.textContent())?.trim()).toBe("Discarded by you")
    expect(await page.getByTestId("catalog-sync-brake").count()).toBe(0)
    await expectText(page.getByTestId("catalog-sync-run-pause-outcome"), "You discarded them: none of them is removed")
    // Its phase names the answer and the run that carried it out (as its SQL row records), never "Paused" any more.
    expect((await runRow(paused.id)).brake_resolution).toMatchObject({ continued_by: continuedId })
    await expectText(page.getByTestId("catalog-sync-run-phase"), "Removals discarded, continued by the next run")
    // The link goes to that run's page; its id only inside the Details disclosure.
    expect(await page.getByTestId("catalog-sync-run-continued-by").getAttribute("href")).toContain(`/settings/catalog-sync/runs/${continuedId}`)
    expect(await page.getByTestId("catalog-sync-run-phase").locator("details").textContent()).toContain(continuedId)
    expect(await page.getByTestId("catalog-sync-run").textContent()).not.toMatch(/Paused by|waiting for your answer/)
    await shot("run-page-discarded", "catalog-sync-run")

    // The history: the paused run is "Discarded by you"; the run after it has its own row, named as its SQL row reads.
    await page.goto(`${app.url}/app/catalog-sync`)
    const pausedRow = await historyRow(paused.id)
    expect(pausedRow).toMatchObject({ state: "discarded", badge: "Discarded by you" })
    const continuedRow = await historyRow(continuedId)
    const continuedState = runDisplayState(await runRow(continuedId))
    expect(continuedRow).toMatchObject({ state: continuedState.state, badge: continuedState.label })
    expect(continuedRow.cells[1]).toBe("After your discard")
    await shot("history-after-discard", "catalog-sync-runs")
  })

  it("kept products: the discarded removals are one list with counts, a line on each product's widget, kept through a full pass, and one click removes one", async () => {
    // What the shop keeps though the catalog no longer serves it (SQL on Medusa's product table against the sandbox).
    const notServed = async () => {
      const served = await servedIds()
      return (await liveCatalogIds()).filter((id) => !served.has(id))
    }
    const kept = await notServed()
    expect(kept.length).toBe(REMOVED)
    // Since when: the paused run that found them gone, before the admin's Discard (its resolved_at).
    const holds = await sql(db.url, "select catalog_id, created_at, resolved_at from mcs_held_removal where status = 'discarded' and deleted_at is null")
    const listedSince = new Map(
      ((await adminApi("/admin/catalog-sync/kept-products")).body.products as { catalog_id: string; since: string }[]).map((p) => [p.catalog_id, p.since])
    )
    for (const h of holds.filter((h) => kept.includes(h.catalog_id))) {
      expect(listedSince.get(h.catalog_id)).toBe(new Date(h.created_at).toISOString())
      expect(new Date(h.created_at).getTime()).toBeLessThan(new Date(h.resolved_at).getTime())
    }

    await page.goto(`${app.url}/app/catalog-sync`)
    const list = page.getByTestId("catalog-sync-kept-products")
    await list.waitFor()
    expect(await list.getAttribute("data-discarded")).toBe(String(kept.length))
    expect(await list.getAttribute("data-total")).toBe(String(kept.length))
    await expectText(
      page.getByTestId("catalog-sync-kept-products-counts"),
      `${formatCount(kept.length)} products the catalog no longer has: ${formatCount(kept.length)} by your discard`
    )
    // Collapsed: the first rows only, so the history stays in reach; the toggle names SQL's count.
    const rows = page.getByTestId("catalog-sync-kept-product")
    await waitFor("the collapsed kept list", async () => (await rows.count()) === COLLAPSED_ROWS, 30_000, 250)
    const showAll = page.getByTestId("catalog-sync-kept-products-show-all")
    await expectText(showAll, `Show all ${formatCount(kept.length)}`)
    await shot("kept-products", "catalog-sync-kept-products")
    await showAll.click()
    await waitFor("the expanded kept list", async () => (await rows.count()) === kept.length, 30_000, 250)
    const listed = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-catalog-id") ?? ""))
    expect(listed.sort()).toEqual(kept)
    await expectText(showAll, "Show fewer")
    // Its own section: not inside the runs' card, where it came between the filters and their table.
    expect(await page.getByTestId("catalog-sync-runs").getByTestId("catalog-sync-kept-products").count()).toBe(0)
    const afterFilters = await page.getByTestId("catalog-sync-runs").evaluate((runs) => {
      const header = [...runs.children].find((child) => child.querySelector('[data-testid="catalog-sync-history-filters"]'))
      const next = header?.nextElementSibling
      return next
        ? next.tagName === "TABLE"
          ? "table"
          : next.querySelector("table")
            ? "table inside"
            : (next.getAttribute("data-testid") ?? next.tagName)
        : null
    })
    expect(afterFilters).toBe("table")

    // The product list's line warns of them with the same counts, and points to this list.
    await page.goto(`${app.url}/app/products`)
    const keptWarning = page.locator('[data-testid="catalog-sync-list-warning"][data-kind="kept"]')
    await expectText(keptWarning, `The shop keeps ${formatCount(kept.length)} products the catalog no longer has: ${formatCount(kept.length)} by your discard.`)
    expect(await keptWarning.getByTestId("catalog-sync-list-warning-link").getAttribute("href")).toMatch(/\/catalog-sync$/)
    expect(await page.locator('[data-testid="catalog-sync-list-warning"][data-kind="paused"]').count()).toBe(0)
    await shot("product-list-line-kept", "catalog-sync-list-widget")

    // The product's own widget says since when and why.
    const [victim] = await sql(db.url, "select id, external_id, title from product where deleted_at is null and external_id = $1", [kept[0]])
    await page.goto(`${app.url}/app/products/${victim.id}`)
    const line = page.getByTestId("catalog-product-kept")
    await line.waitFor()
    expect(await line.getAttribute("data-reason")).toBe("discarded")
    await expectText(line, "The catalog no longer has this product since ")
    await expectText(line, "; kept because you discarded its removal.")
    await expectText(page.getByTestId("catalog-product-badge"), "Kept: not in the catalog")
    // Its last catalog change is the removal, not an older update; and it has its own Remove (issue 43, third review).
    await expectText(page.getByTestId("catalog-product-last-change"), "Removed from the catalog")
    const widgetRemove = page.getByTestId("catalog-product-remove")
    await waitFor("the widget's Remove to be enabled", async () => await widgetRemove.isEnabled(), 60_000, 300)
    await shot("product-widget-kept", "catalog-product-widget")

    // A full pass reads the catalog and keeps them, counted.
    const full = await startRun("full")
    expect(full).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(await notServed()).toEqual(kept)
    await page.goto(`${app.url}/app/catalog-sync`)
    await list.waitFor()
    expect(await list.getAttribute("data-discarded")).toBe(String(kept.length))

    // One click removes one, through the sync's removal: the run counts and logs it; SQL shows it gone.
    await page.getByTestId("catalog-sync-kept-products-show-all").click()
    const row = page.locator(`[data-testid="catalog-sync-kept-product"][data-catalog-id="${victim.external_id}"]`)
    const response = page.waitForResponse((res) => res.url().endsWith("/kept-products/remove") && res.request().method() === "POST")
    await row.getByTestId("catalog-sync-kept-product-remove").click()
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove", exact: true }).click()
    const removed = await response
    expect(removed.status()).toBe(202)
    const run = await waitForRunEnd((await removed.json()).run.id)
    expect(run).toMatchObject({ status: "succeeded", removed: 1 })
    expect((await sql(db.url, "select deleted_at from product where id = $1", [victim.id]))[0].deleted_at).not.toBeNull()
    const logged = await sql(db.url, "select kind, product_id from mcs_sync_run_change where run_id = $1 and deleted_at is null", [run.id])
    expect(logged).toEqual([{ kind: "removed", product_id: victim.id }])
    expect(await notServed()).toEqual(kept.slice(1))
    await waitFor("the list to drop the removed product", async () => (await list.getAttribute("data-discarded")) === String(kept.length - 1), 60_000, 500)
  })

  it("a poll that changed nothing: the chip says no changes without a moving dot; its row says No changes", async () => {
    const quiet = await startRun()
    const row = await runRow(quiet.id)
    expect(row).toMatchObject({ status: "succeeded", created: 0, updated: 0, stock_only: 0, removed: 0, swept: 0, skipped: 0 })
    await page.goto(`${app.url}/app/catalog-sync`)
    const chip = page.getByTestId("catalog-sync-topbar")
    await waitFor("the chip to show the quiet poll", async () => (await chip.getAttribute("data-run-id")) === quiet.id, 60_000, 250)
    expect(await chip.getAttribute("data-state")).toBe("no_changes")
    await expectText(chip, "Catalog sync · no changes")
    expect(await page.getByTestId("catalog-sync-topbar-dot").getAttribute("data-moving")).toBe("false")
    // A manual poll keeps its row: "No changes", grey.
    expect(await historyRow(quiet.id)).toMatchObject({ state: "no_changes", badge: "No changes" })
    await shot("chip-no-changes", "catalog-sync-widget")
    // Said once: the sync page's ended block and the run page's progress block each name "no changes" one time.
    const noChanges = (text: string | null) => (text ?? "").match(/no (product )?changes/gi)?.length ?? 0
    expect(noChanges(await page.getByTestId("catalog-sync-progress-ended").textContent())).toBe(1)
    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${quiet.id}`)
    const block = page.getByTestId("catalog-sync-progress")
    await waitFor("the run page's progress block", async () => (await block.getAttribute("data-run-id")) === quiet.id, 60_000, 250)
    expect(noChanges(await block.textContent())).toBe(1)
  })

  it("a changes run that changed products: the chip says what it did, never a percent of a total a changes run does not have", async () => {
    const res = await fetch(`${sandbox.controlUrl}/mutate`, { method: "POST", body: JSON.stringify({ count: 12, kinds: ["price"] }) })
    expect(res.status).toBe(200)
    const run = await startRun()
    const row = await runRow(run.id)
    expect(row).toMatchObject({ status: "succeeded", mode: "changes", created: 0, removed: 0, swept: 0, skipped: 0 })
    expect(row.updated + row.stock_only).toBeGreaterThan(0)
    const did = [
      [row.updated, "updated"],
      [row.stock_only, "stock only"],
    ]
      .filter(([count]) => Number(count) > 0)
      .map(([count, word]) => `${formatCount(Number(count))} ${word}`)
      .join(" · ")
    await page.goto(`${app.url}/app/catalog-sync`)
    const chip = page.getByTestId("catalog-sync-topbar")
    await waitFor("the chip to show the changes run", async () => (await chip.getAttribute("data-run-id")) === run.id, 60_000, 250)
    expect(((await chip.textContent()) ?? "").trim()).toBe(`Catalog sync · succeeded · ${did}`)
    expect(await page.getByTestId("catalog-sync-progress-ended-counts").textContent()).not.toMatch(/%/)
    await shot("chip-changes-run", "catalog-sync-widget")

    // The chart: the total of every run's changes (SQL) in the card's header, nothing but the first and last day on its axis, below the bars.
    const [{ changed }] = await sql(
      db.url,
      "select sum(coalesce(created, 0) + coalesce(updated, 0) + coalesce(stock_only, 0) + coalesce(removed, 0) + coalesce(swept, 0))::int as changed from mcs_sync_run"
    )
    await expectText(page.getByTestId("catalog-sync-chart-summary"), `${formatCount(changed)} products changed in the last 30 days`)
    const axis = page.getByTestId("catalog-sync-chart-axis")
    expect(await axis.textContent()).not.toMatch(/\d+ products/)
    const bars = (await page.getByTestId("catalog-sync-chart-bars").boundingBox())!
    expect((await axis.boundingBox())!.y).toBeGreaterThanOrEqual(bars.y + bars.height)
    await shot("chart", "catalog-sync-chart")
  })

  it("kept for open orders: the product an order bought is listed when the catalog drops it, counted by the server past one page, and gone once the order is fulfilled", async () => {
    const { locationId, regionId } = await enableShipping(adminApi, db.url)
    const store = await storeApiOf(app.url, db.url)
    // A published size the catalog still serves, stocked at the sync's location.
    const served = await servedIds()
    const candidates = await sql(
      db.url,
      `select p.id as product_id, p.external_id, p.title, v.id as variant_id
         from product p join product_variant v on v.product_id = p.id and v.deleted_at is null
         join product_variant_inventory_item pvi on pvi.variant_id = v.id and pvi.deleted_at is null
         join inventory_level l on l.inventory_item_id = pvi.inventory_item_id and l.deleted_at is null and l.location_id = $1
        where p.deleted_at is null and p.status = 'published' and l.stocked_quantity >= 1
        order by p.external_id, v.variant_rank`,
      [locationId]
    )
    const bought = candidates.find((c) => served.has(c.external_id))!
    expect(bought).toBeDefined()
    const { orderId, lineItemIds } = await checkout(store, db.url, regionId, [bought.variant_id])

    // The catalog drops the product: the run keeps it for the order (SQL: a pending removal, the product a draft).
    await control("/mutate", { remove_ids: [bought.external_id] })
    const keeping = await startRun()
    // Kept, not removed: the run that keeps it counts no removal (the run that finishes it does, below).
    expect([keeping.status, keeping.removed]).toEqual(["succeeded", 0])
    const pendingNow = () => sql(db.url, "select kind, product_id, run_id from mcs_pending_removal where deleted_at is null order by created_at")
    expect(await pendingNow()).toEqual([{ kind: "product", product_id: bought.product_id, run_id: keeping.id }])
    expect((await sql(db.url, "select status from product where id = $1", [bought.product_id]))[0].status).toBe("draft")

    await page.goto(`${app.url}/app/catalog-sync`)
    const section = page.getByTestId("catalog-sync-kept-for-orders")
    await section.waitFor({ timeout: 60_000 })
    expect(await section.getAttribute("data-count")).toBe("1")
    const row = section.getByTestId("catalog-sync-kept-for-order")
    expect(await row.count()).toBe(1)
    expect(await row.getAttribute("data-product-id")).toBe(bought.product_id)
    expect(await row.getAttribute("data-kind")).toBe("product")
    // The heading says why and until when, once; the row names the product and what of it is kept.
    expect(((await row.textContent()) ?? "").trim()).toBe(`${bought.title} (the whole product)`)
    await expectText(section, "each goes once its order is fulfilled or cancelled")
    // The kept products' list counts it among those kept for open orders.
    expect(await page.getByTestId("catalog-sync-kept-products").getAttribute("data-open-order")).toBe("1")
    // The run that kept it says so on its page.
    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${keeping.id}`)
    const byRun = page.getByTestId("catalog-sync-kept-for-orders")
    await byRun.waitFor({ timeout: 60_000 })
    await expectText(byRun, "Kept for open orders by this run")
    expect(await byRun.getByTestId("catalog-sync-kept-for-order").getAttribute("data-product-id")).toBe(bought.product_id)
    await shot("run-page-succeeded", "catalog-sync-run")

    // Past one page (the endpoint used to stop at 200 rows): 205 more kept sizes, written as the
    // bulk writer writes them (a fixture: that many open orders would take minutes to place).
    const extra = Array.from({ length: 205 }, (_, i) => `variant_fixture_${String(i).padStart(3, "0")}`)
    await sql(
      db.url,
      `insert into mcs_pending_removal (id, kind, subject_id, product_id, catalog_id, run_id, reason, created_at, updated_at)
       select 'cspendrm_fixture_' || s, 'size', s, $1, $2, null, 'kept for an open order', now() - interval '1 hour', now() - interval '1 hour'
         from unnest($3::text[]) as s`,
      [bought.product_id, bought.external_id, extra]
    )
    const [{ total }] = await sql(db.url, "select count(*)::int as total from mcs_pending_removal where deleted_at is null")
    expect(total).toBe(206)
    await page.goto(`${app.url}/app/catalog-sync`)
    await waitFor("the server's count", async () => (await section.getAttribute("data-count")) === String(total), 60_000, 250)
    // Counted by kind, from SQL (issue 43, third review: "206 sizes and products" for 1 product and 205 sizes).
    const [byKind] = await sql(
      db.url,
      "select count(*) filter (where kind = 'product')::int as products, count(*) filter (where kind = 'size')::int as sizes from mcs_pending_removal where deleted_at is null"
    )
    expect(byKind).toEqual({ products: 1, sizes: 205 })
    await expectText(page.getByTestId("catalog-sync-kept-for-orders-count"), `1 product and ${formatCount(byKind.sizes)} sizes`)
    expect(await row.count()).toBe(COLLAPSED_ROWS)
    const showAll = page.getByTestId("catalog-sync-kept-for-orders-show-all")
    await expectText(showAll, `Show all ${formatCount(total)}`)
    await shot("kept-for-orders", "catalog-sync-kept-for-orders")
    // Expanded, a page at a time, to the last row.
    await showAll.click()
    await waitFor("the first page", async () => (await row.count()) === 50, 30_000, 250)
    expect(await section.getAttribute("data-offset")).toBe("0")
    await expectText(page.getByTestId("catalog-sync-kept-for-orders-page"), `1–50 of ${formatCount(total)}`)
    const kinds = async () => row.evaluateAll((els) => els.map((el) => el.getAttribute("data-kind") ?? ""))
    const listed = await kinds()
    for (let pageNo = 2; pageNo <= 5; pageNo++) {
      await page.getByTestId("catalog-sync-kept-for-orders-next").click()
      const from = (pageNo - 1) * 50 + 1
      // The rows of this page arrived (the last page stays on screen while the next loads).
      await waitFor(`page ${pageNo}`, async () => (await section.getAttribute("data-offset")) === String(from - 1), 30_000, 250)
      await expectText(
        page.getByTestId("catalog-sync-kept-for-orders-page"),
        `${formatCount(from)}–${formatCount(Math.min(from + 49, total))} of ${formatCount(total)}`
      )
      expect(await row.count()).toBe(Math.min(50, total - from + 1))
      listed.push(...(await kinds()))
    }
    expect(await page.getByTestId("catalog-sync-kept-for-orders-next").isDisabled()).toBe(true)
    // Every row, once: the bought product (newest) and the 205 sizes.
    expect(listed).toHaveLength(total)
    expect(listed.filter((k) => k === "product")).toHaveLength(1)
    expect(listed[0]).toBe("product")
    await sql(db.url, "delete from mcs_pending_removal where id like 'cspendrm_fixture_%'")

    // The order is fulfilled (Medusa's admin route): the next run finishes the removal, and the list is gone.
    const fulfilled = await adminApi(`/admin/orders/${orderId}/fulfillments`, { items: [{ id: lineItemIds[0], quantity: 1 }], location_id: locationId })
    expect(fulfilled.status).toBe(200)
    const finishing = await startRun()
    expect(finishing).toMatchObject({ status: "succeeded", removed: 1 })
    expect(await pendingNow()).toEqual([])
    await page.goto(`${app.url}/app/catalog-sync`)
    await page.getByTestId("catalog-sync-runs").waitFor()
    await waitFor("the kept-for-orders list to go", async () => (await section.count()) === 0, 60_000, 250)
  })
})
