import { validateChangeItems, validateChangeItemsInSlices } from "../items"

describe("change items validated in slices", () => {
  // Removals (an id alone), items refused (not an object, unknown status, bad id) and an id twice.
  const raw: unknown[] = [
    ...Array.from({ length: 40 }, (_, i) => ({ status: "removed", id: i + 1 })),
    null,
    { status: "gone", id: 7 },
    { status: "removed", id: "x" },
    { status: "removed", id: 3 },
  ]

  it("gives what validating the page at once gives, with a turn of the event loop between slices", async () => {
    let turns = 0
    const sliced = await validateChangeItemsInSlices(
      raw,
      async () => {
        turns++
      },
      20
    )
    expect(sliced).toEqual(validateChangeItems(raw))
    expect(sliced.items).toHaveLength(40)
    expect(sliced.rejected).toHaveLength(3)
    // 44 items in slices of 20: two turns between three slices.
    expect(turns).toBe(2)
  })
})
