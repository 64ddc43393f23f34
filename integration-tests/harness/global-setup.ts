import { ensureTemplateDatabase } from "./database"
import { ensurePluginBuilt } from "./plugin-build"

export default async function globalSetup() {
  ensurePluginBuilt()
  // The default schema's template, migrated once before any worker starts: parallel workers
  // then only clone it, and no spec's hook timeout includes another worker's migration.
  await ensureTemplateDatabase()
}
