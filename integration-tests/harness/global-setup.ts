import { ensurePluginBuilt } from "./plugin-build"

export default async function globalSetup() {
  ensurePluginBuilt()
}
