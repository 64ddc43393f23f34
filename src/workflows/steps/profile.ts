// Optional timing of the sync's module calls (CATALOG_SYNC_PROFILE=1), for benchmarks.
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { readEnvironment } from "../../config/environment"

export async function timed<T>(container: MedusaContainer, label: string, fn: () => Promise<T>): Promise<T> {
  if (readEnvironment().CATALOG_SYNC_PROFILE !== "1") return fn()
  const started = Date.now()
  try {
    return await fn()
  } finally {
    ;(container.resolve("logger") as Logger).info(`catalog sync profile: ${label} ${Date.now() - started} ms`)
  }
}
