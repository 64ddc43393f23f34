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

/** With CATALOG_SYNC_PROFILE=1: workflow run events that log each step's time (else none). */
export function stepTimings(container: MedusaContainer, workflow: string) {
  if (readEnvironment().CATALOG_SYNC_PROFILE !== "1") return undefined
  const logger = container.resolve("logger") as Logger
  const began = new Map<string, number>()
  const name = (step: { id: string; definition?: { action?: string } }) => step.definition?.action ?? step.id
  return {
    onStepBegin: ({ step }: { step: { id: string; definition?: { action?: string } } }) => void began.set(step.id, Date.now()),
    onStepSuccess: ({ step }: { step: { id: string; definition?: { action?: string } } }) => {
      const at = began.get(step.id)
      if (at !== undefined) logger.info(`catalog sync profile: ${workflow} step ${name(step)} ${Date.now() - at} ms`)
    },
  }
}
