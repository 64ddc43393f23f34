// One page = one PostgreSQL transaction on Medusa's shared connection (PG_CONNECTION, the
// knex instance every module uses), then the events Medusa's workflows would emit, only after
// the commit. A failure anywhere rolls the whole page back and emits nothing.
// One turn of the event loop (what waits for I/O, a shopper's request, runs before the caller goes on).
import { setImmediate as nextTurn } from "node:timers/promises"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, toPascalCase } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { changeSizes, type ChangedSizes } from "./change-sizes"
import { insertProductRows, planProductRowsInSlices } from "./create-products"
import { BULK_EVENTS, PendingEvents } from "./events"
import { recordPendingRemovals, reservedVariantIds, takeOffSale } from "./open-orders"
import { removeProducts, type CascadeTarget, type RemovedProducts } from "./remove-products"
import { journal, keepJournal, RowJournal } from "./row-journal"
import { deleteSalePrices, setSalePrices, syncSalePrices } from "./sale-prices"
import type {
  BulkPlacement,
  BulkProduct,
  CreatedBulkProduct,
  PriceChange,
  ProductFieldsUpdate,
  SalePrice,
  SizeChange,
  StockChange,
  WantedSalePrice,
} from "./types"
import { updateProducts } from "./update-products"
import { removeBasePrices, setBasePrices, type BasePriceRow } from "./update-prices"
import { transactionWithoutFlushWait } from "./sql"
import { setStockLevels } from "./update-stock"

export class BulkPage {
  /** Other modules' records to soft-delete after the commit (links declared with deleteCascade). */
  readonly cascades: CascadeTarget[] = []

  constructor(
    readonly trx: Knex.Transaction,
    private readonly events: PendingEvents
  ) {}

  /** createProductsWorkflow (+ createInventoryLevelsWorkflow): product-variant.created, inventory-item.created, product.created, inventory-level.created. */
  async createProducts(products: BulkProduct[], placement: BulkPlacement): Promise<CreatedBulkProduct[]> {
    if (!products.length) return []
    // In slices: a page's writes run on the process that may also serve the shop.
    const { rows, created } = await planProductRowsInSlices(products, placement, nextTurn)
    await insertProductRows(this.trx, rows)
    // createProductsWorkflow: its variants workflow emits product-variant.created, the inventory
    // items' workflow inventory-item.created, then product.created; createInventoryLevelsWorkflow
    // inventory-level.created.
    this.events.add(
      BULK_EVENTS.variantCreated,
      created.flatMap((c) => c.variants.map((v) => v.variantId))
    )
    this.events.add(
      BULK_EVENTS.inventoryItemCreated,
      created.flatMap((c) => c.variants.map((v) => v.inventoryItemId))
    )
    this.events.add(
      BULK_EVENTS.productCreated,
      created.map((c) => c.productId)
    )
    this.events.add(
      BULK_EVENTS.inventoryLevelCreated,
      created.flatMap((c) => c.variants.map((v) => v.inventoryLevelId))
    )
    return created
  }

  /** batchInventoryItemLevelsWorkflow: inventory-level.updated / .created per level written. */
  async setStock(changes: StockChange[], locationId: string) {
    const result = await setStockLevels(this.trx, changes, locationId)
    this.events.add(BULK_EVENTS.inventoryLevelUpdated, result.updatedLevelIds)
    this.events.add(BULK_EVENTS.inventoryLevelCreated, result.createdLevelIds)
    return result
  }

  /** Base price changes: product-variant.updated per variant touched (updateProductVariantsWorkflow, the admin's price edit). */
  async setBasePrices(changes: PriceChange[], currencyCode: string, known?: BasePriceRow[]) {
    const result = await setBasePrices(this.trx, changes, currencyCode, known)
    this.events.add(BULK_EVENTS.variantUpdated, result.variantIds)
    return result
  }

  /** Base prices removed (the pricing module's price set upsert with no prices): product-variant.updated per variant touched. */
  async removeBasePrices(variantIds: string[]) {
    const result = await removeBasePrices(this.trx, variantIds)
    this.events.add(BULK_EVENTS.variantUpdated, result.variantIds)
    return result
  }

  /** updateProductsWorkflow (product fields, gallery, categories): product.updated per product. */
  async updateProducts(updates: ProductFieldsUpdate[]): Promise<string[]> {
    const ids = await updateProducts(this.trx, updates)
    this.events.add(BULK_EVENTS.productUpdated, ids)
    return ids
  }

  /**
   * deleteProductsWorkflow: inventory-item.deleted per item, product-option.deleted per own
   * option, product.deleted per product. A product with stock reserved by an open order is not
   * deleted (the workflow would refuse it): it is kept whole for the order (keepReservedProducts)
   * and the rest is removed.
   */
  async removeProducts(productIds: string[], runId: string | null = null): Promise<RemovedProducts & { keptForOrders: string[] }> {
    const kept = await this.keepReservedProducts(productIds, runId)
    const removed = await removeProducts(
      this.trx,
      productIds.filter((id) => !kept.includes(id))
    )
    this.cascades.push(...removed.cascade)
    this.events.add(BULK_EVENTS.inventoryItemDeleted, removed.inventoryItemIds)
    this.events.add(BULK_EVENTS.optionDeleted, removed.optionIds)
    this.events.add(BULK_EVENTS.productDeleted, removed.productIds)
    return { ...removed, keptForOrders: kept }
  }

  /**
   * The products among these with stock reserved by an open order, kept for the order: set to
   * draft (the store API neither lists it nor lets a cart add it), every variant's stock taken
   * down to what is reserved, and recorded as a pending removal (product.updated,
   * inventory-level.updated). Both write paths call it before they remove.
   */
  async keepReservedProducts(productIds: string[], runId: string | null = null): Promise<string[]> {
    const variants: { id: string; product_id: string }[] = productIds.length
      ? await this.trx("product_variant").select("id", "product_id").whereIn("product_id", productIds).whereNull("deleted_at")
      : []
    const reserved = await reservedVariantIds(
      this.trx,
      variants.map((v) => v.id)
    )
    const kept = [...new Set(variants.filter((v) => reserved.has(v.id)).map((v) => v.product_id))]
    if (kept.length) {
      const { updatedLevelIds } = await takeOffSale(
        this.trx,
        variants.filter((v) => kept.includes(v.product_id)).map((v) => v.id)
      )
      await this.trx("product").whereIn("id", kept).whereNull("deleted_at").update({ status: "draft", updated_at: this.trx.fn.now() })
      journal(this.trx, "product", "updated", kept)
      await recordPendingRemovals(
        this.trx,
        kept.map((id) => ({ kind: "product", subjectId: id, productId: id })),
        runId
      )
      this.events.add(BULK_EVENTS.inventoryLevelUpdated, updatedLevelIds)
      this.events.add(BULK_EVENTS.productUpdated, kept)
    }
    return kept
  }

  /** A page's size or product kept for an open order: its stock down to what is reserved, no backorder (inventory-level.updated). */
  async takeOffSale(variantIds: string[]): Promise<string[]> {
    const { updatedLevelIds } = await takeOffSale(this.trx, variantIds)
    this.events.add(BULK_EVENTS.inventoryLevelUpdated, updatedLevelIds)
    return updatedLevelIds
  }

  /**
   * Size changes as the shop's own variant edits run them: deleteProductVariantsWorkflow
   * (product-variant.deleted, inventory-item.deleted), createProductVariantsWorkflow and the new
   * item's level (product-variant.created, inventory-item.created, inventory-level.created),
   * updateProductVariantsWorkflow for kept variants' fields (product-variant.updated); a lost size
   * kept for an open order has its level taken down (inventory-level.updated).
   */
  async changeSizes(changes: SizeChange[], placement: BulkPlacement): Promise<ChangedSizes> {
    const result = await changeSizes(this.trx, changes, placement)
    this.cascades.push(...result.removed.cascade)
    const added = result.added.flat()
    this.events.add(BULK_EVENTS.variantDeleted, result.removed.variantIds)
    this.events.add(BULK_EVENTS.inventoryLevelUpdated, result.keptForOrders.updatedLevelIds)
    this.events.add(BULK_EVENTS.inventoryItemDeleted, result.removed.inventoryItemIds)
    this.events.add(
      BULK_EVENTS.variantCreated,
      added.map((v) => v.variantId)
    )
    this.events.add(
      BULK_EVENTS.inventoryItemCreated,
      added.map((v) => v.inventoryItemId)
    )
    this.events.add(
      BULK_EVENTS.inventoryLevelCreated,
      added.map((v) => v.inventoryLevelId)
    )
    this.events.add(BULK_EVENTS.variantUpdated, result.updatedVariantIds)
    return result
  }

  /** batchPriceListPricesWorkflow (create/update), which emits no event. */
  setSalePrices(priceListId: string, prices: SalePrice[], currencyCode: string) {
    return setSalePrices(this.trx, priceListId, prices, currencyCode)
  }

  /** batchPriceListPricesWorkflow (delete). */
  deleteSalePrices(priceListId: string, variantIds: string[]) {
    return deleteSalePrices(this.trx, priceListId, variantIds)
  }

  /** batchPriceListPricesWorkflow create + update + delete in one: each variant ends with exactly its wanted list price (or none). */
  syncSalePrices(priceListId: string, wanted: WantedSalePrice[], currencyCode: string) {
    return syncSalePrices(this.trx, priceListId, wanted, currencyCode)
  }

  /** Events of writes made on the page's transaction outside these methods (emitted after the commit). */
  recordEvents(name: string, ids: string[]): void {
    this.events.add(name, ids)
  }

  /** Marks products as updated for subscribers (e.g. after other writes of the same page). */
  productsUpdated(productIds: string[]): void {
    this.events.add(BULK_EVENTS.productUpdated, productIds)
  }
}

export async function writePageInBulk<T>(container: MedusaContainer, write: (page: BulkPage) => Promise<T>): Promise<T> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  const events = new PendingEvents()
  let page: BulkPage | null = null
  const rows = new RowJournal()
  const result = await transactionWithoutFlushWait(pg, (trx) => {
    keepJournal(trx, rows)
    return write((page = new BulkPage(trx, events)))
  })
  await softDeleteCascades(container, page!.cascades)
  await events.emit(container, rows)
  return result
}

/**
 * Medusa's link removal soft-deletes the other side of a link declared with deleteCascade through
 * that side's module (`softDelete` + the link's method suffix), which then cascades on by its
 * own links: the same call, after the page's commit.
 */
async function softDeleteCascades(container: MedusaContainer, targets: CascadeTarget[]): Promise<void> {
  for (const t of targets) {
    const service = container.resolve(t.serviceName) as Record<string, (...args: unknown[]) => Promise<unknown>>
    const method = `softDelete${t.methodSuffix ? toPascalCase(t.methodSuffix) : ""}`
    if (typeof service[method] !== "function") throw new Error(`catalog sync: ${t.serviceName} has no ${method} for a deleteCascade link`)
    await service[method]({ [t.primaryKey]: t.ids })
  }
}
