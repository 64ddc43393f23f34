// The core-flows writer: every write through Medusa's own workflows (their hooks run and they
// emit every event they do), per chunk with per-product containment for products
// (src/workflows/*-through-core-flows.ts), the other writes as diffs against what the shop holds
// (src/workflows/writes-through-core-flows.ts). Medusa's workflows commit on their own
// connections, so the run's lock is checked before each one starts.
import type { MedusaContainer } from "@medusajs/framework/types"
import { updateProductVariantsWorkflow } from "@medusajs/medusa/core-flows"
import { transactionOn, type Sql } from "../../bulk-write/connection"
import { writePageInBulk, type StockChange } from "../../bulk-write"
import { checkWriteFence } from "../../bulk-write/write-fence"
import { CURRENCY_CODE } from "../../sync/catalog-product"
import { createProductsThroughCoreFlowsWorkflow } from "../../workflows/create-products-through-core-flows"
import { updateProductsThroughCoreFlowsWorkflow } from "../../workflows/update-products-through-core-flows"
import type { Placement, ProductToCreate, ProductToUpdate } from "../../workflows/page-input"
import { pricesOnlyChanged } from "../../workflows/page/price-only-changes"
import { writeInChunks } from "../../workflows/page/write-in-chunks"
import { pricesOf } from "../../workflows/steps/variant-prices"
import { timed } from "../../workflows/steps/profile"
import {
  linksThroughCoreFlows,
  removeProductsThroughCoreFlows,
  salePricesThroughCoreFlows,
  setStockThroughCoreFlows,
  translationsThroughCoreFlows,
} from "../../workflows/writes-through-core-flows"
import type { LinkKind, ProductsUpdated, ShopWriter, TranslationBatch, VariantPrices } from "../shop-writer"

export class CoreFlowsShopWriter implements ShopWriter {
  readonly path = "workflows" as const

  constructor(private readonly container: MedusaContainer) {}

  /** createProductsWorkflow, per chunk (its events go out when the chunk commits). */
  createProducts(products: ProductToCreate[], placement: Placement, concurrency: number) {
    return writeInChunks(products, concurrency, async (chunk) => {
      await checkWriteFence(this.container)
      const { result } = await createProductsThroughCoreFlowsWorkflow(this.container).run({ input: { products: chunk, placement } })
      return result
    })
  }

  /**
   * Per chunk. The events join the page's event group (released when the page's workflow has
   * committed all of it, the field values it records included, so auto-lock does not take the
   * sync's own product.updated for an admin edit).
   */
  async updateProducts(products: ProductToUpdate[], placement: Placement, concurrency: number, eventGroupId?: string): Promise<ProductsUpdated> {
    const updates = await writeInChunks(products, concurrency, async (chunk) => {
      await checkWriteFence(this.container)
      const { result } = await updateProductsThroughCoreFlowsWorkflow(this.container).run({
        input: { products: chunk, placement },
        ...(eventGroupId ? { context: { eventGroupId, preventReleaseEvents: true } } : {}),
      })
      return result
    })
    const written = new Set(updates.written.map((w) => w.item.catalogId))
    return { ...updates, pricesOnly: products.filter((p) => written.has(p.catalogId) && pricesOnlyChanged(p)).map((p) => p.catalogId) }
  }

  setStock(levels: StockChange[], stockLocationId: string) {
    return setStockThroughCoreFlows(this.container, levels, stockLocationId)
  }

  async removeProducts(productIds: string[], runId: string | null) {
    // deleteProductsWorkflow refuses stock an open order reserved: such products are kept for the
    // order first, as by the bulk writer, and only the others go through the workflow.
    const kept = await writePageInBulk(this.container, (page) => page.keepReservedProducts(productIds, runId))
    await removeProductsThroughCoreFlows(
      this.container,
      productIds.filter((id) => !kept.includes(id))
    )
    return kept
  }

  setSalePrices(priceListId: string, wanted: { variantId: string; saleAmount: string | null }[]) {
    return timed(this.container, `workflow sale prices of ${wanted.length} variants`, () =>
      salePricesThroughCoreFlows(this.container, priceListId, wanted, CURRENCY_CODE)
    )
  }

  /** Medusa's own workflows for the shop's prices, then the plugin's own rows: a replay sets the same prices again. */
  async setPrices(prices: VariantPrices[], saleListId: string, alongside: (trx: Sql) => Promise<void>) {
    const base = prices.filter((p) => p.amount !== null)
    if (base.length) {
      await checkWriteFence(this.container)
      await updateProductVariantsWorkflow(this.container).run({
        input: { product_variants: base.map((p) => ({ id: p.variantId, prices: pricesOf(p.amount) })) } as never,
      })
    }
    await salePricesThroughCoreFlows(this.container, saleListId, prices, CURRENCY_CODE)
    await transactionOn(this.container, alongside)
  }

  async writeTranslations(batch: TranslationBatch) {
    if (batch.create.length || batch.update.length || batch.delete.length) await translationsThroughCoreFlows(this.container, batch)
  }

  setLinks(kind: LinkKind, wanted: Map<string, string | null>) {
    return linksThroughCoreFlows(this.container, kind, wanted)
  }
}
