// The bulk writer's translation insert (src/bulk-write/translations.ts) against the translation
// module's own createTranslations: the same input through both, every row compared column by
// column (ids by their format, created_at / updated_at by presence).
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, runMedusaCommand } from "../harness"

jest.setTimeout(300_000)

const SCRIPT = path.join(__dirname, "bulk-write", "translations.exec.ts")

describe("translation rows written in bulk are the module's rows", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let out: any

  beforeAll(async () => {
    db = await createTestDatabase("translation_rows")
    const file = path.join(os.tmpdir(), `translation-rows-${process.pid}.json`)
    await runMedusaCommand(["exec", SCRIPT, file], { DATABASE_URL: db.url }, 240_000)
    out = JSON.parse(fs.readFileSync(file, "utf8"))
    fs.rmSync(file, { force: true })
  })

  afterAll(async () => {
    await db?.drop()
  })

  it("inserts the rows createTranslations writes: locale normalized, translations as jsonb, translated fields counted", () => {
    expect(out.sql).toEqual(out.module)
    // Not vacuous: six rows, the lower-case locale normalized, the counts not all alike.
    expect(out.sql).toHaveLength(6)
    expect(out.sql.map((r: any) => r.locale_code)).toContain("uk-UA")
    expect(new Set(out.sql.map((r: any) => r.translated_field_count)).size).toBeGreaterThan(1)
    expect(out.sql.find((r: any) => r.reference_id === "prod_<tag>_1")).toMatchObject({
      id: "<trans>",
      reference: "product",
      translations: { title: "Кроссовки <tag>", description: "Описание", subtitle: "Подзаголовок" },
      created_at: "<ts>",
      updated_at: "<ts>",
      deleted_at: null,
    })
  })

  it("returns the new ids, and the module reads those rows back", () => {
    expect(out.ids).toHaveLength(6)
    expect(out.listed.map((r: any) => r.reference_id).sort()).toEqual(out.sql.map((r: any) => r.reference_id).sort())
  })
})
