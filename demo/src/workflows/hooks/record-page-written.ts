// A consumer of the page workflow's `pageWritten` hook, for tests: when
// CATALOG_SYNC_TEST_PAGE_WRITTEN_FILE is set, each page's hook input ({ runId, products }) is
// appended to that file as one JSON line. Without the variable it does nothing. (Medusa takes one
// handler per hook: a shop built on the demo replaces this file with its own.)
import { appendFileSync } from "node:fs"
import { syncCatalogPageWorkflow } from "medusa-catalog-sync/workflows"

syncCatalogPageWorkflow.hooks.pageWritten(async ({ runId, products }) => {
  const file = process.env.CATALOG_SYNC_TEST_PAGE_WRITTEN_FILE
  if (!file) return
  appendFileSync(file, JSON.stringify({ runId, products }) + "\n")
  // What a hook is given is its own: changing it must not fail the page (nor reach other readers).
  for (const p of products) (p.variantIds as Record<string, string>)["hook-was-here"] = "1"
})
