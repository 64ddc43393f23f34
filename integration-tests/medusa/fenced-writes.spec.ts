// Fenced page writes (src/bulk-write/write-fence.ts) against a real Medusa database: a run's lock
// held on its own connection, that connection ended with pg_terminate_backend in the middle of a
// page, and Medusa's tables read by SQL: on the bulk path the transaction the loss happened in
// commits nothing and the next write is refused, the products of a bulk write that rolled back are
// not written one by one after the loss; on the workflows path the write after the loss
// (Medusa's own workflow) is refused before it starts. The script: bulk-write/fenced-writes.exec.ts.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "../harness"

jest.setTimeout(300_000)

describe("a run that lost its lock writes nothing of its page", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let out: any

  beforeAll(async () => {
    db = await createTestDatabase("fenced_writes")
    const file = path.join(os.tmpdir(), `fenced-writes-${process.pid}.json`)
    await runMedusaCommand(["exec", path.join(__dirname, "bulk-write", "fenced-writes.exec.ts"), file], { DATABASE_URL: db.url }, 240_000)
    out = JSON.parse(fs.readFileSync(file, "utf8"))
    fs.rmSync(file, { force: true })
  })

  afterAll(async () => {
    await db?.drop()
  })

  it("bulk path: written while the lock is held; the transaction the lock was lost in and every later one commit nothing", () => {
    expect(out.bulkHeld).toBe("written")
    expect(out.bulkHeldRows.products).toBe(1)
    expect(out.bulkHeldRows.prices).toBeGreaterThan(0)
    expect(out.bulkCut).toBe("lost_run_lock")
    expect(out.bulkCutRows).toEqual({ products: 0, variants: 0, prices: 0 })
    expect(out.bulkAfter).toBe("lost_run_lock")
    expect(out.bulkAfterRows).toEqual({ products: 0, variants: 0, prices: 0 })
  })

  it("bulk path's one-by-one way: a page whose bulk create rolled back after the loss writes none of its products one by one", () => {
    // The trigger fired once (the bulk insert), so nothing else reached the product table.
    expect(out.fallbackCutOnce).toBe(1)
    expect(out.fallback).toBe("lost_run_lock")
    expect(out.fallbackRows).toEqual({ products: 0, variants: 0, prices: 0 })
  })

  it("workflows path: Medusa's workflow writes while held; after the loss the next workflow write is refused and changes nothing", () => {
    expect(out.flowsHeld).toBe("written")
    expect(out.flowsHeldRows.products).toBe(1)
    expect(out.levelsBefore.length).toBeGreaterThan(0)
    expect(out.levelsBefore.every((l: { q: number }) => l.q !== 77)).toBe(true)
    expect(out.flowsStock).toBe("lost_run_lock")
    expect(out.levelsAfter).toEqual(out.levelsBefore)
  })
})
