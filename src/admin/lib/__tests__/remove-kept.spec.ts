import { REMOVE_KEPT_FAILED, REMOVE_KEPT_QUEUED, canRemoveKept, removeKeptPrompt } from "../remove-kept"

describe("the Remove of a product kept by a discard (the sync page's list and the product's widget)", () => {
  it("applies only to a product the admin's discard keeps, with its catalog id", () => {
    expect(canRemoveKept({ reason: "discarded", catalog_id: "101" })).toBe(true)
    // An open order's product goes by itself once the order is fulfilled or cancelled.
    expect(canRemoveKept({ reason: "open_order", catalog_id: "101" })).toBe(false)
    expect(canRemoveKept({ reason: "discarded", catalog_id: null })).toBe(false)
  })

  it("asks and answers in the sync page's words", () => {
    expect(removeKeptPrompt({ title: "Кросівки X", product_id: "prod_1" })).toEqual({
      title: "Remove this product?",
      description: '"Кросівки X" is removed from the shop as the sync removes products the catalog no longer has (an open order keeps what it reserved).',
      confirmText: "Remove",
      cancelText: "Cancel",
    })
    expect(removeKeptPrompt({ title: null, product_id: "prod_1" }).description).toMatch(/^"prod_1" is removed/)
    expect(REMOVE_KEPT_QUEUED).toBe("Removal queued: a sync removes it now")
    expect(REMOVE_KEPT_FAILED).toBe("The product was not removed")
  })
})
