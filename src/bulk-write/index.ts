// Bulk writes that bypass Medusa's module services (and only these): rows identical to what
// Medusa's own workflows write, one transaction per page, the same events after commit.
export * from "./types"
export { writePageInBulk, BulkPage } from "./page-writer"
export type { BasePriceRow } from "./update-prices"
export { planProductRows, PRODUCT_TABLES } from "./create-products"
export { productLinkTables } from "./link-tables"
export { BULK_EVENTS } from "./events"
export { ID_PREFIX } from "./ids"
export { productLinkTo, setProductLinks, linkEventMessages, type ProductLinkTable, type LinkChanges } from "./product-links"
export { transactionWithoutFlushWait } from "./sql"
export { optionsTitled, type SizeOption } from "./change-sizes"
export { KEPT_FOR_OPEN_ORDER, PENDING_REMOVAL_TABLE, recordPendingRemovals, reservedVariantIds, valuesInUse, type PendingRemoval } from "./open-orders"
export { removeVariants, softDelete } from "./remove-products"
