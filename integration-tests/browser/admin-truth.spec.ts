// Every number the admin shows is true (issue 35), in headless Chromium on the demo app, with the
// catalog changed only through the sandbox's control API (HTTP) and the shop read with SQL:
//   - a locked price: the run's change log and the product widget say "held by your lock" with the
//     price the shop's rules make of the catalog's new cost (the rules here are the catalog's own
//     markup, so it is the price the catalog serves with that markup), the shop's price (SQL) is
//     unchanged, "The pricing rules would set now" gives that price per size;
//   - a reprice run's change log lists exactly the products whose Medusa prices moved (SQL before
//     and after), with those prices, never "no product changes";
//   - a refused key replaced on the settings page starts a run at once (no scheduled poll here);
//   - the removal brake: 30 % of the shop taken off sale across three pages of the changes feed
//     pauses the run with a preview naming the products (title, catalog id, link) while SQL shows
//     none removed; Discard removes none through the continuing run, the next run and a full pass;
//     Confirm removes exactly the previewed products.
// Screenshots go to artifacts/screenshots/truth-*.png, and also to $SCREENSHOTS_DIR when set
// (docs/screenshots holds the committed ones).
import fs from "node:fs"
import path from "node:path"
import Decimal from "decimal.js"
import { parse } from "lossless-json"
import type { Browser, Page } from "playwright-core"
import { createTestDatabase } from "../harness"
import { servedSellingPrice } from "../harness/served-prices"
import { expectedOf, readShopTruth, type ShopTruth, type TruthCard } from "../harness/shop-truth"
import { readCatalog } from "../medusa/sync-helpers"
import { waitFor } from "../medusa/poll-and-query"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { formatCount, formatUah } from "../../src/admin/lib/format"
import { startAdminApp, type AdminApp } from "./admin-app"
import { adminApiOf, expectText, logIn, openBrowser, prepareAdmin, Screenshots, sql } from "./browser-session"

jest.setTimeout(1_800_000)

const API_KEY = "sandbox-truth-key-5521"
const PRODUCTS = 150
/** Items a changes page holds (the plugin asks for 200; the sandbox serves no more). */
const CHANGES_PAGE_SIZE = 200
// A crossed-out price on every priced size, so the selling and crossed-out prices differ.
const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: null, old_price_markup_percent: "60" } as const
const ENDED = ["succeeded", "failed", "interrupted", "paused"]
const screens = new Screenshots()
const VIEWPORT = { width: 1280, height: 1000 }
/** Tall enough for the product widget with its field locks. */
const SHOT_HEIGHT = 1400

type Run = {
  id: string
  status: string
  mode: string
  trigger: string
  created: number
  removed: number
  swept: number
  updated: number
  error_code?: string | null
}

const sorted = (ids: Iterable<string>) => [...ids].sort()
const plain = (text: string | undefined) => (text === undefined ? null : new Decimal(text.replace(/^uah:/, "")).toFixed(2))
const pricesOf = (truth: ShopTruth, catalogId: string) => JSON.stringify(truth.products.get(catalogId)?.variants.map((v) => [v.base, v.sale]) ?? null)

/** A product's selling price as Medusa holds it: the lowest over its sizes of the sale price, else the base. */
function shopSelling(truth: ShopTruth, catalogId: string): string | null {
  let low: Decimal | null = null
  for (const v of truth.products.get(catalogId)?.variants ?? []) {
    const text = plain(v.sale[0] ?? v.base[0])
    if (text === null) continue
    if (low === null || new Decimal(text).lessThan(low)) low = new Decimal(text)
  }
  return low === null ? null : low.toFixed(2)
}

describe("every number the admin shows is true, in the browser", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let sandbox: Sandbox
  let app: AdminApp
  let browser: Browser
  let page: Page
  let apiKey = API_KEY

  const adminApi = adminApiOf(() => page)

  /** The control API over HTTP, as a demo or an operator drives it; its ids are 64-bit (read losslessly, kept as text). */
  async function control(route: string, body: unknown = {}): Promise<any> {
    const res = await fetch(`${sandbox.controlUrl}${route}`, { method: "POST", body: JSON.stringify(body) })
    const text = await res.text()
    expect({ route, status: res.status, text: res.status === 200 ? "" : text }).toEqual({ route, status: 200, text: "" })
    return parse(text, undefined, (digits) => digits)
  }

  const servedCards = async () => new Map(((await readCatalog(sandbox.baseUrl, apiKey, PRICING as never)) as unknown as TruthCard[]).map((c) => [c.id, c]))

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

  /** The first run created after `known`, waited for up to `timeoutMs`. */
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

  /**
   * One element (or the viewport), in a viewport tall enough for it: the dashboard scrolls inside
   * its own column, so an element longer than the viewport would come out blank below the fold.
   * A long change log is cut at the viewport's foot.
   */
  async function shot(name: string, testId?: string) {
    const file = screens.file(`truth-${name}`)
    if (testId) {
      await page.setViewportSize({ width: VIEWPORT.width, height: SHOT_HEIGHT })
      const element = page.getByTestId(testId).first()
      await element.scrollIntoViewIfNeeded()
      const box = (await element.boundingBox())!
      const top = Math.max(0, box.y)
      await page.screenshot({ path: file, clip: { x: box.x, y: top, width: box.width, height: Math.min(box.y + box.height, SHOT_HEIGHT) - top } })
      await page.setViewportSize(VIEWPORT)
    } else await page.screenshot({ path: file })
    const dir = process.env.SCREENSHOTS_DIR
    if (dir) {
      fs.mkdirSync(dir, { recursive: true })
      fs.copyFileSync(file, path.join(dir, `${name}.png`))
    }
  }

  beforeAll(async () => {
    prepareAdmin()
    db = await createTestDatabase("browser-truth")
    sandbox = await startSandbox({ products: PRODUCTS, seed: 53, apiKey: API_KEY, rpm: 6000, concurrency: 3, port: 0, controlPort: 0 })
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser-truth",
      // No scheduled poll: each run here is started by the test or by the admin's answer.
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_truth_${process.pid}`, CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000) },
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

  it("a locked price: the change log and the widget say held by your lock with the rules' price of the new cost; the shop's price is unchanged", async () => {
    const cards = await servedCards()
    const card = [...cards.values()].find((c) => expectedOf(c).variants.filter((v) => v.sale.length).length >= 2)!
    expect(card).toBeDefined()
    const [{ product_id }] = await sql(db.url, "select product_id from mcs_product_map where catalog_id = $1 and deleted_at is null", [card.id])

    // The lock, set on the product page's widget as the owner would.
    await page.goto(`${app.url}/app/products/${product_id}`)
    const lock = page.locator('[data-testid="catalog-product-lock"][data-field="prices"]')
    await lock.waitFor()
    await lock.getByRole("switch").click()
    await page.locator('[data-testid="catalog-product-lock"][data-field="prices"][data-locked="true"]').waitFor()
    const before = await readShopTruth(db.url)

    // The catalog's cost of this product goes up by half: its served prices move.
    await control("/mutate", { scale_ids: [card.id], scale_percent: 150 })
    const moved = (await servedCards()).get(card.id)!
    const catalogSelling = servedSellingPrice(moved)!
    expect(catalogSelling).not.toBe(servedSellingPrice(card))
    const run = await waitForRunEnd((await syncNowFromThePage()).id)
    expect(run).toMatchObject({ status: "succeeded" })

    // Medusa still sells at the shop's prices (SQL).
    expect(pricesOf(await readShopTruth(db.url), card.id)).toBe(pricesOf(before, card.id))

    // The run's change log: the product's row says held, with the catalog's selling price, and no price change.
    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${run.id}`)
    const log = page.getByTestId("catalog-sync-change-log")
    await log.getByTestId("change-log-search").fill(card.id)
    const row = page.locator(`[data-testid="change-log-row"][data-catalog-id="${card.id}"]`)
    await row.waitFor()
    expect(await page.getByTestId("change-log-row").count()).toBe(1)
    expect({ before: await row.getAttribute("data-price-before"), after: await row.getAttribute("data-price-after") }).toEqual({ before: "", after: "" })
    await expectText(row.getByTestId("change-log-held"), `price held by your lock (the pricing rules would set ${formatUah(catalogSelling)})`)
    expect(await row.getByTestId("change-log-price").count()).toBe(0)
    await shot("lock-held-change-log", "catalog-sync-change-log")

    // The product's widget: the last catalog change is the held price, not a change; the sizes sell at the shop's price.
    await page.goto(`${app.url}/app/products/${product_id}`)
    const widget = page.getByTestId("catalog-product-widget")
    await widget.getByTestId("catalog-product-size").first().waitFor()
    const lastChange = widget.getByTestId("catalog-product-last-change")
    // Named per size the lock held (every size here: the whole cost moved), never the product's lowest over all sizes.
    const heldSizes = expectedOf(moved).variants.map((v) => ({ size: v.size, selling: plain(v.sale[0] ?? v.base[0]) }))
    if (heldSizes.length >= 3)
      await expectText(
        lastChange,
        `price held by your lock for ${heldSizes.length} sizes (the pricing rules' prices for them are below, under Field locks)`,
        30_000,
        {
          collapseWhitespace: true,
        }
      )
    else
      for (const h of heldSizes)
        await expectText(lastChange, `${h.selling === null ? "no price" : formatUah(h.selling)} for size ${h.size}`, 30_000, { collapseWhitespace: true })
    expect((await lastChange.textContent()) ?? "").not.toContain("→")
    const shown = await widget.getByTestId("catalog-product-size").evaluateAll((els) => els.map((el) => el.getAttribute("data-selling") ?? ""))
    const shopSellingPerSize = before.products.get(card.id)!.variants.map((v) => plain(v.sale[0] ?? v.base[0]) ?? "")
    expect(sorted(shown.map((selling) => (selling ? plain(selling)! : "")))).toEqual(sorted(shopSellingPerSize))
    // The rules' price of the catalog's new cost per size (not the crossed-out price), never called the catalog's.
    const catalogNow = lock.getByTestId("catalog-product-lock-catalog-value")
    await expectText(catalogNow, "The pricing rules would set now:")
    expect(await catalogNow.textContent()).not.toMatch(/Catalog now/)
    const nowText = ((await catalogNow.textContent()) ?? "").replace(/\s+/g, " ")
    for (const v of expectedOf(moved).variants) {
      const selling = plain(v.sale[0] ?? v.base[0])
      expect(nowText).toContain(`${v.size || "one size"}: ${selling === null ? "no price" : formatUah(selling)}`)
      if (v.sale[0]) expect(nowText).not.toContain(formatUah(plain(v.base[0])!))
    }
    await lock.scrollIntoViewIfNeeded()
    await shot("lock-held-widget", "catalog-product-widget")
  })

  it("a reprice run's change log lists the products whose Medusa prices it changed, with the prices before and after", async () => {
    const before = await readShopTruth(db.url)
    const known = new Set((await latestRuns(20)).map((r) => r.id))
    // The shop's own pricing rules over the stored costs: saving them reprices without a catalog read.
    const saved = await adminApi("/admin/catalog-sync/settings", {
      pricing_rules: {
        base_markup_percent: "45",
        overrides: [],
        rounding: { mode: "ending", ending: "99", direction: "up" },
        minimum_margin: { amount: null, percent: null },
        crossed_out: { type: "discount", discount_percent: "15" },
      },
      // Every price moves: the price guard asks first, and this is the answer.
      confirm_price_guards: true,
    })
    expect(saved.status).toBe(200)
    const reprice = await waitForRunEnd((await nextRunAfter(known)).id)
    expect(reprice).toMatchObject({ status: "succeeded", mode: "reprice" })
    const after = await readShopTruth(db.url)
    const changed = sorted([...before.products.keys()].filter((id) => pricesOf(before, id) !== pricesOf(after, id)))
    expect(changed.length).toBeGreaterThan(PRODUCTS / 2)

    await page.goto(`${app.url}/app/settings/catalog-sync/runs/${reprice.id}`)
    // A reprice reads no catalog page: its page says what it priced, and no catalog reads.
    const reads = page.getByTestId("catalog-sync-run-reads")
    await expectText(reads, "asks the catalog nothing")
    expect(await reads.getAttribute("data-mode")).toBe("reprice")
    expect(((await reads.textContent()) ?? "").includes("Catalog reads")).toBe(false)
    const log = page.getByTestId("catalog-sync-change-log")
    await log.getByTestId("change-log-row").first().waitFor()
    expect(await page.getByTestId("change-log-empty").count()).toBe(0)
    // The log's count is the products Medusa's prices moved for; each row shown is one of them, with its prices.
    await expectText(page.getByTestId("change-log-omitted"), `${formatCount(changed.length)} changes`)
    const rows = await page.getByTestId("change-log-row").evaluateAll((els) =>
      els.map((el) => ({
        kind: el.getAttribute("data-kind"),
        id: el.getAttribute("data-catalog-id") ?? "",
        before: el.getAttribute("data-price-before"),
        after: el.getAttribute("data-price-after"),
      }))
    )
    expect(rows.length).toBe(Math.min(50, changed.length))
    for (const r of rows) {
      expect(changed).toContain(r.id)
      expect(r).toEqual({ kind: "updated", id: r.id, before: shopSelling(before, r.id), after: shopSelling(after, r.id) })
    }
    await shot("reprice-change-log", "catalog-sync-change-log")
  })

  it("a refused key replaced on the settings page starts a run at once", async () => {
    const { api_key: newKey } = await control("/revoke-key")
    const refused = await waitForRunEnd((await syncNowFromThePage()).id)
    expect(refused).toMatchObject({ status: "failed", error_code: "invalid_api_key" })
    await page.goto(`${app.url}/app/catalog-sync`)
    await page.getByTestId("catalog-sync-blocked").waitFor()
    await page.locator('[data-testid="catalog-sync-state"][data-state="key_invalid"]').waitFor()
    // Sync now and Full resync are refused with the reason while the key is refused.
    expect(await page.getByTestId("sync-now").isDisabled()).toBe(true)
    expect(await page.getByTestId("full-resync").isDisabled()).toBe(true)
    await expectText(page.getByTestId("sync-now-refusal"), "The catalog refused the API key: save a working key in settings first.")
    // The code and request id only inside the notice's Details, never in its sentence.
    const blocked = page.getByTestId("catalog-sync-blocked")
    const sentence = await blocked.evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement
      copy.querySelectorAll("details").forEach((d) => d.remove())
      return copy.textContent ?? ""
    })
    expect(sentence).toMatch(/refused/)
    expect(sentence).not.toMatch(/invalid_api_key|\b401\b|req_/)
    await shot("key-refused", "catalog-sync-widget")

    // The product list's line says it too, by the sync's one state name, pointing to settings; the
    // failed run is the refusal itself, so no second warning for it.
    await page.goto(`${app.url}/app/products`)
    const line = page.locator('[data-testid="catalog-sync-list-widget"][data-state="key_invalid"]')
    await line.waitFor({ timeout: 60_000 })
    await expectText(line.getByTestId("catalog-sync-list-state"), "Key refused")
    const warning = line.locator('[data-testid="catalog-sync-list-warning"][data-kind="blocked"]')
    await expectText(warning, "The catalog refused the API key: no sync runs until a working key is saved.")
    expect(await warning.getByTestId("catalog-sync-list-warning-link").getAttribute("href")).toMatch(/\/settings\/catalog-sync$/)
    expect(await line.locator('[data-testid="catalog-sync-list-warning"][data-kind="failed"]').count()).toBe(0)
    await shot("product-list-line-key-refused", "catalog-sync-list-widget")

    // A second refused run (as the API still starts one) makes a failure streak: the bell's entry
    // (Medusa's notification row) says why in words, with no code or catalog text.
    const again = await adminApi("/admin/catalog-sync/runs", { mode: "changes" })
    expect(again.status).toBe(202)
    expect(await waitForRunEnd(again.body.run.id)).toMatchObject({ status: "failed", error_code: "invalid_api_key" })
    const [streak] = await waitFor(
      "the failure streak's bell entry",
      async () => {
        const rows = await sql(db.url, "select data from notification where trigger_type = 'catalog-sync.failed_twice' and channel = 'feed'")
        return rows.length ? rows : null
      },
      30_000,
      500
    )
    expect(streak.data.description).toBe(
      "The last two runs failed: the catalog refused the API key. Catalog sync in the sidebar has the runs and their details."
    )

    const known = new Set((await latestRuns(20)).map((r) => r.id))
    await page.goto(`${app.url}/app/settings/catalog-sync`)
    await page.getByRole("button", { name: "Replace", exact: true }).click()
    await page.locator('input[name="api_key"]').fill(String(newKey))
    apiKey = String(newKey)
    await page.getByTestId("settings-save").click()
    // The scheduled poll is a day away: a run within this bound is the key fix's own.
    const resumed = await nextRunAfter(known, 30_000)
    expect(resumed.trigger).toBe("settings")
    expect(await waitForRunEnd(resumed.id)).toMatchObject({ status: "succeeded" })
    await page.goto(`${app.url}/app/catalog-sync`)
    const row = page.locator(`[data-testid="catalog-sync-run-row"][data-trigger="settings"][data-status="succeeded"]`)
    await row.first().waitFor()
    expect(await page.getByTestId("catalog-sync-blocked").count()).toBe(0)
    expect(await page.getByTestId("catalog-sync-state").getAttribute("data-state")).not.toBe("key_invalid")
    await shot("key-fixed-run-started", "catalog-sync-runs")
  })

  /**
   * Takes `victims` off sale in three groups with new products after each of the first two, as
   * many as put each group on a later page of the changes feed than the one before it; returns
   * the new products' ids.
   */
  async function removeAcrossThreePages(victims: string[]): Promise<string[]> {
    const third = Math.ceil(victims.length / 3)
    const groups = [victims.slice(0, third), victims.slice(third, 2 * third), victims.slice(2 * third)]
    const between = Math.max(0, CHANGES_PAGE_SIZE - third) + 5
    const added: string[] = []
    for (const [i, group] of groups.entries()) {
      await control("/mutate", { remove_ids: group })
      if (i < 2) added.push(...((await control("/mutate", { count: between, kinds: ["add"] })).added as string[]).map(String))
    }
    const firstOf = (g: number) => groups.slice(0, g).reduce((n, x) => n + x.length, 0) + g * between
    expect(Math.floor(firstOf(1) / CHANGES_PAGE_SIZE)).toBeGreaterThanOrEqual(1)
    expect(Math.floor(firstOf(2) / CHANGES_PAGE_SIZE)).toBeGreaterThanOrEqual(2)
    return added
  }

  /** Sync now → the brake's panel: nothing removed (SQL), a preview naming the products as Medusa holds them. */
  async function pausedWithPreview(shop: string[], added: string[], victims: string[], name: string) {
    const started = await syncNowFromThePage()
    const paused = await waitForRunEnd(started.id)
    expect(paused).toMatchObject({ status: "paused", removed: 0, swept: 0, created: added.length })
    expect(paused.pages).toBeGreaterThanOrEqual(3)
    expect(sorted(paused.brake.removal_ids)).toEqual(sorted(victims))
    expect(await liveCatalogIds()).toEqual(sorted([...shop, ...added]))

    await page.goto(`${app.url}/app/catalog-sync`)
    const brake = page.getByTestId("catalog-sync-brake")
    await brake.waitFor()
    expect(await brake.getAttribute("data-run-id")).toBe(paused.id)
    await expectText(page.getByTestId("catalog-sync-brake-reason"), "None of these products has been removed.")
    await expectText(page.getByTestId("catalog-sync-brake-removals"), `Would remove ${formatCount(victims.length)} products`)
    const products = new Map(
      (await sql(db.url, "select id, external_id, title from product where deleted_at is null and external_id = any($1)", [victims])).map((r) => [
        r.external_id as string,
        r,
      ])
    )
    const listed = await page.getByTestId("catalog-sync-brake-removal").evaluateAll((els) =>
      els.map((el) => ({
        id: el.getAttribute("data-catalog-id") ?? "",
        text: (el.textContent ?? "").replace(/\s+/g, " ").trim(),
        href: el.querySelector("a")?.getAttribute("href") ?? null,
      }))
    )
    expect(listed.length).toBe(Math.min(20, victims.length))
    for (const item of listed) {
      const product = products.get(item.id)
      expect(product).toBeDefined()
      expect(item).toEqual({ id: item.id, text: `${product.title} · catalog id ${item.id}`, href: `/app/products/${product.id}` })
    }
    await expectText(page.getByTestId("catalog-sync-brake-removals"), `and ${formatCount(victims.length - listed.length)} more`)
    await shot(name, "catalog-sync-brake")
    // Still nothing removed after the page showed the pause.
    expect(await liveCatalogIds()).toEqual(sorted([...shop, ...added]))
    return paused
  }

  /** Presses the answer and its prompt's button; returns the run that continues the paused one. */
  async function answer(action: "confirm" | "discard", promptButton: string): Promise<Run> {
    const response = page.waitForResponse((res) => res.url().endsWith(`/${action}`) && res.request().method() === "POST")
    await page.getByTestId(`catalog-sync-brake-${action}`).click()
    await page.getByRole("alertdialog").getByRole("button", { name: promptButton, exact: true }).click()
    const res = await response
    expect(res.status()).toBe(200)
    return (await res.json()).continued_by
  }

  it("the removal brake: 30 % removed across three pages pauses with nothing removed; Discard removes none, through the next run and a full pass", async () => {
    const shop = await liveCatalogIds()
    const victims = shop.slice(0, Math.round(shop.length * 0.3))
    const added = await removeAcrossThreePages(victims)
    const paused = await pausedWithPreview(shop, added, victims, "brake-paused-preview")

    const continued = await waitForRunEnd((await answer("discard", "Discard")).id)
    expect(continued).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    const kept = sorted([...shop, ...added])
    expect(await liveCatalogIds()).toEqual(kept)
    expect((await getRun(paused.id)).brake_resolution).toMatchObject({ action: "discarded", removals: victims.length })
    await page.getByTestId("catalog-sync-brake").waitFor({ state: "detached" })

    // The next run and a full pass remove none of them either (SQL), though the catalog no longer serves them.
    expect(await waitForRunEnd((await syncNowFromThePage()).id)).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    const full = await adminApi("/admin/catalog-sync/runs", { mode: "full" })
    expect(full.status).toBe(202)
    const fullRun = await waitForRunEnd(full.body.run.id)
    expect(fullRun).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(await liveCatalogIds()).toEqual(kept)
    const served = await servedCards()
    for (const id of victims) expect(served.has(id)).toBe(false)
  })

  it("the removal brake: Confirm removes exactly the previewed products", async () => {
    const served = await servedCards()
    const shop = await liveCatalogIds()
    const victims = shop.filter((id) => served.has(id)).slice(-Math.round(shop.length * 0.3))
    const added = await removeAcrossThreePages(victims)
    const paused = await pausedWithPreview(shop, added, victims, "brake-paused-preview-confirm")

    const continued = await waitForRunEnd((await answer("confirm", "Confirm and apply")).id)
    expect(continued).toMatchObject({ status: "succeeded", removed: victims.length, swept: 0 })
    // Medusa's product table against the sandbox: exactly the previewed products went, nothing else.
    const live = await liveCatalogIds()
    expect(live).toEqual(sorted([...shop, ...added].filter((id) => !victims.includes(id))))
    const nowServed = await servedCards()
    expect(sorted(shop.filter((id) => !live.includes(id)))).toEqual(sorted(paused.brake.removal_ids))
    for (const id of paused.brake.removal_ids as string[]) expect(nowServed.has(id)).toBe(false)
    await page.goto(`${app.url}/app/catalog-sync`)
    await page.getByTestId("catalog-sync-last-run").waitFor()
    expect(await page.getByTestId("catalog-sync-brake").count()).toBe(0)
    await shot("brake-confirmed", "catalog-sync-widget")
  })
})
