// Defined with its brand in catalog-brand.ts (the two refer to each other).
import { CatalogBrandModel } from "./catalog-brand"

export default CatalogBrandModel
