import { generateEntityId } from "@medusajs/framework/utils"
import { newId, ulid } from "../ids"

const FORMAT = /^variant_[0-9A-HJKMNP-TV-Z]{26}$/

describe("bulk writer ids", () => {
  it("have the format of Medusa's generateEntityId", () => {
    const medusa = generateEntityId(undefined, "variant")
    const ours = newId("variant")
    expect(medusa).toMatch(FORMAT)
    expect(ours).toMatch(FORMAT)
    expect(ours).toHaveLength(medusa.length)
  })

  it("start with the same time part as Medusa's id made in the same millisecond", () => {
    const now = Date.now()
    jest.spyOn(Date, "now").mockReturnValue(now)
    try {
      expect(ulid(now).slice(0, 10)).toBe(generateEntityId(undefined, "x").slice(2, 12))
    } finally {
      jest.restoreAllMocks()
    }
  })

  it("sort by creation time across milliseconds and do not repeat", () => {
    expect(ulid(1_700_000_000_000) < ulid(1_700_000_000_001)).toBe(true)
    const many = new Set(Array.from({ length: 20_000 }, () => newId("p")))
    expect(many.size).toBe(20_000)
  })

  it("use every character of the alphabet in the random part", () => {
    const seen = new Set(Array.from({ length: 2_000 }, () => ulid().slice(10)).join(""))
    expect(seen.size).toBe(32)
  })
})
