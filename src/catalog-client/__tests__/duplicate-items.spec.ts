// One item per id in a page: the higher sync_version wins, on a tie the later item; every
// dropped duplicate is reported with its id.
import { oneItemPerId } from "../duplicate-items"
import { validateChangeItems, type ChangeItem } from "../items"
import { parseCatalogJson } from "../json"
import type { ProductCard } from "../schemas"

const active = (id: string, version: number, name = `v${version}`): ChangeItem => ({
  status: "updated",
  id,
  product: { id, sync_version: version, name } as ProductCard,
})
const removed = (id: string): ChangeItem => ({ status: "removed", id })
const nameOf = (item: ChangeItem) => ("product" in item ? item.product.name : "removed")

describe("oneItemPerId", () => {
  it("keeps the higher sync_version whichever comes first, and reports the dropped one", () => {
    const { items, duplicates } = oneItemPerId([active("7", 3), active("8", 1), active("7", 2)])
    expect(items.map((i) => [i.id, nameOf(i)])).toEqual([
      ["8", "v1"],
      ["7", "v3"],
    ])
    expect(duplicates).toEqual([{ id: "7", field: "id", reason: expect.stringMatching(/sync_version 3 kept, sync_version 2 dropped/) }])

    const later = oneItemPerId([active("7", 2), active("7", 3)])
    expect(later.items.map(nameOf)).toEqual(["v3"])
    expect(later.duplicates).toHaveLength(1)
  })

  it("on a tie the later item wins", () => {
    const { items, duplicates } = oneItemPerId([active("7", 4, "first"), active("7", 4, "second")])
    expect(items.map(nameOf)).toEqual(["second"])
    expect(duplicates.map((d) => d.id)).toEqual(["7"])
  })

  it("a removal carries no version: the later of a removal and a card wins", () => {
    expect(oneItemPerId([active("7", 9), removed("7")]).items).toEqual([removed("7")])
    expect(oneItemPerId([removed("7"), active("7", 1)]).items.map(nameOf)).toEqual(["v1"])
  })

  it("three items of one id: the highest version, one notice per dropped item", () => {
    const { items, duplicates } = oneItemPerId([active("7", 2), active("7", 5), active("7", 1)])
    expect(items.map(nameOf)).toEqual(["v5"])
    expect(duplicates).toHaveLength(2)
  })

  it("a page without duplicates comes back as it was, with no notice", () => {
    const page = [active("1", 1), removed("2"), active("3", 1)]
    expect(oneItemPerId(page)).toEqual({ items: page, duplicates: [] })
  })
})

describe("validateChangeItems with one id twice", () => {
  const card = (version: number, name: string) =>
    `{"status":"updated","id":5,"product":{"id":5,"sku":"S-5","name":"${name}","cost_price":"10.00","in_stock":true,"sizes":[],"images":[],"sync_version":${version}}}`

  it("keeps the higher version and reports the duplicate as a warning naming the id", () => {
    const { items, rejected, warnings } = validateChangeItems(parseCatalogJson(`[${card(3, "three")},${card(2, "two")}]`) as unknown[])
    expect(rejected).toEqual([])
    expect(items.map(nameOf)).toEqual(["three"])
    expect(warnings).toEqual([{ id: "5", field: "id", reason: expect.stringMatching(/more than once/) }])
  })
})
