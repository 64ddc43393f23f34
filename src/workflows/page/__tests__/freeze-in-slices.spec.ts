import { freezeInSlices, sealForHandOver, takeHandedOver, forgetHandOver } from "../sealed"

describe("a page's plan frozen in slices before its handover", () => {
  const plan = () => ({
    create: Array.from({ length: 25 }, (_, i) => ({ catalogId: String(i), input: { variants: [{ sku: `S-${i}` }] } })),
    update: Array.from({ length: 5 }, (_, i) => ({ catalogId: `u${i}`, input: { variants: [{ sku: `U-${i}` }] } })),
    pricing: { rules: 1 },
  })

  it("freezes every planned product deeply, with a turn of the event loop between slices, and the handover reads the same plan", async () => {
    const value = plan()
    let turns = 0
    await freezeInSlices(
      value,
      async () => {
        turns++
      },
      10
    )
    // 30 products in slices of 10.
    expect(turns).toBe(3)
    for (const p of [...value.create, ...value.update]) {
      expect(Object.isFrozen(p)).toBe(true)
      expect(Object.isFrozen(p.input.variants[0])).toBe(true)
    }
    const handle = sealForHandOver(value)
    expect(Object.isFrozen(value) && Object.isFrozen(value.create) && Object.isFrozen(value.pricing)).toBe(true)
    expect(takeHandedOver(handle)).toEqual(plan())
    forgetHandOver(handle)
  })
})
