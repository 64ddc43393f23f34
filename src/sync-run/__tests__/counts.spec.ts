import { emptyCounts, EXCERPT_LENGTH, rejectedLogLine, toRunRecord } from "../counts"
import { retentionCutoff } from "../change-log-retention"

describe("rejected items as stored on the run", () => {
  it("keeps id, field and reason; no excerpt when the id is known", () => {
    expect(toRunRecord({ id: "7", field: "sizes[0].price", reason: "product.sizes.0.price: a price cannot be negative", raw: '{"id":7}' })).toEqual({
      id: "7",
      field: "sizes[0].price",
      reason: "product.sizes.0.price: a price cannot be negative",
    })
  })

  it("without an id, keeps the first 200 characters of the raw item, cleaned", () => {
    const raw = JSON.stringify({ sku: "x".repeat(500) }) + "\u0000"
    const record = toRunRecord({ id: null, field: "id", reason: "id: expected an integer id", raw })
    expect(record.id).toBeNull()
    expect(record.excerpt).toBe(raw.slice(0, EXCERPT_LENGTH) + "…")
    expect(toRunRecord({ id: null, reason: "r", raw: "a\u0000b" }).excerpt).toBe("ab")
  })

  it("stays backwards compatible: no field key when none is known; warnings are marked kept", () => {
    expect(toRunRecord({ id: "7", reason: "write failed: x" })).toEqual({ id: "7", reason: "write failed: x" })
    expect(toRunRecord({ id: "7", field: "images[0].url", reason: "dropped" }, { kept: true })).toEqual({
      id: "7",
      field: "images[0].url",
      reason: "dropped",
      kept: true,
    })
  })

  it("cleans and bounds every text, so the record can always be saved", () => {
    const record = toRunRecord({ id: "7", reason: `bad\u0000 ${"y".repeat(1000)}` })
    expect(record.reason).not.toContain("\u0000")
    expect(record.reason.length).toBeLessThanOrEqual(501)
  })

  it("log lines say what was received when there is no id", () => {
    expect(rejectedLogLine({ id: null, field: "id", reason: "id: expected an integer id", excerpt: '{"id":"x"}' })).toBe(
      'catalog sync: skipped item (no id) [id]: id: expected an integer id (received: {"id":"x"})'
    )
    expect(rejectedLogLine({ id: "7", field: "images[1].url", reason: "dropped", kept: true })).toBe("catalog sync: kept item 7 [images[1].url]: dropped")
  })
})

describe("retentionCutoff", () => {
  it("is CHANGE_LOG_RETENTION_DAYS before now", () => {
    expect(retentionCutoff(new Date("2026-03-31T12:00:00Z")).toISOString()).toBe("2026-03-01T12:00:00.000Z")
  })
})
