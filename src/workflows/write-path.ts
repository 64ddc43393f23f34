// Which way this process writes product changes: the plugin's bulk SQL (src/bulk-write), or
// Medusa's own core-flows workflows (src/workflows/*-through-core-flows.ts). The shop chooses with the
// writePath option (or CATALOG_SYNC_WRITE_PATH); the schema guard (src/bulk-write/schema-guard.ts) sends every
// write through the workflows when the database is not the one the bulk writer was written for.
import type { MedusaContainer } from "@medusajs/framework/types"
import { parseEnvironment } from "../config/environment"
import type { WritePath } from "../sync/settings/plugin-options"
import { guardSchema } from "../bulk-write/schema-guard"

export type { WritePath }

let configured: WritePath | null = null

/** Set once by the runtime module's loader from the resolved options. */
export function configureWritePath(path: WritePath): void {
  configured = path
}

/** The shop's choice: the option as the loader resolved it, else the environment, else "bulk". */
export function configuredWritePath(): WritePath {
  return configured ?? parseEnvironment().values.CATALOG_SYNC_WRITE_PATH ?? "bulk"
}

/** The path a write takes now: the workflows when chosen, or when the schema differs from the bulk writer's. */
export async function writePathOf(container: MedusaContainer): Promise<WritePath> {
  if (configuredWritePath() === "workflows") return "workflows"
  const guard = await guardSchema(container)
  return guard.differences.length ? "workflows" : "bulk"
}
