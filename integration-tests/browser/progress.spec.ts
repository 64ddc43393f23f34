// Real progress in the browser (issues 11 and 35): a 1,500-product catalog synced from the
// sandbox, watched on the plugin's own page (/app/catalog-sync) and in the top bar's chip, in
// headless Chromium.
//
// The catalog API tells no catalog size, so the very first sync has no total: the page must
// show products read and "not known yet", never a made-up percent. The full resync after it
// is measured against the first pass's count: its percent must strictly increase across at
// least 4 screenshots with an ETA shown, and the finished run's page reads 100 %. During the
// resync the chip and the page are sampled together, again and again: the same percent, products
// read and checked each time (one progress view, GET /progress), checked never ahead of read,
// the ETA printed once and only once it has a basis; at the end both say 100 % and done (the chip's
// words: no changes, as the resync of an unchanged catalog changed nothing). With
// the key refused, nothing has the running look. Requests today equal the sandbox's own count.
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

/** One reading of the chip and the page's progress, taken in one go in the page (no re-render in between). */
type Pair = {
  chip: { look: string; percent: string; read: string; written: string; text: string; moving: string; pulsing: boolean; runId: string } | null
  block: { look: string; status: string; percent: string; read: string; written: string; counts: string; runId: string } | null
  ended: { look: string; percent: string; read: string; written: string; counts: string; runId: string } | null
  etas: string[]
}

async function readPair(page: Page): Promise<Pair> {
  return page.evaluate(() => {
    const q = (id: string) => document.querySelector(`[data-testid="${id}"]`)
    const a = (el: Element | null, name: string) => el?.getAttribute(name) ?? ""
    const chip = q("catalog-sync-topbar")
    const dot = q("catalog-sync-topbar-dot")
    const block = q("catalog-sync-progress")
    const ended = q("catalog-sync-progress-ended")
    return {
      chip: chip
        ? {
            look: a(chip, "data-look"),
            percent: a(chip, "data-percent"),
            read: a(chip, "data-read"),
            written: a(chip, "data-written"),
            text: chip.textContent ?? "",
            moving: a(dot, "data-moving"),
            pulsing: !!dot?.className.includes("animate-pulse"),
            runId: a(chip, "data-run-id"),
          }
        : null,
      block: block
        ? {
            look: a(block, "data-look"),
            status: a(block, "data-status"),
            percent: a(block, "data-percent"),
            read: a(block, "data-read"),
            written: a(block, "data-written"),
            counts: q("catalog-sync-progress-counts")?.textContent ?? "",
            runId: a(block, "data-run-id"),
          }
        : null,
      ended: ended
        ? {
            look: a(ended, "data-look"),
            percent: a(ended, "data-percent"),
            read: a(ended, "data-read"),
            written: a(ended, "data-written"),
            counts: q("catalog-sync-progress-ended-counts")?.textContent ?? "",
            runId: a(ended, "data-run-id"),
          }
        : null,
      etas: [...document.querySelectorAll('[data-testid="catalog-sync-widget"] *')]
        .map((el) => (el.children.length === 0 ? (el.textContent ?? "") : ""))
        .filter((t) => /\bleft\b/.test(t)),
    }
  })
}

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
  async function watchRun(prefix: string, timeoutMs: number, pairs?: Pair[]): Promise<Sample[]> {
    const samples: Sample[] = []
    const block = page.locator('[data-testid="catalog-sync-progress"][data-status="running"]')
    await block.waitFor({ timeout: 120_000 })
    const started = Date.now()
    let lastKey = ""
    while (Date.now() - started < timeoutMs) {
      if (pairs) pairs.push(await readPair(page))
      if ((await block.count()) === 0) break
      // Both figures from one read of the element: two reads can straddle a re-render.
      const [percentText, doneText] = await block.evaluate((el) => [el.getAttribute("data-percent"), el.getAttribute("data-done")]).catch(() => [null, null])
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
          eta:
            (await page
              .getByTestId("catalog-sync-eta")
              .first()
              .textContent()
              .catch(() => "")) ?? "",
          counts:
            (await page
              .getByTestId("catalog-sync-progress-counts")
              .first()
              .textContent()
              .catch(() => "")) ?? "",
          phase:
            (await block
              .getByTestId("catalog-sync-phase")
              .textContent()
              .catch(() => "")) ?? "",
          elapsed:
            (await block
              .getByTestId("catalog-sync-elapsed")
              .textContent()
              .catch(() => "")) ?? "",
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
    expect(samples.some((s) => /\d products\/min/.test(s.counts))).toBe(true)
    await waitForIdle(page)
    await expectText(page.getByTestId("catalog-sync-products"), "1,500")
  })

  it("measures the full resync against the first pass: percent strictly increasing over 4+ screenshots, ETA shown, 100 % at the end", async () => {
    await page.getByTestId("full-resync").click()
    await page.getByRole("alertdialog").getByRole("button", { name: "Start full resync" }).click()
    const pairs: Pair[] = []
    const samples = await watchRun("12-full-resync", 300_000, pairs)
    // The run's end, as the chip and the page show it right after it (the same view).
    const endStarted = Date.now()
    let end = await readPair(page)
    while (!(end.chip?.look === "done" && end.ended?.look === "done") && Date.now() - endStarted < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      end = await readPair(page)
    }
    await page.screenshot({ path: screens.file("12-full-resync-done") })

    // The chip and the page, read together while the run went: the same figures every time.
    const live = pairs.filter((p) => p.block && p.block.status === "running")
    console.log(
      `chip vs page while running (${live.length} readings): ${live.map((p) => `${p.chip?.percent}/${p.block!.percent}% ${p.chip?.written}/${p.block!.written} of ${p.block!.read} read`).join("; ")}`
    )
    expect(live.length).toBeGreaterThanOrEqual(8)
    for (const p of live) {
      expect(p.chip).not.toBeNull()
      expect({ run: p.chip!.runId, percent: p.chip!.percent, read: p.chip!.read, written: p.chip!.written }).toEqual({
        run: p.block!.runId,
        percent: p.block!.percent,
        read: p.block!.read,
        written: p.block!.written,
      })
      if (p.block!.percent !== "") expect(p.chip!.text).toContain(`${p.block!.percent} %`)
      // Written never ahead of read; the counts line says the same figures.
      expect(Number(p.block!.written)).toBeLessThanOrEqual(Number(p.block!.read))
      // A run that has not started yet shows no counts line (its headline says it waits, issue 43);
      // once it read a product, or whenever the line shows, it says the same figures.
      if (p.block!.counts !== "" || Number(p.block!.read) > 0) expect(p.block!.counts).toContain(`${Number(p.block!.read).toLocaleString("en-US")} read`)
      // The running look only while it runs; the ETA printed at most once, and only once a page is written.
      expect(p.chip!.moving).toBe("true")
      expect(p.etas.length).toBeLessThanOrEqual(1)
      // Before its first page is written the line says it waits to start (reads or writes its first page), never "page 0".
      expect(p.block!.counts).not.toMatch(/page 0\b/)
      if (/waiting to start|no page read yet|writing the first page/.test(p.block!.counts)) expect(p.etas.join("")).not.toMatch(/About \d/)
    }
    expect(live.some((p) => p.etas.length === 1 && /About \d/.test(p.etas[0]))).toBe(true)
    // At the end both say 100 % and done, and nothing moves.
    expect(end.chip).toMatchObject({ look: "done", percent: "100", moving: "false", pulsing: false })
    // The catalog did not change since the first sync, so the resync changed nothing: the chip says so
    // (the words of a succeeded run that wrote a change would be "100 % · succeeded").
    expect(end.chip!.text).toContain("Catalog sync · no changes")
    expect(end.ended).toMatchObject({ look: "done", percent: "100", runId: end.chip!.runId, read: end.chip!.read, written: end.chip!.written })
    expect(end.ended!.counts).toContain("1,500 of 1,500 products checked (100 %)")
    expect(end.etas).toEqual([])
    // Requests today right after the run: the catalog's own count for the key, not a figure read
    // before the run (the /v1/me cache) nor a counter of ours.
    await expectQuotaEqualsSandbox(8_000)
    const measured = samples.filter((s) => s.percent !== null)
    console.log(`full resync progress: ${measured.map((s) => `${s.done}=${s.percent}%`).join(", ")}`)
    expect(measured.length).toBeGreaterThanOrEqual(4)
    for (let i = 1; i < measured.length; i++) expect(measured[i].percent!).toBeGreaterThan(measured[i - 1].percent!)
    for (const s of measured) {
      expect(s.percent!).toBeLessThanOrEqual(100)
      expect(s.counts).toMatch(/of 1,500 products checked \(\d+ %\)/)
    }
    // Once this run's pace has a basis, the ETA is a duration, not a placeholder.
    expect(measured.some((s) => /About \d/.test(s.eta))).toBe(true)

    await waitForIdle(page)
    const lastRun = page.getByTestId("catalog-sync-last-run")
    expect(await lastRun.getAttribute("data-mode")).toBe("full")
    expect(await lastRun.getAttribute("data-status")).toBe("succeeded")
    const [{ id }] = (await adminApi("/admin/catalog-sync/runs?limit=1")).body.runs as { id: string }[]
    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${id}`)
    const done = page.locator('[data-testid="catalog-sync-progress"][data-status="succeeded"]')
    await done.waitFor()
    expect(await done.getAttribute("data-percent")).toBe("100")
    await expectText(done, "1,500 of 1,500 products checked (100 %)")
    const file = screens.file("13-run-finished-100")
    await page.screenshot({ path: file, fullPage: true })
  })

  /** The page's requests today (data-used) equals the sandbox's count of the key's requests within `withinMs`. */
  async function expectQuotaEqualsSandbox(withinMs: number): Promise<void> {
    const quota = page.getByTestId("catalog-sync-quota")
    const started = Date.now()
    let shown = ""
    let counted = -1
    do {
      shown = (await quota.getAttribute("data-used").catch(() => "")) ?? ""
      counted = sandbox.state.quota.usedToday(Date.now())
      if (shown === String(counted)) break
      await new Promise((resolve) => setTimeout(resolve, 250))
    } while (Date.now() - started < withinMs)
    console.log(`requests today: page ${shown}, sandbox ${counted}`)
    expect(shown).toBe(String(counted))
    await expectText(quota, `${counted.toLocaleString("en-US")} of 10,000`)
  }

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

  it("has no running look while the catalog refuses the key: the chip and the page stand still", async () => {
    sandbox.control.revokeKey()
    const started = await adminApi("/admin/catalog-sync/runs", { mode: "changes" })
    expect(started.status).toBe(202)
    await page.goto(`${app.url}/app/catalog-sync`)
    await expectText(page.getByTestId("catalog-sync-state"), "Key refused", 120_000)
    await page.getByTestId("catalog-sync-blocked").waitFor()
    const readings: Pair[] = []
    for (let i = 0; i < 12; i++) {
      readings.push(await readPair(page))
      await new Promise((resolve) => setTimeout(resolve, 700))
    }
    await page.screenshot({ path: screens.file("15-key-refused-still") })
    for (const r of readings) {
      expect(r.chip).toMatchObject({ look: "blocked", moving: "false", pulsing: false })
      expect(r.chip!.text).toContain("key refused")
      expect(r.chip!.text).not.toMatch(/%|read|written|checked/)
      expect(r.block).toBeNull()
      expect(r.etas).toEqual([])
    }
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
    const state = await page
      .getByTestId("catalog-sync-state")
      .getAttribute("data-state")
      .catch(() => null)
    if (state === "idle" && (await page.getByTestId("catalog-sync-progress").count()) === 0) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error("the sync did not become idle")
}
