import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { MEDUSA_BIN, PLUGIN_BUILD_DIR, REPO_ROOT } from "./paths"

/** The newest modification time of the files under a folder (0 when there are none). */
function newestMtimeMs(dir: string): number {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(full) : fs.statSync(full).mtimeMs)
  }
  return newest
}

/**
 * The demo app loads the plugin from .medusa/server. Tests and benchmarks build it when it is
 * absent or older than a file under src/ (else an app would run yesterday's code while a spec
 * that imports src/ directly runs today's); set MCS_REBUILD=1 to force a rebuild.
 */
export function ensurePluginBuilt(): void {
  const marker = path.join(PLUGIN_BUILD_DIR, "src", "modules", "catalog_sync", "index.js")
  const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : -1
  if (process.env.MCS_REBUILD !== "1" && built >= newestMtimeMs(path.join(REPO_ROOT, "src"))) return
  execFileSync(MEDUSA_BIN, ["plugin:build"], { cwd: REPO_ROOT, stdio: "inherit" })
}
