import { editedByAdmin } from "../admin-edits"
import type { PlannedFieldValues } from "../fields"
import { applyLocks, effectiveLocks, productLockOverrideSchema, shopLockDefaultsSchema, withFieldLock } from "../locks"

const planned: PlannedFieldValues = {
  title: "Кросівки Air",
  description: "<p>new</p>",
  images: ["https://cdn/1.png", "https://cdn/2.png"],
  categories: ["pcat_1"],
  prices: { "42": "1300.00", "43": "1350.00" },
  stock: { "42": 3, "43": 0 },
}

describe("effectiveLocks", () => {
  it("takes the shop default, then the product's own locks and unlocks", () => {
    const defaults = shopLockDefaultsSchema.parse({ locked: ["description"] })
    expect(effectiveLocks(defaults, null)).toEqual(["description"])
    expect(effectiveLocks(defaults, { lock: ["images", "title"], unlock: [] })).toEqual(["title", "description", "images"])
    expect(effectiveLocks(defaults, { lock: [], unlock: ["description"] })).toEqual([])
  })

  it("refuses a field both locked and unlocked, and unknown fields", () => {
    expect(() => productLockOverrideSchema.parse({ lock: ["title"], unlock: ["title"] })).toThrow()
    expect(() => productLockOverrideSchema.parse({ lock: ["sku"] })).toThrow()
  })

  it("keeps overrides minimal against the default", () => {
    const defaults = { locked: ["description" as const] }
    const o1 = withFieldLock(defaults, null, ["title", "description"], true)
    expect(o1).toEqual({ lock: ["title"], unlock: [] })
    const o2 = withFieldLock(defaults, o1, ["title", "description"], false)
    expect(o2).toEqual({ lock: [], unlock: ["description"] })
    expect(effectiveLocks(defaults, o2)).toEqual([])
  })
})

describe("applyLocks", () => {
  it("writes everything when nothing is locked", () => {
    expect(applyLocks(planned, [])).toEqual({ write: planned, held: {}, heldFields: [] })
  })

  it("never writes a locked field and hands back the catalog's value", () => {
    const r = applyLocks(planned, ["title", "images"])
    expect(r.write.title).toBeUndefined()
    expect(r.write.images).toBeUndefined()
    expect(r.write.prices).toEqual(planned.prices)
    expect(r.write.description).toBe("<p>new</p>")
    expect(r.held).toEqual({ title: "Кросівки Air", images: planned.images })
    expect(r.heldFields).toEqual(["title", "images"])
  })

  it("locks prices and stock of existing sizes only; a new size gets the catalog's values", () => {
    const r = applyLocks(planned, ["prices", "stock"], new Set(["42"]))
    expect(r.write.prices).toEqual({ "43": "1350.00" })
    expect(r.write.stock).toEqual({ "43": 0 })
    expect(r.held).toEqual({ prices: { "42": "1300.00" }, stock: { "42": 3 } })
  })

  it("holds nothing for a locked field the plan does not touch", () => {
    const r = applyLocks({ prices: { "": "10.00" } }, ["title"])
    expect(r).toEqual({ write: { prices: { "": "10.00" } }, held: {}, heldFields: [] })
  })
})

describe("editedByAdmin", () => {
  it("sees a changed title, description, gallery order and category set", () => {
    const current: PlannedFieldValues = {
      ...planned,
      title: "Air — SEO title",
      images: ["https://cdn/2.png", "https://cdn/1.png"],
      categories: ["pcat_1", "pcat_9"],
    }
    expect(editedByAdmin(planned, current)).toEqual(["title", "images", "categories"])
  })

  it("ignores equal values written differently, stock moves, and fields already locked", () => {
    const current: PlannedFieldValues = {
      ...planned,
      description: "<p>new</p>",
      categories: ["pcat_1"],
      prices: { "42": "1300", "43": "1350.0" },
      stock: { "42": 1, "43": 0 },
    }
    expect(editedByAdmin(planned, current)).toEqual([])
    expect(editedByAdmin(planned, { ...current, title: "x" }, ["title"])).toEqual([])
  })

  it("sees an edited price of a size both sides have, not a size that came or went", () => {
    expect(editedByAdmin(planned, { prices: { "42": "1299.99", "43": "1350.00" } })).toEqual(["prices"])
    expect(editedByAdmin(planned, { prices: { "42": "1300.00", "44": "1.00" } })).toEqual([])
  })

  it("treats a missing and an empty description alike, and never flags fields the sync did not write", () => {
    expect(editedByAdmin({ description: null }, { description: "" })).toEqual([])
    expect(editedByAdmin({}, { title: "anything" })).toEqual([])
  })
})
