import { catalogValueText, heldValueLabel } from "../field-locks"
import { heldByLockText } from "../change-log"

describe("Catalog now, per size", () => {
  it("lists sizes in the shop's order, not the order the object holds them", () => {
    const prices = { L: "1300", M: "1200", S: "1100", XL: "1400", XS: "1000" }
    expect(catalogValueText("prices", prices)).toBe("XS: 1,000.00 ₴, S: 1,100.00 ₴, M: 1,200.00 ₴, L: 1,300.00 ₴, XL: 1,400.00 ₴")
    expect(catalogValueText("stock", { "43": 2, "42": 1250, "42.5": 0 })).toBe("42: 1,250, 42.5: 0, 43: 2")
  })
})

describe("a held price is the shop's rule price, never called the catalog's", () => {
  it("names it by the pricing rules, in the change log and the lock panel", () => {
    expect(heldByLockText({ prices: "2099" })).toBe("price held by your lock (the pricing rules would set 2,099.00 ₴)")
    expect(heldValueLabel("prices")).toBe("The pricing rules would set now:")
    expect(heldValueLabel("title")).toBe("Catalog now:")
  })
})
