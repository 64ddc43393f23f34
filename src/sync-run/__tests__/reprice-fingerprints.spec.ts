// A reprice stores the prices part the card's mapping would compute, so the next full pass sees
// the repriced products unchanged.
import { MAPPING_VERSION, pricesPart } from "../../sync/fingerprint"
import { repricedFingerprints, type RepricedRow } from "../reprice-fingerprints"

const row = (catalog_id: string, size_key: string, amount: string | null, crossed: string | null = null): RepricedRow => ({
  catalog_id,
  size_key,
  variant_id: `v${catalog_id}${size_key}`,
  amount,
  crossed_out_amount: crossed,
})
const v = `v${MAPPING_VERSION}`

describe("repricedFingerprints", () => {
  it("puts the new prices in size order into the stored fingerprint; a crossed-out price makes the base and a sale amount", () => {
    const rows = [row("1", "L", "300.00"), row("1", "S", "100.00"), row("1", "M", "200.00")]
    const maps = [{ catalog_id: "1", fingerprint: `${v}:f:va:old`, variant_ids: { M: "v1M", L: "v1L", S: "v1S" } }]
    const out = repricedFingerprints(maps, rows, [{ variant_id: "v1M", catalog_id: "1", to: { amount: "199.00", crossed_out: "249.00" } }])
    const expected = pricesPart([
      { sizeKey: "S", amount: "100.00", saleAmount: null },
      { sizeKey: "M", amount: "249.00", saleAmount: "199.00" },
      { sizeKey: "L", amount: "300.00", saleAmount: null },
    ])
    expect(out.get("1")).toBe(`${v}:f:va:${expected}`)
  })

  it("leaves a product alone when its cost rows are not all its sizes, or its fingerprint is of another version", () => {
    const changes = [{ variant_id: "v1M", catalog_id: "1", to: { amount: "1.00", crossed_out: null } }]
    expect(
      repricedFingerprints([{ catalog_id: "1", fingerprint: `${v}:f:va:p`, variant_ids: { M: "a", L: "b" } }], [row("1", "M", "2.00")], changes).size
    ).toBe(0)
    expect(repricedFingerprints([{ catalog_id: "1", fingerprint: "v1:f:va:p", variant_ids: { M: "a" } }], [row("1", "M", "2.00")], changes).size).toBe(0)
  })
})
