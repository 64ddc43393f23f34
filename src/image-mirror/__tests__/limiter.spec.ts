import { concurrencyLimit } from "../limiter"

describe("concurrencyLimit", () => {
  it("never runs more than the limit at once and runs every task", async () => {
    const limit = concurrencyLimit(4)
    let running = 0
    let peak = 0
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limit.run(async () => {
          running++
          peak = Math.max(peak, running)
          await new Promise((r) => setTimeout(r, 5))
          running--
          return i
        })
      )
    )
    expect(peak).toBe(4)
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(limit.active).toBe(0)
  })

  it("frees the slot of a task that throws", async () => {
    const limit = concurrencyLimit(1)
    await expect(limit.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom")
    await expect(limit.run(async () => 1)).resolves.toBe(1)
  })
})
