import path from "node:path"

export const REPO_ROOT = path.resolve(__dirname, "..", "..")
export const DEMO_DIR = path.join(REPO_ROOT, "demo")
export const PLUGIN_BUILD_DIR = path.join(REPO_ROOT, ".medusa", "server")
export const ARTIFACTS_DIR = path.join(REPO_ROOT, "artifacts")
export const MEDUSA_BIN = path.join(REPO_ROOT, "node_modules", ".bin", "medusa")
