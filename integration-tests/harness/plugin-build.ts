import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { MEDUSA_BIN, PLUGIN_BUILD_DIR, REPO_ROOT } from "./paths"

const SOURCE_DIR = path.join(REPO_ROOT, "src")
/** What the build was made from: written after a successful build. */
const STAMP = path.join(PLUGIN_BUILD_DIR, ".built-from-src")

/** The source files (dotfiles, editor locks and swap files left out), each with its time and size. */
function sourceFiles(dir = SOURCE_DIR, out: { name: string; mtimeMs: number; size: number }[] = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name.endsWith(".swp") || entry.name.endsWith("~")) continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) sourceFiles(full, out)
    else if (entry.isFile()) {
      const stat = fs.lstatSync(full)
      out.push({ name: path.relative(SOURCE_DIR, full), mtimeMs: stat.mtimeMs, size: stat.size })
    }
  }
  return out
}

/** Names, times and sizes of the source files: a file added, changed, deleted or renamed changes it. */
function sourceSignature(files: ReturnType<typeof sourceFiles>): string {
  const lines = files.map((f) => `${f.name}\t${f.mtimeMs}\t${f.size}`).sort()
  return createHash("sha256").update(lines.join("\n")).digest("hex")
}

let checked = false

/**
 * The demo app loads the plugin from .medusa/server. Tests and benchmarks build it when it is
 * absent or was made from other sources than src/ holds now (else an app would run yesterday's
 * code while a spec that imports src/ directly runs today's); set MCS_REBUILD=1 to force a
 * rebuild. Checked once per process, so the apps of one bench run all load the same build.
 */
export function ensurePluginBuilt(): void {
  if (checked) return
  checked = true
  const files = sourceFiles()
  const signature = sourceSignature(files)
  const marker = path.join(PLUGIN_BUILD_DIR, "src", "modules", "catalog_sync", "index.js")
  if (process.env.MCS_REBUILD !== "1" && fs.existsSync(marker)) {
    const stamp = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, "utf8") : null
    if (stamp === signature) return
    // A build made by `npm run build` (CI builds before testing) is current when it is newer than
    // every source file; stamped now, so a later deletion or rename counts.
    if (stamp === null && fs.statSync(marker).mtimeMs >= Math.max(0, ...files.map((f) => f.mtimeMs))) {
      fs.writeFileSync(STAMP, signature)
      return
    }
  }
  // Throws when the build fails: no stamp, so the next run builds again.
  execFileSync(MEDUSA_BIN, ["plugin:build"], { cwd: REPO_ROOT, stdio: "inherit" })
  fs.writeFileSync(STAMP, signature)
}
