// The settings page's one voice for errors and its Disconnect, in headless Chromium against
// the sandbox: a refused key and a bad URL read the same from Test connection and Save (the
// code once), a refused base markup gets no new price preview (the last valid one stays, stale), an expired plan fails Test connection
// with its date, an emptied key field says the key is kept, and Disconnect (after its
// confirmation) removes the saved key, and a Save beside a stopped sync (a refused key) says that
// no sync runs until it is fixed, never "Nothing runs now". Screenshots: artifacts/screenshots/21-error-voice.png,
// 22-disconnect.png.
import type { Browser, Locator, Page } from "playwright-core"
import { createTestDatabase } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { startAdminApp, type AdminApp } from "./admin-app"
import { adminApiOf, logIn, openBrowser, prepareAdmin, Screenshots, sql } from "./browser-session"

jest.setTimeout(600_000)

const API_KEY = "sandbox-voice-key-5310"
const screens = new Screenshots()

async function textOf(locator: Locator): Promise<string> {
  await locator.waitFor()
  return (await locator.textContent()) ?? ""
}

/** An error's code and request id: in the page, folded under a closed "Details" disclosure. */
async function detailOf(locator: Locator): Promise<string> {
  await locator.waitFor({ state: "attached" })
  expect(await locator.evaluate((el) => el.closest("details")?.open === false)).toBe(true)
  return (await locator.textContent()) ?? ""
}

const occurrences = (text: string, word: string) => text.split(word).length - 1

describe("settings: one voice for errors, and Disconnect", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let sandbox: Sandbox
  let app: AdminApp
  let browser: Browser
  let page: Page

  const adminApi = adminApiOf(() => page)
  const status = () => page.evaluate(async () => (await (await fetch("/admin/catalog-sync/status", { credentials: "include" })).json()) as any)

  beforeAll(async () => {
    prepareAdmin()
    db = await createTestDatabase("browser-voice")
    sandbox = await startSandbox({ products: 20, seed: 5, apiKey: API_KEY, rpm: 6000, port: 0, controlPort: 0 })
    app = await startAdminApp({
      databaseUrl: db.url,
      label: "browser-voice",
      env: {
        CATALOG_SYNC_REDIS_PREFIX: `mcs_browser_voice_${process.pid}`,
        CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
        CATALOG_BASE_URL: "",
        CATALOG_API_KEY: "",
      },
    })
    ;({ browser, page } = await openBrowser({ width: 1440, height: 1600 }))
  })

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
    await sandbox?.close()
    await db?.drop()
    screens.print()
  })

  it("words each error once, the same from Test connection and Save", async () => {
    await logIn(page, app.url)
    await page.goto(`${app.url}/app/settings/catalog-sync`)
    expect(await page.getByTestId("catalog-sync-status-link").getAttribute("href")).toMatch(/\/catalog-sync$/)

    // A bad address: the same sentence from both buttons, beside the field.
    await page.locator("#base_url").fill("api.example.com")
    await page.getByTestId("test-connection").click()
    const urlSentence = "Enter a full URL, e.g. https://api.example.com."
    expect(await textOf(page.getByTestId("connection-result"))).toBe(urlSentence)
    expect(await textOf(page.getByTestId("error-base_url"))).toBe(urlSentence)
    await page.getByTestId("settings-save").click()
    expect(await textOf(page.getByTestId("error-base_url"))).toBe(urlSentence)

    // A refused key: one sentence, the code and request id once, from both.
    await page.locator("#base_url").fill(sandbox.baseUrl)
    await page.locator("#api_key").fill("wrong-key-0000")
    await page.getByTestId("test-connection").click()
    const result = page.getByTestId("connection-result")
    await page.waitForSelector('[data-testid="connection-result"][data-code="invalid_api_key"]')
    expect(await textOf(result.getByTestId("error-sentence"))).toBe("The catalog refused this API key.")
    const testDetail = await detailOf(result.getByTestId("error-detail"))
    expect(testDetail).toMatch(/^Code invalid_api_key · request \S+$/)
    expect(occurrences(await textOf(result), "invalid_api_key")).toBe(1)

    await page.getByTestId("settings-save").click()
    expect(await textOf(page.getByTestId("error-api_key"))).toBe("The catalog refused this API key.")
    const formError = page.getByTestId("settings-form-error")
    expect(await detailOf(formError.getByTestId("error-detail"))).toMatch(/^Code invalid_api_key · request \S+$/)
    expect(occurrences(await textOf(formError), "invalid_api_key")).toBe(1)

    // A base markup the rules refuse is not priced: the last valid preview stays, marked stale, and
    // the field says why once the admin leaves it (not while typing).
    await page.locator("#base_markup_percent").fill("5000")
    await page.waitForSelector('[data-testid="pricing-preview"][data-state="stale"]')
    expect(await textOf(page.getByTestId("pricing-preview-stale-note"))).toContain("these are the prices of the last valid rules")
    expect(await page.getByTestId("error-base_markup_percent").count()).toBe(0)
    await page.locator("#base_markup_percent").blur()
    expect(await textOf(page.getByTestId("error-base_markup_percent"))).toContain("at most 1000")
    expect(await page.content()).not.toContain("51,000")
    await page.locator("#base_markup_percent").fill("30")
    await page.waitForSelector('[data-testid="pricing-preview"][data-state="ready"]')
    expect(await page.getByTestId("error-base_markup_percent").count()).toBe(0)

    // Connected for real, then the plan expires: Test connection fails with the date.
    await page.locator("#api_key").fill(API_KEY)
    await page.getByTestId("settings-save").click()
    await page.getByTestId("api-key-masked").waitFor()
    sandbox.control.plan({ plan: "Ultra", expires_at: "2020-01-01T00:00:00Z" })
    await page.getByTestId("test-connection").click()
    await page.waitForSelector('[data-testid="connection-result"][data-code="plan_expired"]')
    expect(await textOf(result.getByTestId("error-sentence"))).toBe("The catalog account's plan expired on 1 Jan 2020.")
    expect(await detailOf(result.getByTestId("error-detail"))).toBe("Code plan_expired")
    await page.screenshot({ path: screens.file("21-error-voice"), fullPage: true })
    sandbox.control.plan({ plan: "Ultra", expires_at: null })
  })

  it("says the key is kept when its field is saved empty, and Disconnect removes it after confirming", async () => {
    await page.getByRole("button", { name: "Replace" }).click()
    await page.getByTestId("settings-save").click()
    await page.getByText("so the saved key ••••5310 is kept").first().waitFor()
    await page.getByTestId("api-key-masked").waitFor()

    // The first sync the save queued holds the key: Disconnect once it ended.
    for (let i = 0; i < 300 && (await status()).running_run; i++) await page.waitForTimeout(500)
    await page.getByTestId("disconnect").click()
    const dialog = page.getByRole("alertdialog")
    expect(await textOf(dialog)).toContain("••••5310")
    await dialog.getByRole("button", { name: "Disconnect" }).click()
    await page.getByText("The saved API key was removed").first().waitFor()
    // The settings refetch: the masked key gives way to an empty key input.
    await page.getByTestId("api-key-masked").waitFor({ state: "detached" })
    expect(await page.locator("#api_key").inputValue()).toBe("")
    expect(await page.evaluate(() => [...document.querySelectorAll("input")].map((input) => input.value))).not.toContain("••••5310")
    await page.screenshot({ path: screens.file("22-disconnect"), fullPage: true })

    const [row] = await sql(db.url, "select api_key_encrypted, api_key_last4 from mcs_sync_settings")
    expect(row).toEqual({ api_key_encrypted: null, api_key_last4: null })
    expect(await status()).toMatchObject({ state: "not_configured", next_run_at: null })
  })

  it("a Save while the catalog refuses the key says no sync runs until it is fixed, as the chip says, never nothing runs now", async () => {
    const reconnected = await adminApi("/admin/catalog-sync/settings", { base_url: sandbox.baseUrl, api_key: API_KEY })
    expect(reconnected.status).toBe(200)
    // Saving a key after Disconnect starts a changes run at once: it ends before the key is revoked.
    const reconnectRun = reconnected.body.run?.id as string | undefined
    expect(reconnectRun).toEqual(expect.any(String))
    const ended = async () => ["failed", "succeeded", "interrupted"].includes((await sql(db.url, "select status from mcs_sync_run where id = $1", [reconnectRun]))[0]?.status)
    for (let i = 0; i < 300 && !(await ended()); i++) await page.waitForTimeout(500)
    expect(await ended()).toBe(true)
    for (let i = 0; i < 300 && (await status()).running_run; i++) await page.waitForTimeout(500)
    sandbox.control.revokeKey()
    const started = await adminApi("/admin/catalog-sync/runs", { mode: "changes" })
    expect(started.status).toBe(202)
    const runId = started.body.run.id as string
    for (let i = 0; i < 300 && !["failed", "succeeded"].includes((await sql(db.url, "select status from mcs_sync_run where id = $1", [runId]))[0]?.status); i++)
      await page.waitForTimeout(500)
    expect((await sql(db.url, "select status, error_code from mcs_sync_run where id = $1", [runId]))[0]).toEqual({
      status: "failed",
      error_code: "invalid_api_key",
    })
    expect((await status()).state).toBe("key_invalid")

    await page.goto(`${app.url}/app/settings/catalog-sync`)
    const chip = page.getByTestId("catalog-sync-topbar")
    await chip.waitFor()
    expect(await chip.getAttribute("data-look")).toBe("blocked")
    const field = page.locator("#brake-remove_percent")
    await field.fill("25")
    await page.getByTestId("settings-save").click()
    const said = page.getByText("the next run pauses at the new safety brake thresholds.").first()
    await said.waitFor()
    const toast = ((await said.textContent()) ?? "").trim()
    // What runs now, as the status reads after the save: the save (a new settings revision) lifts the
    // key's block until a run meets the refusal again, so the last run's failure is what stands.
    const after = await status()
    expect(after.last_run).toMatchObject({ id: runId, status: "failed" })
    if (after.state === "key_invalid") expect(toast).toMatch(/^No sync runs until the catalog accepts the key and plan: /)
    else {
      expect(after.state).toBe("failed")
      const next = after.next_run_at ? "the next try is (in [^:;]+|in a moment)" : "no next try is scheduled"
      expect(toast).toMatch(new RegExp(`^The last sync failed (just now|\\d+ min ago); ${next}: the next run pauses at the new safety brake thresholds\\.$`))
    }
    expect(await page.getByText("Nothing runs now").count()).toBe(0)
    await page.screenshot({ path: screens.file("23-saved-beside-refused-key"), fullPage: false })
  })
})
