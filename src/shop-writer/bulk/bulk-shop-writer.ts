// The bulk SQL writer: each write one PostgreSQL transaction of the plugin's own SQL
// (src/bulk-write), fenced inside itself, then the events Medusa's workflows emit for the same
// rows. New products go in one transaction; changed ones by fast paths (price-only, fields,
// sizes), each one transaction. Products a transaction could not take (a handle or SKU another
// product holds, say) go through the core-flows writer, per product where a chunk fails
// (write-in-chunks.ts), fenced like every write: there is no third way.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { writePageInBulk, type StockChange } from "../../bulk-write"
import type { Sql } from "../../bulk-write/connection"
import { CURRENCY_CODE } from "../../sync/catalog-product"
import { failureReason } from "../../sync/write-failures"
import type { Placement, ProductToCreate, ProductToUpdate } from "../../workflows/page-input"
import { createInOneTransaction, writeNewProducts } from "../../workflows/page/new-products-in-bulk"
import { noteProductsWritten } from "../../workflows/page/write-progress"
import { timed } from "../../workflows/steps/profile"
import type { LinkKind, ProductsUpdated, ShopWriter, TranslationBatch, VariantPrices } from "../shop-writer"
import { writeChangedInBulk } from "./changed-products-in-bulk"
import { writeTranslationsInBulk } from "./translations-in-bulk"
import { setLinksInBulk } from "./links-in-bulk"
import { CoreFlowsShopWriter } from "../core-flows/core-flows-shop-writer"

export class BulkShopWriter implements ShopWriter {
  readonly path = "bulk" as const

  /** Where the products a bulk transaction could not take go. */
  private readonly oneByOne: CoreFlowsShopWriter

  constructor(private readonly container: MedusaContainer) {
    this.oneByOne = new CoreFlowsShopWriter(container)
  }

  async createProducts(products: ProductToCreate[], placement: Placement, concurrency: number) {
    const { container } = this
    const creates = await writeNewProducts(products, {
      inOneTransaction: (products) => createInOneTransaction(container, products, placement),
      inChunks: (products) => this.oneByOne.createProducts(products, placement, concurrency),
      noteWritten: noteProductsWritten,
    })
    if (creates.rolledBack) {
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(
          `catalog sync: the page's new products (${products.length}) were written one by one (the bulk write rolled back: ${failureReason(creates.rolledBack)})`
        )
    }
    return creates
  }

  async updateProducts(products: ProductToUpdate[], placement: Placement, concurrency: number, eventGroupId?: string): Promise<ProductsUpdated> {
    const fast = await writeChangedInBulk(this.container, products, placement)
    const rest = products.filter((p) => !fast.written.has(p.catalogId))
    const updates = await this.oneByOne.updateProducts(rest, placement, concurrency, eventGroupId)
    return { written: [...fast.outcomes, ...updates.written], failed: updates.failed, pricesOnly: [...fast.pricesOnly, ...updates.pricesOnly] }
  }

  async setStock(levels: StockChange[], stockLocationId: string) {
    if (levels.length) await writePageInBulk(this.container, (page) => page.setStock(levels, stockLocationId))
  }

  async removeProducts(productIds: string[], runId: string | null) {
    const { keptForOrders } = await writePageInBulk(this.container, (page) => page.removeProducts(productIds, runId))
    return keptForOrders
  }

  /** One read, then at most one update, one insert and one soft delete: the rows batchPriceListPricesWorkflow writes. */
  setSalePrices(priceListId: string, wanted: { variantId: string; saleAmount: string | null }[]) {
    return timed(this.container, `bulk sale prices of ${wanted.length} variants`, () =>
      writePageInBulk(this.container, (page) =>
        page.syncSalePrices(
          priceListId,
          wanted.map((w) => ({ variantId: w.variantId, amount: w.saleAmount })),
          CURRENCY_CODE
        )
      )
    )
  }

  async setPrices(prices: VariantPrices[], saleListId: string, alongside: (trx: Sql) => Promise<void>) {
    await writePageInBulk(this.container, async (page) => {
      await page.setBasePrices(
        prices.filter((p) => p.amount !== null).map((p) => ({ variantId: p.variantId, amount: p.amount! })),
        CURRENCY_CODE
      )
      await page.setSalePrices(
        saleListId,
        prices.filter((p) => p.saleAmount !== null).map((p) => ({ variantId: p.variantId, amount: p.saleAmount! })),
        CURRENCY_CODE
      )
      await page.deleteSalePrices(
        saleListId,
        prices.filter((p) => p.saleAmount === null).map((p) => p.variantId)
      )
      await alongside(page.trx)
    })
  }

  writeTranslations(batch: TranslationBatch) {
    return writeTranslationsInBulk(this.container, batch)
  }

  setLinks(kind: LinkKind, wanted: Map<string, string | null>) {
    return setLinksInBulk(this.container, kind, wanted)
  }
}
