// "Another plugin" extending Medusa's product workflows, for tests: when
// CATALOG_SYNC_TEST_WORKFLOW_HOOKS_FILE is set, each run of these core-flows hooks appends one JSON
// line ({ hook, ids }) to that file. Without the variable it does nothing. The workflows write
// path (writePath "workflows") must run them for synced products; the bulk path cannot.
import { appendFileSync } from "node:fs"
import {
  createProductsWorkflow,
  createProductVariantsWorkflow,
  deleteProductsWorkflow,
  deleteProductVariantsWorkflow,
  updateProductsWorkflow,
  updateProductVariantsWorkflow,
} from "@medusajs/medusa/core-flows"

function record(hook: string, ids: string[]) {
  const file = process.env.CATALOG_SYNC_TEST_WORKFLOW_HOOKS_FILE
  if (file) appendFileSync(file, JSON.stringify({ hook, ids }) + "\n")
}
const idsOf = (rows: unknown) => ((rows ?? []) as { id: string }[]).map((r) => r.id)

createProductsWorkflow.hooks.productsCreated(async ({ products }) => record("productsCreated", idsOf(products)))
updateProductsWorkflow.hooks.productsUpdated(async ({ products }) => record("productsUpdated", idsOf(products)))
createProductVariantsWorkflow.hooks.productVariantsCreated(async ({ product_variants }) => record("productVariantsCreated", idsOf(product_variants)))
updateProductVariantsWorkflow.hooks.productVariantsUpdated(async ({ product_variants }) => record("productVariantsUpdated", idsOf(product_variants)))
deleteProductVariantsWorkflow.hooks.productVariantsDeleted(async ({ ids }) => record("productVariantsDeleted", ids as string[]))
deleteProductsWorkflow.hooks.productsDeleted(async ({ ids }) => record("productsDeleted", ids as string[]))
