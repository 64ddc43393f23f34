// Carries out one page's plan against Medusa: creates, updates, stock-only levels and
// removals, each in bulk, then the product-map rows. The caller stores the cursor
// only after this returns (rule 2: commit before moving the bookmark).
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { deleteProductsWorkflow } from "@medusajs/medusa/core-flows"
import type { ChangeItem, RejectedItem } from "../catalog-client/items"
import { isOwnProduct, type MapContext } from "../sync/map-card"
import { planPage, type MapRow, type PagePlan, type PlannedUpsert } from "../sync/plan-page"
import { createCatalogProductsWorkflow } from "../workflows/create-catalog-products"
import type { CreatedProduct, Placement, ProductToUpdate } from "../workflows/page-input"
import type { RemovalMode } from "../workflows/remove-catalog-products"
import { setCatalogStockWorkflow } from "../workflows/set-catalog-stock"
import { updateCatalogProductsWorkflow } from "../workflows/update-catalog-products"
import type { EffectiveSettings } from "../sync/settings"
import { writeConcurrency } from "../sync/write-concurrency"
import type { FidelityHooks, ReferenceMaps, WrittenProduct } from "./fidelity-hooks"
import { catalogSyncService, removeMappedProducts } from "./product-map"

export interface PageContext {
  container: MedusaContainer
  runId: string
  mapContext: MapContext
  placement: Placement
  removalMode: RemovalMode
  /** The full pass this page belongs to (marks products seen for the sweep), or null. */
  fullPassId: string | null
  hooks: FidelityHooks
  refs: ReferenceMaps
  settings: EffectiveSettings
}

export interface PageOutcome {
  plan: PagePlan
  rejected: RejectedItem[]
  /** Milliseconds per part of the write, for the run's log. */
  timings: Record<string, number>
}

/**
 * A page's creates and updates are written as this many concurrent workflows: the product
 * module's ORM work is CPU in this process while PostgreSQL works on the other core, so two
 * halves overlap. Results keep the plan's order.
 */
export const WRITE_CONCURRENCY = writeConcurrency(process.env.CATALOG_SYNC_WRITE_CONCURRENCY)

async function inChunks<T, R>(items: T[], run: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  if (!items.length) return []
  const size = Math.ceil(items.length / WRITE_CONCURRENCY)
  const chunks: T[][] = []
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size))
  const results = await Promise.allSettled(chunks.map(run))
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected")
  if (failed) throw failed.reason
  return results.flatMap((r) => (r as PromiseFulfilledResult<R[]>).value)
}

const MAP_FIELDS = ["id", "catalog_id", "product_id", "variant_ids", "inventory_item_ids", "fingerprint", "stock_fingerprint", "sync_version", "status"]

function strip({ details: _details, ...rest }: PlannedUpsert["input"]) {
  return rest
}

/**
 * Products a crash left behind between the product write and the map write: made by this
 * plugin (metadata marker) for a catalog id being created, but with no active map row. They
 * are deleted so the create is idempotent. A product of another import that merely shares
 * the external_id is left alone.
 */
async function deleteOrphans(container: MedusaContainer, creates: PlannedUpsert[]): Promise<void> {
  if (!creates.length) return
  const products = await container
    .resolve(Modules.PRODUCT)
    .listProducts({ external_id: creates.map((c) => c.catalogId) }, { select: ["id", "external_id", "metadata"], take: null })
  const orphans = products.filter(isOwnProduct)
  if (orphans.length) await deleteProductsWorkflow(container).run({ input: { ids: orphans.map((p) => p.id) } })
}

function mapRowValues(p: PlannedUpsert, written: CreatedProduct, ctx: PageContext, now: Date) {
  return {
    catalog_id: p.catalogId,
    product_id: written.productId,
    sku: p.card.sku,
    variant_ids: written.variantIds,
    inventory_item_ids: written.inventoryItemIds,
    fingerprint: p.fingerprint,
    stock_fingerprint: p.stockFingerprint,
    sync_version: p.card.sync_version,
    status: "active",
    last_run_id: ctx.runId,
    ...(ctx.fullPassId ? { last_seen_pass: ctx.fullPassId } : {}),
    synced_at: now,
  }
}

export async function writePage(items: ChangeItem[], ctx: PageContext): Promise<PageOutcome> {
  const { container } = ctx
  const service = catalogSyncService(container)
  const ids = [...new Set(items.map((i) => i.id))]
  const rows = ids.length ? await service.listCatalogProductMaps({ catalog_id: ids }, { select: MAP_FIELDS, take: null }) : []
  const plan = planPage(items, rows, ctx.mapContext)
  const now = new Date()
  const timings: Record<string, number> = {}
  let mark = Date.now()
  const lap = (name: string) => {
    const t = Date.now()
    timings[name] = t - mark
    mark = t
  }
  lap("plan")

  // Creates
  await deleteOrphans(container, plan.create)
  let created: CreatedProduct[] = []
  if (plan.create.length) {
    created = await inChunks(plan.create, async (chunk) => {
      const { result } = await createCatalogProductsWorkflow(container).run({
        input: { products: chunk.map((p) => ({ catalogId: p.catalogId, input: strip(p.input), stock: p.stock })), placement: ctx.placement },
      })
      return result
    })
  }
  lap("create")

  // Updates
  let updated: CreatedProduct[] = []
  if (plan.update.length) {
    const products: ProductToUpdate[] = plan.update.map((p) => ({
      catalogId: p.catalogId,
      productId: p.row!.product_id!,
      input: strip(p.input),
      stock: p.stock,
      variantIds: p.row!.variant_ids ?? {},
      inventoryItemIds: p.row!.inventory_item_ids ?? {},
      changed: p.changed,
    }))
    updated = await inChunks(products, async (chunk) => {
      const { result } = await updateCatalogProductsWorkflow(container).run({ input: { products: chunk, placement: ctx.placement } })
      return result
    })
  }
  lap("update")

  // Stock only
  if (plan.stockOnly.length) {
    const levels = plan.stockOnly.flatMap((p) =>
      Object.entries(p.stock)
        .filter(([size]) => p.row!.inventory_item_ids?.[size])
        .map(([size, quantity]) => ({ inventoryItemId: p.row!.inventory_item_ids![size], quantity }))
    )
    await setCatalogStockWorkflow(container).run({ input: { levels, stockLocationId: ctx.placement.stockLocationId } })
  }
  lap("stock")

  // Removals
  await removeMappedProducts(container, plan.remove, { mode: ctx.removalMode, hooks: ctx.hooks, runId: ctx.runId, now })
  lap("remove")

  // Fidelity extras (translations, sale prices, categories, brands) for what was written.
  const written: WrittenProduct[] = []
  const pushWritten = (list: PlannedUpsert[], result: CreatedProduct[]) =>
    list.forEach((p, i) =>
      written.push({ catalogId: p.catalogId, productId: result[i].productId, variantIdsBySize: result[i].variantIds, card: p.card, details: p.input.details })
    )
  pushWritten(plan.create, created)
  pushWritten(plan.update, updated)
  if (written.length) await ctx.hooks.applyPageExtras(container, written, { refs: ctx.refs, settings: ctx.settings })
  lap("extras")

  // Product map: last, so a page is "done" only once everything above committed.
  const newRows: Record<string, unknown>[] = []
  const rowUpdates: Record<string, unknown>[] = []
  plan.create.forEach((p, i) => {
    const values = mapRowValues(p, created[i], ctx, now)
    if (p.row) rowUpdates.push({ id: p.row.id, ...values })
    else newRows.push(values)
  })
  plan.update.forEach((p, i) => rowUpdates.push({ id: p.row!.id, ...mapRowValues(p, updated[i], ctx, now) }))
  for (const p of plan.stockOnly) {
    rowUpdates.push({
      id: p.row!.id,
      stock_fingerprint: p.stockFingerprint,
      sync_version: p.card.sync_version,
      last_run_id: ctx.runId,
      ...(ctx.fullPassId ? { last_seen_pass: ctx.fullPassId } : {}),
      synced_at: now,
    })
  }
  if (newRows.length) await service.createCatalogProductMaps(newRows)
  if (rowUpdates.length) await service.updateCatalogProductMaps(rowUpdates)
  // Unchanged products cost no Medusa write; during a full pass they are only marked seen.
  if (ctx.fullPassId && plan.unchanged.length) {
    await service.updateCatalogProductMaps({
      selector: { id: plan.unchanged.map((p) => p.row!.id) },
      data: { last_seen_pass: ctx.fullPassId },
    })
  }
  lap("map")
  return { plan, rejected: plan.rejected, timings }
}
