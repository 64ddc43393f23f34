import { changeKindLabel, changedFields, omittedSummary } from "../change-log"

describe("change log words", () => {
  it("lists what an update changed in a fixed order", () => {
    expect(changedFields({ price_changed: true, stock_changed: false, sizes_changed: true, images_changed: false, text_changed: true })).toEqual(["price", "sizes", "text"])
  })
  it("summarises rows the cap left out, by kind", () => {
    expect(omittedSummary({ updated: 1200, created: 40 })).toBe("40 created, 1,200 updated")
    expect(omittedSummary({})).toBeNull()
    expect(omittedSummary(null)).toBeNull()
  })
  it("labels kinds", () => {
    expect(changeKindLabel("drafted")).toBe("Drafted")
  })
})
