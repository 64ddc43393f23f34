// The plugin's only middlewares file (Medusa reads src/api/middlewares.ts). The admin routes
// validate their own bodies with zod (they answer 400 naming the field, a shape Medusa's
// validateAndTransformBody does not give; readiness/fix too); the store product routes get the catalog brand
// relations on their allow list (the catalog extras' middlewares). Every admin route of the
// plugin refuses the NUL character first (refuse-nul.ts).
import { defineMiddlewares } from "@medusajs/framework/http"
import { refuseNul } from "./admin/catalog-sync/refuse-nul"
import { guardSalePriceList } from "./admin/sale-price-list-guard"
import { storeCatalogMiddlewares } from "./store/catalog-middlewares"

export default defineMiddlewares({
  routes: [
    ...storeCatalogMiddlewares,
    { matcher: "/admin/catalog-sync*", middlewares: [refuseNul] },
    { matcher: "/admin/price-lists/:id", methods: ["POST"], middlewares: [guardSalePriceList] },
  ],
})
