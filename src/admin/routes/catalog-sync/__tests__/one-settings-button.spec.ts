// Issue 43 (review of the admin): the Catalog sync page showed two "Settings" buttons, one in the
// page header and one in the status panel's header. Medusa's pages carry a page-wide action once,
// in the page header; the panel keeps its own actions (History, Full resync, Sync now). Read from
// the sources the page composes (the page and every component file it renders).
import fs from "node:fs"
import path from "node:path"

const ROUTE = path.join(__dirname, "..")
const read = (file: string) => fs.readFileSync(path.join(ROUTE, file), "utf8")

/** The page and the components it imports from ./components (one level: what the screen renders). */
function screenSources(): { file: string; text: string }[] {
  const page = read("page.tsx")
  const parts = [...page.matchAll(/from "\.\/components\/([\w-]+)"/g)].map((m) => `components/${m[1]}.tsx`)
  return [{ file: "page.tsx", text: page }, ...parts.map((file) => ({ file, text: read(file) }))]
}

/** Links to the settings page whose words are "Settings". */
const settingsButtons = (text: string) => [...text.matchAll(/<Link to="\/settings\/catalog-sync">\s*Settings\s*<\/Link>/g)].length

describe("the Catalog sync page", () => {
  it("composes the status panel, the kept lists and the history (sanity: the check below reads them)", () => {
    const files = screenSources().map((s) => s.file)
    expect(files).toEqual(expect.arrayContaining(["page.tsx", "components/status-panel.tsx", "components/history-panel.tsx"]))
  })

  it("has one Settings button, in the page header", () => {
    const counts = screenSources().map((s) => [s.file, settingsButtons(s.text)] as const)
    expect(counts.reduce((n, [, c]) => n + c, 0)).toBe(1)
    expect(counts.find(([file]) => file === "page.tsx")?.[1]).toBe(1)
  })
})
