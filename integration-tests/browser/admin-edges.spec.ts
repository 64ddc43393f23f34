// The admin's numbers at the edges (issue 43), in headless Chromium on the demo app, with the
// catalog changed only through the sandbox's control API and each figure checked against SQL on
// Medusa's tables and the sandbox's own counters:
//   - a plan changed at the catalog (daily quota lowered): after one sync, requests today is the
//     sandbox's count against its new limit, on the route and the screen, with no Test connection;
//   - Sync now while the safety brake holds a run: refused with the reason, the API answers that
//     a run waits for the admin's answer, no next run time;
//   - a manual full resync after a discarded removal measures against the catalog's size as it is
//     (the sandbox's), from its first moment, never "not known" or the old size;
//   - the filter count: kept of the products the last full pass read, the shop's own number beside
//     it, unstored conditions in words;
//   - a confirmed removal's run says what it did, and a reprice after it counts and logs only the
//     live shop's products;
//   - a full resync after the catalog grew past its expected size: no "N of M" with N above M, no
//     percent once the pass has read more than the estimate.
// One app, 150 products; each page write is held a few seconds so a run's progress can be read.
import fs from "node:fs"
import path from "node:path"
import { parse } from "lossless-json"
import type { Browser, Page } from "playwright-core"
import { createTestDatabase } from "../harness"
import { readCatalog } from "../medusa/sync-helpers"
import { waitFor } from "../medusa/poll-and-query"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { formatCount } from "../../src/admin/lib/format"
import { startAdminApp, type AdminApp } from "./admin-app"
import { adminApiOf, expectText, logIn, openBrowser, prepareAdmin, Screenshots, sql } from "./browser-session"

jest.setTimeout(1_800_000)

const API_KEY = "sandbox-edges-key-4343"
const PRODUCTS = 150
const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: null, old_price_markup_percent: null } as const
const PAGE_DELAY_MS = 3000
const ENDED = ["succeeded", "failed", "interrupted", "paused"]
const screens = new Screenshots()
const VIEWPORT = { width: 1280, height: 1000 }

type Run = { id: string; status: string; mode: string; trigger: string; created: number; removed: number; swept: number; items_seen: number }

const sorted = (ids: Iterable<string>) => [...ids].sort()

describe("the admin's numbers at the edges, in the browser", () => {
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

  const servedIds = async () =>
    sorted(((await readCatalog(sandbox.baseUrl, API_KEY, PRICING as never)) as unknown as { id: string }[]).map((c) => String(c.id)))
  const sandboxUsedToday = () => sandbox.state.quota.usedToday(Date.now())

  async function liveCatalogIds(): Promise<string[]> {
    const rows = await sql(db.url, "select external_id from product where deleted_at is null and metadata->>'catalog_sync' = 'true'")
    return sorted(rows.map((r) => r.external_id as string))
  }

  const latestRuns = async (limit = 5) => (await adminApi(`/admin/catalog-sync/runs?limit=${limit}`)).body.runs as Run[]
  const getRun = async (id: string) => (await adminApi(`/admin/catalog-sync/runs/${id}`)).body.run

  async function waitForRunEnd(runId: string, timeoutMs = 600_000) {
    return waitFor(
      `run ${runId} to end`,
      async () => {
        const run = await getRun(runId)
        return ENDED.includes(run?.status) ? run : null
      },
      timeoutMs,
      500
    )
  }

  async function nextRunAfter(known: Set<string>, timeoutMs = 60_000): Promise<Run> {
    return waitFor("a new run", async () => (await latestRuns()).find((r) => !known.has(r.id)) ?? null, timeoutMs, 300)
  }

  async function syncNowFromThePage(): Promise<Run> {
    const known = new Set((await latestRuns(20)).map((r) => r.id))
    await page.goto(`${app.url}/app/catalog-sync`)
    const button = page.getByTestId("sync-now")
    await waitFor("Sync now to be enabled", async () => await button.isEnabled(), 120_000, 300)
    await button.click()
    return nextRunAfter(known)
  }

  async function answer(action: "confirm" | "discard", promptButton: string): Promise<Run> {
    const response = page.waitForResponse((res) => res.url().endsWith(`/${action}`) && res.request().method() === "POST")
    await page.getByTestId(`catalog-sync-brake-${action}`).click()
    await page.getByRole("alertdialog").getByRole("button", { name: promptButton, exact: true }).click()
    const res = await response
    expect(res.status()).toBe(200)
    return (await res.json()).continued_by
  }

  /** The shop's removals held by the brake: 30 % of the shop leaves the catalog, Sync now pauses with none removed (SQL). */
  async function pauseOnRemovals(): Promise<{ paused: Run & { brake: any }; victims: string[]; shop: string[] }> {
    const served = new Set(await servedIds())
    const shop = await liveCatalogIds()
    const victims = shop.filter((id) => served.has(id)).slice(0, Math.round(shop.length * 0.3))
    await control("/mutate", { remove_ids: victims })
    const paused = await waitForRunEnd((await syncNowFromThePage()).id)
    expect(paused).toMatchObject({ status: "paused", removed: 0, swept: 0 })
    expect(await liveCatalogIds()).toEqual(shop)
    await page.goto(`${app.url}/app/catalog-sync`)
    await page.getByTestId("catalog-sync-brake").waitFor()
    return { paused, victims, shop }
  }

  async function shot(name: string, testId?: string) {
    const file = screens.file(`edges-${name}`)
    if (testId) await page.getByTestId(testId).first().screenshot({ path: file })
    else await page.screenshot({ path: file })
    const dir = process.env.SCREENSHOTS_DIR
    if (dir) {
      fs.mkdirSync(dir, { recursive: true })
      fs.copyFileSync(file, path.join(dir, `${name}.png`))
    }
  }

  beforeAll(async () => {
    prepareAdmin()
    db = await createTestDatabase("browser-edges")
    // 600 a minute: a quota that falls by thousands within minutes is a changed plan, not spending.
    sandbox = await startSandbox({ products: PRODUCTS, seed: 43, apiKey: API_KEY, rpm: 600, concurrency: 3, port: 0, controlPort: 0 })
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser-edges",
      env: {
        CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_edges_${process.pid}`,
        // No scheduled poll: each run is started by the test or by the admin's answer.
        CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
        CATALOG_SYNC_TEST_PAGE_DELAY_MS: String(PAGE_DELAY_MS),
      },
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

  it("a plan changed at the catalog: after one sync, requests today is the sandbox's count against its new limit", async () => {
    // No screen that reads the status (which asks /v1/me itself) is open from the change to the
    // run's end: the run's own answers must tell it. The orders page has only the top bar's chip.
    await page.goto(`${app.url}/app/orders`)
    const limit = sandboxUsedToday() + 40
    await control("/limits", { daily_quota: limit })
    const started = await adminApi("/admin/catalog-sync/runs", { mode: "changes" })
    expect(started.status).toBe(202)
    expect(await waitForRunEnd(started.body.run.id)).toMatchObject({ status: "succeeded" })

    const today = await waitFor(
      "requests today against the new limit",
      async () => {
        const answer = (await adminApi("/admin/catalog-sync/progress")).body.requests_today
        return answer?.limit === limit ? answer : null
      },
      15_000,
      500
    )
    // The plan read again: current figures, and the catalog's own "not enforced" (the sandbox's default).
    expect(today).toEqual({ remaining: limit - sandboxUsedToday(), used: sandboxUsedToday(), limit, enforced: false, spent: false, stale: false })

    await page.goto(`${app.url}/app/catalog-sync`)
    const quota = page.locator(`[data-testid="catalog-sync-quota"][data-limit="${limit}"]`)
    await quota.waitFor()
    const used = await waitFor("the screen's count to be the sandbox's", async () => {
      const shown = Number(await quota.getAttribute("data-used"))
      return shown === sandboxUsedToday() ? shown : null
    })
    await expectText(quota, `${formatCount(used)} of ${formatCount(limit)}`)
    await shot("plan-changed-requests-today", "catalog-sync-account")

    // Past the quota of a catalog that does not enforce it: the run goes on (the sandbox counts its
    // requests past the limit), and the bell says so, never that syncing waits for the reset.
    const spentAt = sandboxUsedToday()
    await control("/limits", { daily_quota: spentAt, quota_enforced: false })
    const past = await adminApi("/admin/catalog-sync/runs", { mode: "changes" })
    expect(past.status).toBe(202)
    expect(await waitForRunEnd(past.body.run.id)).toMatchObject({ status: "succeeded" })
    expect(sandboxUsedToday()).toBeGreaterThan(spentAt)
    const [spent] = await waitFor(
      "the quota's bell entry",
      async () => {
        const rows = await sql(db.url, "select data from notification where trigger_type = 'catalog-sync.quota_spent' and channel = 'feed'")
        return rows.length ? rows : null
      },
      30_000,
      500
    )
    // "used up", not "passed": the quota was lowered to what was used, and the catalog's answers stop
    // at 0 left, so the run cannot tell a request counted past the limit from one that reached it
    // (the second review saw "passed" at exactly 22 of 22). "passed" needs two counted answers at 0.
    expect(spent.data.title).toBe("Catalog API quota used up")
    expect(spent.data.description).toMatch(
      /^Today's requests reached this key's daily quota\. The catalog does not enforce it for this account, so syncing goes on/
    )
    expect(spent.data.description).not.toMatch(/waits for the reset|once the catalog resets/)
    // Room for the rest of the spec (a raised plan is read again the same way).
    await control("/limits", { daily_quota: 1_000_000 })
  })

  let discardedVictims: string[] = []

  it("Sync now while a run is paused: refused with the reason, the API says a run waits for an answer, no next run time", async () => {
    const { paused, victims, shop } = await pauseOnRemovals()
    discardedVictims = victims
    await page.locator('[data-testid="catalog-sync-state"][data-state="paused"]').waitFor()
    expect(await page.getByTestId("sync-now").isDisabled()).toBe(true)
    expect(await page.getByTestId("full-resync").isDisabled()).toBe(true)
    await expectText(page.getByTestId("sync-now-refusal"), "A run is waiting for your answer")
    await expectText(page.getByTestId("catalog-sync-next-run"), "After your answer to the paused run")
    expect(await page.getByTestId("catalog-sync-next-run").textContent()).not.toMatch(/\bin \d+ min/)
    await shot("paused-sync-now-refused", "catalog-sync-widget")

    // What a click that raced the page's state would get: the paused run, waiting for the answer.
    const started = await adminApi("/admin/catalog-sync/runs", { mode: "changes" })
    expect(started).toMatchObject({ status: 202, body: { already_running: true, waiting_for_answer: true, run: { id: paused.id, status: "paused" } } })
    expect((await latestRuns(1))[0].id).toBe(paused.id)
    expect(await liveCatalogIds()).toEqual(shop)

    const continued = await waitForRunEnd((await answer("discard", "Discard")).id)
    expect(continued).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(await liveCatalogIds()).toEqual(shop)
  })

  it("a manual full resync after a discard measures against the catalog's size as the sandbox serves it, from its first moment", async () => {
    const catalogSize = (await servedIds()).length
    const shopSize = (await liveCatalogIds()).length
    expect(shopSize - catalogSize).toBe(discardedVictims.length)

    await page.goto(`${app.url}/app/catalog-sync`)
    // Each catalog answer 3 s late: the run lasts past the page's 2 s poll, so its block is seen
    // while it runs (on a loaded machine a quick resync ended before the page showed it).
    await control("/faults", { latency_ms: 3_000 })
    const started = await adminApi("/admin/catalog-sync/runs", { mode: "full" })
    expect(started.status).toBe(202)
    const runId = started.body.run.id as string
    // Every view of the run while it is queued or runs: the total is the catalog's size, never unknown, never the old pass's.
    const totals = new Set<number | null>()
    const counts = page.getByTestId("catalog-sync-progress-counts")
    let shownDuringRun: string | null = null
    await waitFor(
      "the full resync to end",
      async () => {
        const view = (await adminApi(`/admin/catalog-sync/progress?run_id=${runId}`)).body.progress
        if (view.look === "running" || view.look === "waiting") {
          totals.add(view.total)
          if (!shownDuringRun && (await counts.count())) shownDuringRun = await counts.first().textContent()
        }
        return view.look === "done" ? view : null
      },
      600_000,
      200
    )
    await control("/faults", { latency_ms: 0 })
    expect([...totals]).toEqual([catalogSize])
    expect(shownDuringRun).toMatch(new RegExp(` of ${formatCount(catalogSize)} products checked`))
    expect(shownDuringRun).not.toMatch(/not known/)
    const run = await getRun(runId)
    expect(run).toMatchObject({ status: "succeeded", items_seen: catalogSize, removed: 0, swept: 0 })

    // "In the shop from the catalog" is the shop's number (SQL), split into what the catalog still
    // sells (the sandbox's) and what the shop keeps though the catalog no longer has it.
    await page.goto(`${app.url}/app/catalog-sync`)
    await expectText(page.getByTestId("catalog-sync-products"), formatCount(shopSize))
    await expectText(
      page.getByTestId("catalog-sync-products-split"),
      `${formatCount(catalogSize)} the catalog still sells · ${formatCount(shopSize - catalogSize)} it no longer has, kept by the shop`
    )
  })

  it("the filter count: kept of the products the last full pass read, the shop's number beside it, in plain words", async () => {
    const [{ n: readByPass }] = await sql(
      db.url,
      `select count(distinct m.catalog_id)::int as n from mcs_product_map m
        where m.deleted_at is null and m.last_seen_pass = (
          select progress->>'pass_id' from mcs_sync_run where status = 'succeeded' and progress->>'pass_id' is not null order by created_at desc limit 1)`
    )
    expect(readByPass).toBe((await servedIds()).length)
    const shopSize = (await liveCatalogIds()).length
    expect(shopSize).toBeGreaterThan(readByPass)

    await page.goto(`${app.url}/app/settings/catalog-sync`)
    const section = page.getByTestId("catalog-filter-section")
    await section.waitFor()
    await section.locator("#filter-in_stock_only").click()
    await section.getByRole("button", { name: "Count", exact: true }).click()
    const count = page.getByTestId("catalog-filter-count")
    await expectText(count, `Keeps ${formatCount(readByPass)} of the ${formatCount(readByPass)} catalog products from the last full pass`)
    await expectText(count, `The shop holds ${formatCount(shopSize)} products from the catalog now.`)
    await expectText(count, "Not counted: whether a product is in stock")
    expect(await count.textContent()).not.toMatch(/in_stock_only|new_only/)
    await shot("filter-count", "catalog-filter-section")
  })

  it("a confirmed removal's run says what it did; a reprice after it counts and logs only the live shop's products", async () => {
    const { paused, victims, shop } = await pauseOnRemovals()
    const continued = await waitForRunEnd((await answer("confirm", "Confirm and apply")).id)
    expect(continued).toMatchObject({ status: "succeeded", removed: victims.length })
    expect(await liveCatalogIds()).toEqual(sorted(shop.filter((id) => !victims.includes(id))))
    const view = (await adminApi(`/admin/catalog-sync/progress?run_id=${continued.id}`)).body.progress
    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${continued.id}`)
    const counts = page.getByTestId("catalog-sync-progress-counts")
    await counts.waitFor()
    expect(await counts.textContent()).not.toMatch(/\b0 of 0\b/)
    if (view.read === 0) await expectText(counts, `${formatCount(victims.length)} products removed; no product to write`)
    expect(paused.id).not.toBe(continued.id)

    // A removed product lets go of its cost rows, so the reprice has no removed product's cost to price.
    const [{ n: victimCosts }] = await sql(db.url, "select count(*)::int as n from mcs_variant_cost where deleted_at is null and catalog_id = any($1)", [
      victims,
    ])
    expect(victimCosts).toBe(0)
    const [{ n: storedProducts }] = await sql(db.url, "select count(distinct catalog_id)::int as n from mcs_variant_cost where deleted_at is null")
    const [{ n: liveProducts }] = await sql(
      db.url,
      `select count(distinct vc.catalog_id)::int as n from mcs_variant_cost vc
         join product_variant pv on pv.id = vc.variant_id and pv.deleted_at is null
         join product p on p.id = pv.product_id and p.deleted_at is null
        where vc.deleted_at is null and vc.price_calculation = $1`,
      [PRICING.price_calculation]
    )
    expect(storedProducts).toBe(liveProducts)
    expect(liveProducts).toBe((await liveCatalogIds()).length)

    const known = new Set((await latestRuns(20)).map((r) => r.id))
    const saved = await adminApi("/admin/catalog-sync/settings", {
      pricing_rules: {
        base_markup_percent: "45",
        overrides: [],
        rounding: { mode: "none", ending: null, direction: "nearest" },
        minimum_margin: { amount: null, percent: null },
        crossed_out: { type: "none" },
      },
      confirm_price_guards: true,
    })
    expect(saved.status).toBe(200)
    const reprice = await waitForRunEnd((await nextRunAfter(known)).id)
    expect(reprice).toMatchObject({ status: "succeeded", mode: "reprice", items_seen: liveProducts })
    // Its change log names live products only (SQL on Medusa's product table).
    const [{ n: deletedLogged }] = await sql(
      db.url,
      `select count(*)::int as n from mcs_sync_run_change c
        where c.run_id = $1 and not exists (select 1 from product p where p.external_id = c.catalog_id and p.deleted_at is null)`,
      [reprice.id]
    )
    expect(deletedLogged).toBe(0)
    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${reprice.id}`)
    await expectText(page.getByTestId("catalog-sync-progress-counts"), `${formatCount(liveProducts)} of ${formatCount(liveProducts)} products priced (100 %)`)
    await page.getByTestId("change-log-row").first().waitFor()
    await shot("reprice-after-removal")
  })

  it("a full resync after the catalog grew past its expected size: never more checked than the total, no percent once read passes it", async () => {
    // The third review's case: 400 products added, a full resync showed "800 of 728 (99 %)", then "1,000 of 728".
    await control("/mutate", { count: 350, kinds: ["add"] })
    const catalogSize = (await servedIds()).length
    await control("/faults", { latency_ms: 3_000 })
    const started = await adminApi("/admin/catalog-sync/runs", { mode: "full" })
    expect(started.status).toBe(202)
    const runId = started.body.run.id as string
    await page.goto(`${app.url}/app/catalog-sync`)
    const counts = page.getByTestId("catalog-sync-progress-counts")
    const chip = page.getByTestId("catalog-sync-topbar")
    // What the route says, and what the page and the chip show (each polls on its own, a moment apart).
    const views: any[] = []
    const shown: { text: string | null; chip: string | null }[] = []
    await waitFor(
      "the full resync to end",
      async () => {
        const view = (await adminApi(`/admin/catalog-sync/progress?run_id=${runId}`)).body.progress
        if (view.look === "running") views.push(view)
        if (await counts.count()) shown.push({ text: await counts.first().textContent(), chip: (await chip.count()) ? await chip.first().textContent() : null })
        return view.look === "done" ? view : null
      },
      600_000,
      200
    )
    await control("/faults", { latency_ms: 0 })
    // The route: while the estimate holds, read is within it; once read passes it, no total and no percent.
    for (const v of views) {
      if (v.total !== null) expect(v.read).toBeLessThanOrEqual(v.total)
      else expect(v.percent).toBeNull()
    }
    expect(views.some((v) => v.outgrown_total !== null && v.outgrown_total < catalogSize)).toBe(true)
    // The screens: never "N of M products checked" with N above M; the growth said in words, with no
    // percent on the chip at that moment.
    for (const seen of shown) {
      const [, n, m] = seen.text?.match(/([\d,]+) of ([\d,]+) products checked/) ?? []
      if (n) expect(Number(n.replace(/,/g, ""))).toBeLessThanOrEqual(Number(m.replace(/,/g, "")))
    }
    const grown = shown.filter((seen) => /total not known yet: the catalog has grown past the [\d,]+ expected/.test(seen.text ?? ""))
    expect(grown.length).toBeGreaterThan(0)
    for (const seen of grown) if (seen.chip) expect(seen.chip).not.toMatch(/%/)
    expect(await getRun(runId)).toMatchObject({ status: "succeeded", items_seen: catalogSize })
  })
})
