import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { MEDUSA_BIN, PLUGIN_BUILD_DIR, REPO_ROOT } from "./paths"

/**
 * The demo app loads the plugin from .medusa/server. Tests build it once when absent
 * (CI builds before testing); set MCS_REBUILD=1 to force a rebuild.
 */
export function ensurePluginBuilt(): void {
  const marker = path.join(PLUGIN_BUILD_DIR, "src", "modules", "catalog_sync", "index.js")
  if (process.env.MCS_REBUILD !== "1" && fs.existsSync(marker)) return
  execFileSync(MEDUSA_BIN, ["plugin:build"], { cwd: REPO_ROOT, stdio: "inherit" })
}
