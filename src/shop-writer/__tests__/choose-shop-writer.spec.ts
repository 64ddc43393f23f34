// The run's writer is chosen once: the option first (the workflows need no schema check), then
// the schema guard; inside a run every write gets the run's writer without choosing again.
import type { MedusaContainer } from "@medusajs/framework/types"
import { chooseWritePath, configureWritePath, runWritePath, shopWriter, withWritePath } from "../choose-shop-writer"
import { BulkShopWriter } from "../bulk/bulk-shop-writer"
import { CoreFlowsShopWriter } from "../core-flows/core-flows-shop-writer"

/** A container nothing may resolve from: a writer handed down must not look anything up. */
const untouchable = {
  resolve: () => {
    throw new Error("resolved from the container")
  },
} as unknown as MedusaContainer

const guardWith = (differences: { table: string; column: string | null }[]) => {
  const guard = jest.fn(async () => ({ differences, checkedAt: "now" }))
  return guard
}

describe("chooseWritePath", () => {
  it("takes the workflows when the option says so, without a schema check", async () => {
    configureWritePath("workflows")
    const guard = guardWith([])
    expect(await chooseWritePath(untouchable, guard)).toBe("workflows")
    expect(guard).not.toHaveBeenCalled()
  })

  it("takes the bulk writer when chosen and the schema matches, the workflows when it differs", async () => {
    configureWritePath("bulk")
    const matching = guardWith([])
    expect(await chooseWritePath(untouchable, matching)).toBe("bulk")
    expect(matching).toHaveBeenCalledTimes(1)
    expect(await chooseWritePath(untouchable, guardWith([{ table: "product", column: "handle" }]))).toBe("workflows")
  })
})

describe("a run's writer", () => {
  it("is the run's choice for every write inside the run, across awaits and timers, with nothing looked up again", async () => {
    configureWritePath("bulk")
    const seen = await withWritePath("workflows", async () => {
      const first = await shopWriter(untouchable)
      await new Promise((resolve) => setTimeout(resolve, 1))
      const later = await Promise.all([shopWriter(untouchable), shopWriter(untouchable)])
      return [first, ...later]
    })
    for (const writer of seen) expect(writer).toBeInstanceOf(CoreFlowsShopWriter)
    expect(runWritePath()).toBeUndefined()
    expect(await withWritePath("bulk", () => shopWriter(untouchable))).toBeInstanceOf(BulkShopWriter)
  })
})
