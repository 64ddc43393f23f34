// Which writer a run writes the shop with: the plugin's bulk SQL or Medusa's own core-flows
// workflows (shop-writer.ts). The shop chooses with the writePath option (or
// CATALOG_SYNC_WRITE_PATH); the schema guard (src/bulk-write/schema-guard.ts) sends every write
// through the workflows when the database is not the one the bulk writer was written for.
//
// A run makes the choice once, when it starts (chooseWritePath), and hands it down to everything
// it calls by an async context (withWritePath), as the run lock's fence travels; its pages carry
// it in their workflow input, so a page written on another instance uses the run's writer. Writes
// outside a run (admin routes, setup) choose when they write.
import { AsyncLocalStorage } from "node:async_hooks"
import type { MedusaContainer } from "@medusajs/framework/types"
import { parseEnvironment } from "../config/environment"
import { guardSchema } from "../bulk-write/schema-guard"
import type { ShopWriter, WritePath } from "./shop-writer"
import { BulkShopWriter } from "./bulk/bulk-shop-writer"
import { CoreFlowsShopWriter } from "./core-flows/core-flows-shop-writer"

let configured: WritePath | null = null

/** Set once by the runtime module's loader from the resolved options. */
export function configureWritePath(path: WritePath): void {
  configured = path
}

/** The shop's choice: the option as the loader resolved it, else the environment, else "bulk". */
function configuredWritePath(): WritePath {
  return configured ?? parseEnvironment().values.CATALOG_SYNC_WRITE_PATH ?? "bulk"
}

/** The way writes go now: the workflows when chosen (no schema check), else the schema guard decides. */
export async function chooseWritePath(container: MedusaContainer, guard: typeof guardSchema = guardSchema): Promise<WritePath> {
  if (configuredWritePath() === "workflows") return "workflows"
  const { differences } = await guard(container)
  return differences.length ? "workflows" : "bulk"
}

/** At application start, when the bulk writer is chosen: a schema difference is logged now, not at the first write. */
export async function guardSchemaAtStart(path: WritePath, container: MedusaContainer): Promise<void> {
  if (path === "bulk") await guardSchema(container)
}

const runPaths = new AsyncLocalStorage<WritePath>()

/** Runs `work` with every write inside it going `path`'s way (a run's choice, made once). */
export function withWritePath<T>(path: WritePath, work: () => Promise<T>): Promise<T> {
  return runPaths.run(path, work)
}

/** The write path of the run this code is part of, if any. */
export function runWritePath(): WritePath | undefined {
  return runPaths.getStore()
}

/** The writer of one path (the factory). */
function shopWriterFor(container: MedusaContainer, path: WritePath): ShopWriter {
  return path === "workflows" ? new CoreFlowsShopWriter(container) : new BulkShopWriter(container)
}

/** The writer of the run this code is part of; outside a run, chosen now. */
export async function shopWriter(container: MedusaContainer): Promise<ShopWriter> {
  return shopWriterFor(container, runWritePath() ?? (await chooseWritePath(container)))
}
