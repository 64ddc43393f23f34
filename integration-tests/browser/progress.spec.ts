// Real progress in the browser (issue 11): a 1,500-product catalog synced from the sandbox,
// watched on the plugin's own page (/app/catalog-sync) in headless Chromium.
//
// The catalog API tells no catalog size, so the very first sync has no total: the page must
// show products read and "not known yet", never a made-up percent. The full resync after it
// is measured against the first pass's count: its percent must strictly increase across at
// least 4 screenshots with an ETA shown, and the finished run's page reads 100 %.
// Pages are 200 products, and the backend updates a run's figures once a page, so a pass is
// 8 steps; each page's write waits 1.5 s (CATALOG_SYNC_TEST_PAGE_DELAY_MS) to make them visible
// (MCS_PROGRESS_PAGE_DELAY_MS sets another wait, e.g. 3000 on a slow screenshotter).
import type { Browser, Page } from "playwright-core"
import { createTestDatabase } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { startAdminApp, type AdminApp } from "./admin-app"
import { adminApiOf, expectText, logIn, openBrowser, prepareAdmin, Screenshots } from "./browser-session"

jest.setTimeout(900_000)

const API_KEY = "sandbox-progress-key-5190"
const PRODUCTS = 1500
const PAGE_DELAY_MS = Number(process.env.MCS_PROGRESS_PAGE_DELAY_MS) || 1500
const screens = new Screenshots()

type Sample = { percent: number | null; done: number; eta: string; counts: string; phase: string; elapsed: string; file: string }

describe("sync progress in the browser", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let sandbox: Sandbox
  let app: AdminApp
  let browser: Browser
  let page: Page

  const adminApi = adminApiOf(() => page)

  beforeAll(async () => {
    prepareAdmin()
    db = await createTestDatabase("browser-progress")
    sandbox = await startSandbox({ products: PRODUCTS, seed: 11, apiKey: API_KEY, rpm: 6000, concurrency: 3, port: 0, controlPort: 0 })
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser-progress",
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_progress_${process.pid}`, CATALOG_SYNC_TEST_PAGE_DELAY_MS: String(PAGE_DELAY_MS) },
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

  /** Samples the progress block until the run ends; a screenshot each time its figures move. */
  async function watchRun(prefix: string, timeoutMs: number): Promise<Sample[]> {
    const samples: Sample[] = []
    const block = page.locator('[data-testid="catalog-sync-progress"][data-status="running"]')
    await block.waitFor({ timeout: 120_000 })
    const started = Date.now()
    let lastKey = ""
    while (Date.now() - started < timeoutMs) {
      if ((await block.count()) === 0) break
      // Both figures from one read of the element: two reads can straddle a re-render.
      const [percentText, doneText] = await block
        .evaluate((el) => [el.getAttribute("data-percent"), el.getAttribute("data-done")])
        .catch(() => [null, null])
      if (percentText === null || doneText === null) {
        await new Promise((resolve) => setTimeout(resolve, 300))
        continue
      }
      const key = `${percentText}|${doneText}`
      if (key !== lastKey && Number(doneText) > 0) {
        lastKey = key
        const file = screens.file(`${prefix}-${String(samples.length + 1).padStart(2, "0")}`)
        // The viewport as the owner sees it: the status is at the top, no scrolling.
        await page.screenshot({ path: file })
        samples.push({
          percent: percentText === "" ? null : Number(percentText),
          done: Number(doneText),
          eta: (await page.getByTestId("catalog-sync-eta").first().textContent().catch(() => "")) ?? "",
          counts: (await page.getByTestId("catalog-sync-progress-counts").first().textContent().catch(() => "")) ?? "",
          phase: (await block.getByTestId("catalog-sync-phase").textContent().catch(() => "")) ?? "",
          elapsed: (await block.getByTestId("catalog-sync-elapsed").textContent().catch(() => "")) ?? "",
          file,
        })
      }
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    return samples
  }

  it("logs in and connects the sandbox; the first sync starts", async () => {
    await logIn(page, app.url)
    const saved = await adminApi("/admin/catalog-sync/settings", { base_url: sandbox.baseUrl, api_key: API_KEY })
    expect(saved.status).toBe(200)
    // A shop that never synced gets its first sync on the first save.
    expect(saved.body.run).toBeTruthy()
  })

  it("shows the first sync's products read without a made-up percent (the catalog's size is not known yet)", async () => {
    await page.goto(`${app.url}/app/catalog-sync`)
    await page.getByTestId("catalog-sync-page").waitFor()
    // The timer ticks between the backend's updates (it once froze at "109 ms" for 10 s).
    const running = page.locator('[data-testid="catalog-sync-progress"][data-status="running"]')
    await running.waitFor({ timeout: 120_000 })
    const tick0 = await running.getByTestId("catalog-sync-elapsed").textContent()
    await new Promise((resolve) => setTimeout(resolve, 2200))
    if ((await running.count()) > 0) expect(await running.getByTestId("catalog-sync-elapsed").textContent()).not.toBe(tick0)
    const samples = await watchRun("11-first-sync", 300_000)
    console.log(`first sync: ${samples.map((s) => `${s.done} read, ${s.elapsed}`).join("; ")}`)
    expect(samples.length).toBeGreaterThanOrEqual(2)
    for (const s of samples) {
      expect(s.percent).toBeNull()
      expect(s.counts).toContain("total not known yet")
      expect(s.counts).toMatch(/ · page \d+/)
      expect(s.phase).not.toBe("")
    }
    expect(samples.some((s) => s.phase === "Reading the whole catalog")).toBe(true)
    // Products read strictly increase; pages, the elapsed time and a rate come with them.
    for (let i = 1; i < samples.length; i++) expect(samples[i].done).toBeGreaterThan(samples[i - 1].done)
    const pageOf = (s: Sample) => Number(/ · page (\d+)/.exec(s.counts)![1])
    expect(pageOf(samples[samples.length - 1])).toBeGreaterThan(pageOf(samples[0]))
    expect(seconds(samples[samples.length - 1].elapsed)).toBeGreaterThan(seconds(samples[0].elapsed))
    expect(samples.some((s) => /\d\/min/.test(s.counts))).toBe(true)
    await waitForIdle(page)
    await expectText(page.getByTestId("catalog-sync-products"), "1,500")
  })

  it("measures the full resync against the first pass: percent strictly increasing over 4+ screenshots, ETA shown, 100 % at the end", async () => {
    await page.getByTestId("full-resync").click()
    await page.getByRole("alertdialog").getByRole("button", { name: "Start full resync" }).click()
    const samples = await watchRun("12-full-resync", 300_000)
    const measured = samples.filter((s) => s.percent !== null)
    console.log(`full resync progress: ${measured.map((s) => `${s.done}=${s.percent}%`).join(", ")}`)
    expect(measured.length).toBeGreaterThanOrEqual(4)
    for (let i = 1; i < measured.length; i++) expect(measured[i].percent!).toBeGreaterThan(measured[i - 1].percent!)
    for (const s of measured) {
      expect(s.percent!).toBeLessThanOrEqual(100)
      expect(s.counts).toMatch(/of 1,500 products \(\d+ %\)/)
    }
    // Once a rate exists (after the first page), the ETA is a duration, not a placeholder.
    expect(measured.some((s) => /Estimated time left: \d/.test(s.eta))).toBe(true)

    await waitForIdle(page)
    const lastRun = page.getByTestId("catalog-sync-last-run")
    expect(await lastRun.getAttribute("data-mode")).toBe("full")
    expect(await lastRun.getAttribute("data-status")).toBe("succeeded")
    const [{ id }] = ((await adminApi("/admin/catalog-sync/runs?limit=1")).body.runs as { id: string }[])
    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${id}`)
    const done = page.locator('[data-testid="catalog-sync-progress"][data-status="succeeded"]')
    await done.waitFor()
    expect(await done.getAttribute("data-percent")).toBe("100")
    await expectText(done, "1,500 of 1,500 products (100 %)")
    const file = screens.file("13-run-finished-100")
    await page.screenshot({ path: file, fullPage: true })
  })

  it("shows the history with the chart and filters on the plugin's page", async () => {
    await page.goto(`${app.url}/app/catalog-sync`)
    await page.getByTestId("catalog-sync-chart").waitFor()
    const bars = page.getByTestId("catalog-sync-chart-bar")
    // The chart's frame shows while the history loads; its bars come with the data.
    await bars.first().waitFor()
    expect(await bars.count()).toBeGreaterThanOrEqual(29)
    const today = bars.last()
    // The first sync created 1,500 products today (the full resync changed nothing).
    expect(Number(await today.getAttribute("data-changed"))).toBeGreaterThanOrEqual(PRODUCTS)
    const rows = page.getByTestId("catalog-sync-run-row")
    await rows.first().waitFor()
    // The first sync and the full resync (a scheduled poll may have come in between).
    expect(await rows.count()).toBeGreaterThanOrEqual(2)
    const file = screens.file("14-catalog-sync-page")
    await page.screenshot({ path: file, fullPage: true })
  })
})

/** Seconds in an elapsed time as the admin writes it: "850 ms", "12 s", "1 min 05 s". */
function seconds(text: string): number {
  const min = /(\d+) min/.exec(text)
  const sec = /(\d+) s\b/.exec(text)
  return (min ? Number(min[1]) * 60 : 0) + (sec ? Number(sec[1]) : 0)
}

async function waitForIdle(page: Page, timeoutMs = 120_000): Promise<void> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const state = await page.getByTestId("catalog-sync-state").getAttribute("data-state").catch(() => null)
    if (state === "idle" && (await page.getByTestId("catalog-sync-progress").count()) === 0) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error("the sync did not become idle")
}
