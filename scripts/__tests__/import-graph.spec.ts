// The import-graph reader the architecture tests rely on: it must find a real cycle, tell type-only
// imports (erased at compile time) apart and still find their cycles, and see require() and process.env.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { buildImportGraph, findCycles, readSourceFacts, sourceFiles } from "../import-graph"

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
    expect(cycles).toEqual(expect.arrayContaining([["x.ts", "y.ts", "x.ts"], ["self.ts", "self.ts"]]))
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
})
