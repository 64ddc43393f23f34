// Review of the product widget: a product kept by the admin's discard had no Remove on its widget
// (docs/safety-brake.md, docs/admin.md "Kept products"); the sync page's list had one. Read from
// the sources: both use the one Remove (prompt, call, toast) and neither keeps its own copy.
import fs from "node:fs"
import path from "node:path"

const ADMIN = path.join(__dirname, "..", "..")
const read = (file: string) => fs.readFileSync(path.join(ADMIN, file), "utf8")
const widget = read("widgets/catalog-product.tsx")
const list = read("routes/catalog-sync/components/kept-products.tsx")

describe("the product widget's Remove of a product kept by a discard", () => {
  it("has a Remove button, shown only where the Remove applies (canRemoveKept: a discard, not an open order)", () => {
    expect(widget).toMatch(/data-testid="catalog-product-remove"/)
    expect(widget).toMatch(/canRemoveKept\(keptFor\) && \(/)
    expect(widget).toMatch(/onClick=\{\(\) => remove\.ask\(keptFor\)\}/)
  })

  it("is disabled with the sync page's reason while no run can start (syncStartRefusal, as Sync now)", () => {
    expect(widget).toMatch(/import \{ syncStartRefusal \} from "\.\.\/lib\/status"/)
    expect(widget).toMatch(/disabled=\{!canRemove \|\| remove\.isPending\}/)
    expect(widget).toMatch(/data-testid="catalog-product-remove-refusal"/)
  })

  it("shares the one Remove with the sync page's list: the hook, no prompt or call of its own", () => {
    for (const text of [widget, list]) {
      expect(text).toMatch(/useRemoveKeptProduct\(\)/)
      expect(text).not.toMatch(/Remove this product\?/)
      expect(text).not.toMatch(/removeKeptProduct\(/)
    }
  })
})

describe("the product widget's size cell", () => {
  it("marks a kept size with the one-word badge on one line, not the four-line phrase", () => {
    expect(widget).toMatch(/\{KEPT_SIZE_BADGE\}/)
    expect(widget).not.toMatch(/KEPT_SIZE_MARK/)
    expect(widget).toMatch(/<Table\.Cell className="whitespace-nowrap">\s*\{s\.size \|\| "—"\}/)
  })
})
