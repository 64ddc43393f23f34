// Per-product containment stops at a lost database connection or run lock: such a chunk failure
// is no product's, so its items are not written again one by one (nor judged): the page fails.
import { writeInChunks } from "../write-in-chunks"

describe("writeInChunks", () => {
  it("writes a failed chunk's items again one by one, keeping each item's own failure", async () => {
    const calls: string[][] = []
    const bad = Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" })
    const out = await writeInChunks(["a", "b", "c", "d"], 2, async (chunk) => {
      calls.push(chunk)
      if (chunk.includes("b")) throw bad
      return chunk.map((c) => c.toUpperCase())
    })
    expect(out.written.map((w) => w.result).sort()).toEqual(["A", "C", "D"])
    expect(out.failed).toEqual([{ item: "b", error: bad }])
    expect(calls).toContainEqual(["a"])
  })

  it.each([
    ["a terminated connection (57P01)", Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })],
    ["a closed connection", new Error("Connection terminated unexpectedly")],
    ["knex's ended transaction", new Error("Transaction query already complete, run with DEBUG=knex:tx for more info")],
    ["a lost run lock", Object.assign(new Error("catalog sync run r1 no longer holds the run lock"), { code: "lost_run_lock" })],
  ])("fails the page on %s, without trying the chunk's items alone", async (_what, lost) => {
    const calls: string[][] = []
    const write = writeInChunks(["a", "b", "c", "d"], 2, async (chunk) => {
      calls.push(chunk)
      if (chunk.includes("b")) throw lost
      return chunk
    })
    await expect(write).rejects.toBe(lost)
    expect(calls.every((c) => c.length === 2)).toBe(true)
  })

  it("fails the page when an item tried alone meets a lost connection", async () => {
    const lost = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })
    const bad = Object.assign(new Error("value too long for type character varying(255)"), { code: "22001" })
    const write = writeInChunks(["a", "b"], 1, async () => {
      throw bad
    })
    // One chunk of two: tried alone, the first item's own failure is kept …
    await expect(write).resolves.toMatchObject({ failed: [{ item: "a" }, { item: "b" }] })
    let n = 0
    const lostLater = writeInChunks(["a", "b"], 1, async () => {
      n++
      throw n === 1 ? bad : lost
    })
    // … and a lost connection while trying them alone fails the page.
    await expect(lostLater).rejects.toBe(lost)
  })
})
