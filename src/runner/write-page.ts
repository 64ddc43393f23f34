// Carries out one page's plan against Medusa: creates, updates, stock-only levels and
// removals, each in bulk, then the product-map rows. The caller stores the cursor
// only after this returns (rule 2: commit before moving the bookmark).
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { deleteProductsWorkflow } from "@medusajs/medusa/core-flows"
import type { ChangeItem, RejectedItem } from "../catalog-client/items"
import { isOwnProduct, type MapContext } from "../sync/map-card"
import { planPage, shrinkingRows, type MapRow, type PagePlan, type PlannedUpsert } from "../sync/plan-page"
import { createCatalogProductsWorkflow } from "../workflows/create-catalog-products"
import type { CreatedProduct, Placement, ProductToUpdate } from "../workflows/page-input"
import type { RemovalMode } from "../workflows/remove-catalog-products"
import { setCatalogStockWorkflow } from "../workflows/set-catalog-stock"
import { updateCatalogProductsWorkflow } from "../workflows/update-catalog-products"
import { resolveVariantSkus } from "../workflows/resolve-variant-skus"
import { syncSizeOptionTranslations } from "../workflows/option-translations"
import type { EffectiveSettings } from "../sync/settings"
import { writeConcurrency } from "../sync/write-concurrency"
import { judgeFailures, needsProbe } from "../sync/write-failures"
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

interface ChunkedWrite<T, R> {
  /** Items written, with their results, in the input order. */
  written: { item: T; result: R }[]
  /** Items whose write failed even alone. */
  failed: { item: T; error: unknown }[]
}

/**
 * Writes items in WRITE_CONCURRENCY concurrent chunks. A chunk whose workflow fails (it
 * compensated, or for updates rewrites the same values again) is written again item by
 * item, so one product that cannot be written does not take the others down with it.
 */
async function writeInChunks<T, R>(items: T[], run: (chunk: T[]) => Promise<R[]>): Promise<ChunkedWrite<T, R>> {
  const out: ChunkedWrite<T, R> = { written: [], failed: [] }
  if (!items.length) return out
  const size = Math.ceil(items.length / WRITE_CONCURRENCY)
  const chunks: T[][] = []
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size))
  const settled = await Promise.allSettled(chunks.map(run))
  for (const [c, chunk] of chunks.entries()) {
    const outcome = settled[c]
    if (outcome.status === "fulfilled") {
      chunk.forEach((item, i) => out.written.push({ item, result: outcome.value[i] }))
      continue
    }
    if (chunk.length === 1) {
      out.failed.push({ item: chunk[0], error: outcome.reason })
      continue
    }
    for (const item of chunk) {
      try {
        const [result] = await run([item])
        out.written.push({ item, result })
      } catch (error) {
        out.failed.push({ item, error })
      }
    }
  }
  return out
}

/** Does the database answer? Proof that a failure of unknown cause was the product's. */
async function databaseAnswers(container: MedusaContainer): Promise<boolean> {
  try {
    const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { raw(sql: string): Promise<unknown> }
    await pg.raw("select 1")
    return true
  } catch {
    return false
  }
}

/** Failures become rejected items of the run, unless their cause is the system's (then the page fails). */
async function rejectOrThrow(container: MedusaContainer, failed: { item: { catalogId: string }; error: unknown }[], writtenCount: number): Promise<RejectedItem[]> {
  const failures = failed.map((f) => ({ catalogId: f.item.catalogId, error: f.error }))
  const healthy = needsProbe(failures, writtenCount) ? await databaseAnswers(container) : false
  const verdict = judgeFailures(failures, writtenCount, healthy)
  if ("fatal" in verdict) throw verdict.fatal
  return verdict.rejected
}

const MAP_FIELDS = ["id", "catalog_id", "product_id", "variant_ids", "inventory_item_ids", "fingerprint", "stock_fingerprint", "sync_version", "status"]

function strip({ details: _details, ...rest }: PlannedUpsert["input"]) {
  return rest
}

/**
 * The product map is checked against the shop before writing. A mapped product that is no longer
 * live (deleted in the admin) is created again. A stock-only write goes to the inventory items the
 * map names; when one of the map's variants or items is no longer live (deleted in the admin, or
 * by an older version that kept deleted ids in the map), the product is written as an update
 * instead, which re-reads the shop's live variants and repairs the map.
 */
async function repairFromShop(container: MedusaContainer, plan: PagePlan): Promise<PagePlan> {
  const mapped = [...plan.update, ...plan.stockOnly]
  if (!mapped.length) return plan
  const variantIds = plan.stockOnly.flatMap((p) => Object.values(p.row!.variant_ids ?? {}))
  const itemIds = plan.stockOnly.flatMap((p) => Object.values(p.row!.inventory_item_ids ?? {}))
  const [products, variants, items] = await Promise.all([
    container.resolve(Modules.PRODUCT).listProducts({ id: mapped.map((p) => p.row!.product_id!) }, { select: ["id"], take: null }),
    variantIds.length ? container.resolve(Modules.PRODUCT).listProductVariants({ id: variantIds }, { select: ["id"], take: null }) : [],
    itemIds.length ? container.resolve(Modules.INVENTORY).listInventoryItems({ id: itemIds }, { select: ["id"], take: null }) : [],
  ])
  const liveProducts = new Set(products.map((p) => p.id))
  const gone = mapped.filter((p) => !liveProducts.has(p.row!.product_id!))
  const live = new Set([...variants.map((v) => v.id), ...items.map((i) => i.id)])
  const stale = (p: PlannedUpsert) =>
    !gone.includes(p) &&
    ([...Object.values(p.row!.variant_ids ?? {}), ...Object.values(p.row!.inventory_item_ids ?? {})].some((id) => !live.has(id)) ||
      p.input.variants.some((v) => !p.row!.variant_ids?.[v.sizeKey] || !p.row!.inventory_item_ids?.[v.sizeKey]))
  const repair = plan.stockOnly.filter(stale)
  if (!repair.length && !gone.length) return plan
  const all = { fields: true, variants: true, prices: true }
  return {
    ...plan,
    create: [...plan.create, ...gone.map((p) => ({ ...p, changed: all }))],
    stockOnly: plan.stockOnly.filter((p) => !repair.includes(p) && !gone.includes(p)),
    update: [...plan.update.filter((p) => !gone.includes(p)), ...repair.map((p) => ({ ...p, changed: all }))],
  }
}

/**
 * Products a crash left behind between the product write and the map write: made by this
 * plugin (metadata marker) for a catalog id being created, but with no active map row. The
 * create adopts one of them (it is written as an update: its variants, prices and inventory
 * are found by option value and SKU, what is missing is made), so the product keeps its id
 * and nothing is made twice; any further copies are deleted. A product of another import that
 * merely shares the external_id is left alone.
 */
async function adoptOrphans(container: MedusaContainer, creates: PlannedUpsert[]): Promise<Map<string, string>> {
  const adopted = new Map<string, string>()
  if (!creates.length) return adopted
  const products = await container
    .resolve(Modules.PRODUCT)
    .listProducts({ external_id: creates.map((c) => c.catalogId) }, { select: ["id", "external_id", "metadata", "created_at"], take: null })
  const orphans = products.filter(isOwnProduct).sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || a.id.localeCompare(b.id))
  const extra: string[] = []
  for (const p of orphans) {
    if (adopted.has(p.external_id!)) extra.push(p.id)
    else adopted.set(p.external_id!, p.id)
  }
  if (extra.length) await deleteProductsWorkflow(container).run({ input: { ids: extra } })
  return adopted
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
  const plan = await repairFromShop(container, planPage(items, rows, ctx.mapContext))
  const now = new Date()
  const timings: Record<string, number> = {}
  let mark = Date.now()
  const lap = (name: string) => {
    const t = Date.now()
    timings[name] = t - mark
    mark = t
  }
  lap("plan")

  // Creates (a product a crashed create already made is adopted: written with the updates)
  const orphanIds = await adoptOrphans(container, plan.create)
  const fresh = plan.create.filter((p) => !orphanIds.has(p.catalogId))
  const adopting = plan.create.filter((p) => orphanIds.has(p.catalogId))
  // Plain SKUs unless another product holds one (an adopted leftover's own SKUs count as its own).
  await resolveVariantSkus(container, [...plan.create, ...plan.update], orphanIds)
  const creates = await writeInChunks(fresh, async (chunk) => {
    const { result } = await createCatalogProductsWorkflow(container).run({
      input: { products: chunk.map((p) => ({ catalogId: p.catalogId, input: strip(p.input), stock: p.stock })), placement: ctx.placement },
    })
    return result
  })
  const writeRejected = await rejectOrThrow(container, creates.failed, creates.written.length)
  const createdPlans = creates.written.map((w) => w.item)
  const created = creates.written.map((w) => w.result)
  lap("create")

  // Updates, and adopted crash leftovers (nothing of them is known: all parts are written)
  const updates = await writeInChunks([...plan.update, ...adopting], async (chunk) => {
    const products: ProductToUpdate[] = chunk.map((p) => {
      const orphan = adopting.includes(p) ? orphanIds.get(p.catalogId)! : null
      return {
        catalogId: p.catalogId,
        productId: orphan ?? p.row!.product_id!,
        input: strip(p.input),
        stock: p.stock,
        variantIds: orphan ? {} : p.row!.variant_ids ?? {},
        inventoryItemIds: orphan ? {} : p.row!.inventory_item_ids ?? {},
        changed: orphan ? { fields: true, variants: true, prices: true } : p.changed,
      }
    })
    const { result } = await updateCatalogProductsWorkflow(container).run({ input: { products, placement: ctx.placement } })
    return result
  })
  writeRejected.push(...(await rejectOrThrow(container, updates.failed, creates.written.length + updates.written.length)))
  // Adopted products count (and get their map rows) as created.
  for (const w of updates.written) {
    if (!adopting.includes(w.item)) continue
    createdPlans.push(w.item)
    created.push(w.result)
  }
  const updatedPlans = updates.written.filter((w) => !adopting.includes(w.item)).map((w) => w.item)
  const updated = updates.written.filter((w) => !adopting.includes(w.item)).map((w) => w.result)
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
  pushWritten(createdPlans, created)
  pushWritten(updatedPlans, updated)
  if (written.length) await ctx.hooks.applyPageExtras(container, written, { refs: ctx.refs, settings: ctx.settings })
  if (written.length && ctx.settings.vocabulary) {
    await syncSizeOptionTranslations(
      container,
      written.map((w) => w.productId),
      { primaryLanguage: ctx.settings.primaryLanguage, vocabulary: ctx.settings.vocabulary }
    )
  }
  lap("extras")

  // Product map: last, so a page is "done" only once everything above committed.
  const newRows: Record<string, unknown>[] = []
  const rowUpdates: Record<string, unknown>[] = []
  createdPlans.forEach((p, i) => {
    const values = mapRowValues(p, created[i], ctx, now)
    if (p.row) rowUpdates.push({ id: p.row.id, ...values })
    else newRows.push(values)
  })
  updatedPlans.forEach((p, i) => rowUpdates.push({ id: p.row!.id, ...mapRowValues(p, updated[i], ctx, now) }))
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
  // Medusa's update merges JSON objects into the stored ones, so a size that left would stay in
  // variant_ids / inventory_item_ids (pointing at a deleted variant). Rows whose id maps lose a
  // key are cleared first, then written whole.
  const shrinking = shrinkingRows(rowUpdates, [...plan.create, ...plan.update])
  if (shrinking.length) await service.updateCatalogProductMaps(shrinking.map((id) => ({ id, variant_ids: null, inventory_item_ids: null })))
  if (rowUpdates.length) await service.updateCatalogProductMaps(rowUpdates)
  // Unchanged products cost no Medusa write; during a full pass they are only marked seen.
  if (ctx.fullPassId && plan.unchanged.length) {
    await service.updateCatalogProductMaps({
      selector: { id: plan.unchanged.map((p) => p.row!.id) },
      data: { last_seen_pass: ctx.fullPassId },
    })
  }
  lap("map")
  // Products that could not be written leave the plan: the run counts them as rejected.
  const writtenPlan = { ...plan, create: createdPlans, update: updatedPlans }
  return { plan: writtenPlan, rejected: [...plan.rejected, ...writeRejected], timings }
}
