// The import graph of a source tree, read with the TypeScript parser (no build, no type check):
// which file imports which, and the cycles in it. Used by the architecture tests
// (src/__tests__/architecture.spec.ts) to keep every dependency pointing one way.
//
// Run-time imports and type-only ones (`import type`, `export type`, imports whose names are all
// `type`) are kept apart: a type-only import is erased by the compiler, but a cycle through one
// still ties the two files' designs together, so the architecture test forbids both kinds.
import fs from "node:fs"
import path from "node:path"
import ts from "typescript"

/** One import of a file: the specifier as written and the file it resolves to (null: a package). */
export type ImportEdge = { specifier: string; resolved: string | null; line: number }

export type SourceFacts = {
  /** Run-time imports (static, `export … from`, dynamic `import()`). */
  imports: ImportEdge[]
  /** Type-only imports and exports (erased at build time). */
  typeImports: ImportEdge[]
  /** Lines of calls to `require(…)`. */
  requireCalls: number[]
  /** Lines that mention `process.env`. */
  processEnv: number[]
}

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".mjs"]

/** Every source file under `root` (absolute paths), skipping what `skip` says. */
export function sourceFiles(root: string, skip: (relative: string) => boolean = () => false): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      const relative = path.relative(root, full)
      if (skip(relative)) continue
      if (entry.isDirectory()) walk(full)
      else if (EXTENSIONS.some((e) => entry.name.endsWith(e)) && !entry.name.endsWith(".d.ts")) out.push(full)
    }
  }
  walk(root)
  return out.sort()
}

/** The file a relative specifier names (with TypeScript's extension and index rules), or null. */
export function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null
  const base = path.resolve(path.dirname(fromFile), specifier)
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, "index" + e))]
  // "./x.js" written for "./x.ts" (Node16 style).
  if (/\.(m|c)?js$/.test(base)) candidates.push(...EXTENSIONS.map((e) => base.replace(/\.(m|c)?js$/, e)))
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause
  if (!clause) return false // `import "./side-effect"` runs
  if (clause.isTypeOnly) return true
  if (clause.name) return false
  const bindings = clause.namedBindings
  if (!bindings) return false
  if (ts.isNamespaceImport(bindings)) return false
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true
  const clause = node.exportClause
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)
}

/** What one file imports at run time, where it calls require() and where it reads process.env. */
export function readSourceFacts(file: string, text = fs.readFileSync(file, "utf8")): SourceFacts {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const facts: SourceFacts = { imports: [], typeImports: [], requireCalls: [], processEnv: [] }
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
  const edge = (specifier: string, node: ts.Node): ImportEdge => ({ specifier, resolved: resolveSpecifier(file, specifier), line: lineOf(node) })
  const addImport = (specifier: string, node: ts.Node) => facts.imports.push(edge(specifier, node))
  const addTypeImport = (specifier: string, node: ts.Node) => facts.typeImports.push(edge(specifier, node))
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (isTypeOnlyImport(node)) addTypeImport(node.moduleSpecifier.text, node)
      else addImport(node.moduleSpecifier.text, node)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (isTypeOnlyExport(node)) addTypeImport(node.moduleSpecifier.text, node)
      else addImport(node.moduleSpecifier.text, node)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression
      if (!node.isTypeOnly && ts.isStringLiteral(expr)) addImport(expr.text, node)
    } else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
        addImport(node.arguments[0].text, node)
      } else if (ts.isIdentifier(node.expression) && node.expression.text === "require") {
        facts.requireCalls.push(lineOf(node))
        const arg = node.arguments[0]
        if (arg && ts.isStringLiteralLike(arg)) addImport(arg.text, node)
      }
    } else if (ts.isPropertyAccessExpression(node) && node.name.text === "env" && ts.isIdentifier(node.expression) && node.expression.text === "process") {
      facts.processEnv.push(lineOf(node))
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return facts
}

/** file → the files it imports at run time (inside the tree only). */
export type ImportGraph = Map<string, Set<string>>

/** The graph of run-time imports, or with `{ types: true }` of every import, type-only ones too. */
export function buildImportGraph(
  files: string[],
  facts: (file: string) => SourceFacts = readSourceFacts,
  { types = false }: { types?: boolean } = {}
): ImportGraph {
  const inTree = new Set(files)
  const graph: ImportGraph = new Map()
  for (const file of files) {
    const edges = types ? [...facts(file).imports, ...facts(file).typeImports] : facts(file).imports
    graph.set(file, new Set(edges.map((i) => i.resolved).filter((r): r is string => !!r && inTree.has(r))))
  }
  return graph
}

/**
 * Every cycle of the graph, one per strongly connected component of two or more files (or a
 * file importing itself), as a path that starts and ends at the same file. Tarjan's algorithm,
 * iterative so a deep tree cannot overflow the stack.
 */
export function findCycles(graph: ImportGraph): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work: { node: string; edges: string[]; next: number }[] = []
    const enter = (node: string) => {
      index.set(node, counter)
      low.set(node, counter)
      counter++
      stack.push(node)
      onStack.add(node)
      work.push({ node, edges: [...(graph.get(node) ?? [])], next: 0 })
    }
    enter(start)
    while (work.length) {
      const frame = work[work.length - 1]
      if (frame.next < frame.edges.length) {
        const to = frame.edges[frame.next++]
        if (!index.has(to)) enter(to)
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!))
        continue
      }
      work.pop()
      if (work.length) {
        const parent = work[work.length - 1].node
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!))
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) components.push(component)
      }
    }
  }
  return components.map((component) => cyclePath(graph, new Set(component)))
}

/** A concrete cycle through a strongly connected component (breadth-first back to its first file). */
function cyclePath(graph: ImportGraph, members: Set<string>): string[] {
  const first = [...members].sort()[0]
  const previous = new Map<string, string>()
  const queue = [first]
  while (queue.length) {
    const node = queue.shift()!
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue
      if (to === first) {
        const path = [first]
        for (let at: string | undefined = node; at && at !== first; at = previous.get(at)) path.unshift(at)
        path.unshift(first)
        return path
      }
      if (!previous.has(to)) {
        previous.set(to, node)
        queue.push(to)
      }
    }
  }
  return [first, first]
}

/** One row of the layer table in docs/layout.md: a layer, its folders, the layers it may import. */
export type Layer = { name: string; folders: string[]; mayImport: string[] }

/**
 * The layer table of a markdown text: rows `| <name> | \`folder\`, … | <layer>, … or "nothing" |`
 * under a header row whose first cell is "Layer".
 */
export function parseLayerTable(markdown: string): Layer[] {
  const lines = markdown.split("\n")
  const start = lines.findIndex((l) => /^\|\s*Layer\s*\|/.test(l))
  if (start < 0) return []
  const layers: Layer[] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break
    const [name, folders, mayImport] = line
      .split("|")
      .slice(1, 4)
      .map((c) => c.trim())
    layers.push({
      name,
      folders: [...folders.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\/$/, "")),
      mayImport:
        mayImport === "nothing"
          ? []
          : mayImport
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean),
    })
  }
  return layers
}

/** The folder a file belongs to in the layer table: its first folder under root (two under `modules/`). */
export function layerFolderOf(root: string, file: string): string {
  const parts = path.relative(root, file).split(path.sep)
  if (parts.length === 1) return "."
  return parts[0] === "modules" ? parts.slice(0, 2).join("/") : parts[0]
}

/**
 * Every import (type-only ones too) from a folder to another whose layer is neither its own nor
 * one it may import, and every folder the table does not name.
 */
export function layerViolations(root: string, files: string[], facts: (file: string) => SourceFacts, layers: Layer[]): string[] {
  const layerOf = new Map<string, Layer>()
  for (const layer of layers) for (const folder of layer.folders) layerOf.set(folder, layer)
  const out = new Set<string>()
  for (const file of files) {
    const from = layerFolderOf(root, file)
    const own = layerOf.get(from)
    if (!own) {
      out.add(`${from}: in no layer of the table`)
      continue
    }
    for (const edge of [...facts(file).imports, ...facts(file).typeImports]) {
      if (!edge.resolved || !edge.resolved.startsWith(root + path.sep)) continue
      const to = layerOf.get(layerFolderOf(root, edge.resolved))
      if (!to || to === own || own.mayImport.includes(to.name)) continue
      out.add(`${path.relative(root, file)}:${edge.line} (${own.name}) imports ${edge.specifier} (${to.name})`)
    }
  }
  return [...out].sort()
}

/** Whether a file's text reaches PostgreSQL itself (knex, Medusa's connection, raw SQL). */
export function usesSql(text: string): boolean {
  return /from "knex"|knexOf\(|PG_CONNECTION|\.raw\(/.test(text)
}
