// What every browser spec does around its own steps: the admin build, headless Chromium, the
// login, a fetch from the logged-in page (the admin's own cookie), SQL on the app's database,
// waiting for a text, and the list of screenshots printed at the end.
import fs from "node:fs"
import path from "node:path"
import { chromium, type Browser, type Locator, type Page } from "playwright-core"
import { ADMIN_EMAIL, ADMIN_PASSWORD, ARTIFACTS_DIR } from "../harness"
import { ensureAdminBuilt, snapshotPluginBuild } from "./admin-app"

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium"
export const SHOTS = path.join(ARTIFACTS_DIR, "screenshots")

/** Builds the demo admin once and keeps the plugin build the app will load (see admin-app.ts). */
export function prepareAdmin(): void {
  fs.mkdirSync(SHOTS, { recursive: true })
  ensureAdminBuilt()
  snapshotPluginBuild()
}

/** Headless Chromium with one page of the given size. */
export async function openBrowser(viewport: { width: number; height: number }, timeoutMs = 60_000): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  })
  const page = await browser.newPage({ viewport, reducedMotion: "reduce" })
  // No CSS animation or transition: a pulsing badge or a spinner has headless Chromium paint frames
  // all the time (about 6 % of a core each, measured), and the checks read text, not motion.
  await page.addInitScript(() => {
    const still = () => {
      const style = document.createElement("style")
      style.textContent = "*, *::before, *::after { animation: none !important; transition: none !important; }"
      document.head.appendChild(style)
    }
    if (document.head) still()
    else document.addEventListener("DOMContentLoaded", still, { once: true })
  })
  page.setDefaultTimeout(timeoutMs)
  return { browser, page }
}

/** Logs in to the admin as the demo's admin user. */
export async function logIn(page: Page, appUrl: string): Promise<void> {
  await page.goto(`${appUrl}/app/login`)
  await page.fill('input[name="email"]', ADMIN_EMAIL)
  await page.fill('input[name="password"]', ADMIN_PASSWORD)
  await page.click('button[type="submit"]')
  await page.waitForURL((url) => !url.pathname.includes("/login"), { timeout: 60_000 })
}

export type AdminApi = (p: string, body?: unknown) => Promise<{ status: number; body: any }>

/** An admin API call from the logged-in page: GET without a body, POST with one. */
export function adminApiOf(page: () => Page): AdminApi {
  return (p, body) =>
    page().evaluate(
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
}

export { sql } from "../harness/database"

/** Waits until the first match of the locator contains the text (with runs of whitespace as one space if asked). */
export async function expectText(locator: Locator, text: string, timeoutMs = 30_000, opts: { collapseWhitespace?: boolean } = {}): Promise<void> {
  const started = Date.now()
  let last = ""
  while (Date.now() - started < timeoutMs) {
    last =
      (await locator
        .first()
        .textContent()
        .catch(() => "")) ?? ""
    if (opts.collapseWhitespace) last = last.replace(/\s+/g, " ")
    if (last.includes(text)) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`expected "${text}" in "${last}"`)
}

/** A spec's screenshots, listed at the end so a reader finds them in artifacts/. */
export class Screenshots {
  readonly saved: string[] = []

  /** The path of a screenshot named `name`, recorded for the list. */
  file(name: string): string {
    const file = path.join(SHOTS, `${name}.png`)
    this.saved.push(file)
    return file
  }

  print(): void {
    if (this.saved.length) console.log(`Screenshots:\n${this.saved.map((file) => `  ${path.relative(process.cwd(), file)}`).join("\n")}`)
  }
}
