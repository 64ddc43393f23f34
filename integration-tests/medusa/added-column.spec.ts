// A column added to the product column description alone reaches Medusa's product table through
// both write paths, on create and on update (the unit side: src/workflows/page/__tests__/adding-a-field.spec.ts).
// The description is extended in the script's process before the writers load (bulk-write/added-column.exec.ts).
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "../harness"

jest.setTimeout(300_000)

describe("a column added to the description alone lands in Medusa's product table", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let out: any

  beforeAll(async () => {
    db = await createTestDatabase("added_column")
    const file = path.join(os.tmpdir(), `added-column-${process.pid}.json`)
    await runMedusaCommand(["exec", path.join(__dirname, "bulk-write", "added-column.exec.ts"), file], { DATABASE_URL: db.url }, 240_000)
    out = JSON.parse(fs.readFileSync(file, "utf8"))
    fs.rmSync(file, { force: true })
  })

  afterAll(async () => {
    await db?.drop()
  })

  it("is written by the bulk insert and by createProductsWorkflow", () => {
    expect(out.created).toEqual(["6403.99", "6403.99"])
  })

  it("is updated by the bulk fields write and by the core-flows update workflow", () => {
    expect(out.bulkUpdate).toEqual({ written: 1, rest: 0 })
    expect(out.updated).toEqual(["6404.11", "6404.11"])
  })
})
