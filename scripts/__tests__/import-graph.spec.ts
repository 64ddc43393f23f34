// The import-graph reader the architecture tests rely on: it must find a real cycle, tell type-only
// imports (erased at compile time) apart and still find their cycles, and see require() and process.env.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { buildImportGraph, findCycles, layerViolations, parseLayerTable, readSourceFacts, sourceFiles, usesSql } from "../import-graph"

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mcs-import-graph-"))
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true })
    fs.writeFileSync(path.join(root, name), text)
  }
  return root
}

const names = (root: string, cycle: string[]) => cycle.map((f) => path.relative(root, f))

describe("import graph", () => {
  it("finds a cycle through three files, folders and index files included", () => {
    const root = tree({
      "a.ts": `import { b } from "./lib/b"\nexport const a = b`,
      "lib/b.ts": `export { c as b } from "../c"`,
      "c/index.ts": `import * as a from "../a"\nexport const c = () => a`,
      "d.ts": `import { a } from "./a"\nexport const d = a`,
    })
    const cycles = findCycles(buildImportGraph(sourceFiles(root)))
    expect(cycles.map((c) => names(root, c))).toEqual([["a.ts", "lib/b.ts", "c/index.ts", "a.ts"]])
  })

  it("finds a cycle closed by a dynamic import or a require, and a file importing itself", () => {
    const root = tree({
      "x.ts": `export async function x() { return import("./y") }`,
      "y.ts": `const x = require("./x")\nexport const y = x`,
      "self.ts": `import "./self"`,
    })
    const cycles = findCycles(buildImportGraph(sourceFiles(root))).map((c) => names(root, c))
    expect(cycles).toEqual(
      expect.arrayContaining([
        ["x.ts", "y.ts", "x.ts"],
        ["self.ts", "self.ts"],
      ])
    )
    expect(cycles).toHaveLength(2)
  })

  it("ignores imports that are erased (type-only) and packages", () => {
    const root = tree({
      "a.ts": `import type { B } from "./b"\nimport { type C } from "./c"\nimport ts from "typescript"\nexport type A = B | C`,
      "b.ts": `import { a } from "./a-value"\nexport type B = string\nexport type { A } from "./a"`,
      "c.ts": `export type C = number`,
      "a-value.ts": `export const a = 1`,
    })
    expect(findCycles(buildImportGraph(sourceFiles(root)))).toEqual([])
  })

  it("finds the same files' type-only cycle when asked for type imports too", () => {
    const root = tree({
      "a.ts": `import type { B } from "./b"\nimport { type C } from "./c"\nimport ts from "typescript"\nexport type A = B | C`,
      "b.ts": `import { a } from "./a-value"\nexport type B = string\nexport type { A } from "./a"`,
      "c.ts": `export type C = number`,
      "a-value.ts": `export const a = 1`,
    })
    expect(findCycles(buildImportGraph(sourceFiles(root), readSourceFacts, { types: true })).map((c) => names(root, c))).toEqual([["a.ts", "b.ts", "a.ts"]])
  })

  it("reports require() calls and process.env reads with their lines", () => {
    const root = tree({ "e.ts": `const a = 1\nconst pg = require("pg")\nexport const url = process.env.URL\nif (require.main === module) {}` })
    const facts = readSourceFacts(path.join(root, "e.ts"))
    expect(facts.requireCalls).toEqual([2])
    expect(facts.processEnv).toEqual([3])
  })

  it("finds an import against the layer table, a type-only one too, and a folder in no layer", () => {
    const table = [
      "| Layer | Folders of `src/` | May import |",
      "|---|---|---|",
      "| core | `sync` | nothing |",
      "| run | `sync-run` | core |",
      "| queue | `queue`, `modules/runtime` | run, core |",
    ].join("\n")
    const layers = parseLayerTable(`# Layout\n\n${table}\n\nmore text`)
    expect(layers).toEqual([
      { name: "core", folders: ["sync"], mayImport: [] },
      { name: "run", folders: ["sync-run"], mayImport: ["core"] },
      { name: "queue", folders: ["queue", "modules/runtime"], mayImport: ["run", "core"] },
    ])
    const root = tree({
      "sync/a.ts": `export const a = 1`,
      "sync/b.ts": `import { a } from "./a"\nexport const b = a`,
      "sync-run/run.ts": `import { a } from "../sync/a"\nimport type { Q } from "../queue/q"\nexport const r = a`,
      "queue/q.ts": `import { r } from "../sync-run/run"\nexport type Q = typeof r`,
      "modules/runtime/s.ts": `import { q } from "../../queue/q"`,
      "stray/x.ts": `export const x = 1`,
    })
    expect(layerViolations(root, sourceFiles(root), readSourceFacts, layers)).toEqual([
      "stray: in no layer of the table",
      "sync-run/run.ts:2 (run) imports ../queue/q (queue)",
    ])
  })

  it("tells a file that runs SQL", () => {
    expect(usesSql(`import type { Knex } from "knex"`)).toBe(true)
    expect(usesSql(`const db = knexOf(container)`)).toBe(true)
    expect(usesSql(`container.resolve(ContainerRegistrationKeys.PG_CONNECTION)`)).toBe(true)
    expect(usesSql(`await trx.raw("select 1")`)).toBe(true)
    expect(usesSql(`const rows = await service.listCatalogProductMaps({})`)).toBe(false)
  })
})
