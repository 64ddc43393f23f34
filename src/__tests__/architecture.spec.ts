// The layout's rules, checked on the source (tests excluded): dependencies point one way
// (api / runtime → sync-run → workflows → data module), with no cycle, no require(), and the
// environment read in one file. A failure lists every offending file and line.
import fs from "node:fs"
import path from "node:path"
import {
  buildImportGraph,
  findCycles,
  layerViolations,
  parseLayerTable,
  readSourceFacts,
  sourceFiles,
  usesSql,
  type SourceFacts,
} from "../../scripts/import-graph"

const SRC = path.resolve(__dirname, "..")
const rel = (file: string) => path.relative(SRC, file).split(path.sep).join("/")

// Shipped code only: tests and their helpers may do what they need.
const files = sourceFiles(SRC, (relative) => relative.split(path.sep).includes("__tests__"))
const facts = new Map<string, SourceFacts>(files.map((f) => [f, readSourceFacts(f)]))
const factsOf = (file: string) => facts.get(file)!

describe("architecture of src/", () => {
  it("reads the source (sanity: the rules below would pass on nothing)", () => {
    expect(files.length).toBeGreaterThan(50)
    expect(files.map(rel)).toContain("config/environment.ts")
  })

  it("has no import cycle", () => {
    const cycles = findCycles(buildImportGraph(files, factsOf)).map((cycle) => cycle.map(rel).join(" → "))
    expect(cycles).toEqual([])
  })

  it("has no import cycle through type-only imports either", () => {
    const cycles = findCycles(buildImportGraph(files, factsOf, { types: true })).map((cycle) => cycle.map(rel).join(" → "))
    expect(cycles).toEqual([])
  })

  it("imports only along the layer table of docs/layout.md (type-only imports too)", () => {
    const layers = parseLayerTable(fs.readFileSync(path.resolve(SRC, "..", "docs", "layout.md"), "utf8"))
    expect(layers.map((l) => l.name)).toEqual(expect.arrayContaining(["config", "core", "sql", "run", "queue", "runtime", "http"]))
    expect(layerViolations(SRC, files, factsOf, layers)).toEqual([])
  })

  it("runs SQL in the database-access layer only (bulk-write/ for Medusa's tables, the data module's sql/ for the plugin's), apart from the files listed here (the debt: a new one must be added deliberately)", () => {
    const stillOutside = ["modules/catalog_sync_runtime/service.ts"]
    const inLayer = (f: string) => f.startsWith("bulk-write/") || f.startsWith("modules/catalog_sync/sql/")
    const withSql = files.map(rel).filter((f) => !inLayer(f) && usesSql(fs.readFileSync(path.join(SRC, f), "utf8")))
    expect(withSql.filter((f) => !stillOutside.includes(f))).toEqual([])
    // A file whose SQL moved into the layer leaves the list.
    expect(stillOutside.filter((f) => !withSql.includes(f))).toEqual([])
  })

  it("calls require() nowhere (static imports only)", () => {
    const offenders = files.flatMap((f) => factsOf(f).requireCalls.map((line) => `${rel(f)}:${line}`))
    expect(offenders).toEqual([])
  })

  it("keeps the data module (src/modules/catalog_sync) free of the runtime, the run loop (sync-run), the workflows and the queue", () => {
    const forbidden = ["modules/catalog_sync_runtime/", "workflows/", "queue/", "sync-run/"]
    const offenders = files
      .filter((f) => rel(f).startsWith("modules/catalog_sync/"))
      .flatMap((f) =>
        factsOf(f)
          .imports.filter((i) => i.resolved && forbidden.some((dir) => rel(i.resolved!).startsWith(dir)))
          .map((i) => `${rel(f)}:${i.line} imports ${i.specifier}`)
      )
    expect(offenders).toEqual([])
  })

  it("reads process.env only in config/environment.ts", () => {
    const offenders = files.filter((f) => rel(f) !== "config/environment.ts").flatMap((f) => factsOf(f).processEnv.map((line) => `${rel(f)}:${line}`))
    expect(offenders).toEqual([])
  })

  it("has every source folder in the layout table of docs/layout.md, and no folder there that is gone", () => {
    const section = fs.readFileSync(path.resolve(SRC, "..", "docs", "layout.md"), "utf8")
    const listed = new Set([...section.matchAll(/^\| `src\/([^`]*?)\/?`/gm)].map((m) => m[1]))
    // Folders holding source files; routes under api/ and admin/ are named by their URL and covered by those rows.
    const folders = new Set(
      files.map((f) => path.dirname(rel(f))).filter((dir) => dir !== "." && !/(^|\/)(migrations|models)$/.test(dir) && !/^(api|admin)\/./.test(dir))
    )
    expect([...folders].filter((dir) => !listed.has(dir)).sort()).toEqual([])
    expect([...listed].filter((dir) => !fs.existsSync(path.join(SRC, dir))).sort()).toEqual([])
  })
})
