// The plugin's only middlewares file (Medusa reads src/api/middlewares.ts). The admin routes
// validate their own bodies with zod (they answer 400 naming the field, a shape Medusa's
// validateAndTransformBody does not give); the store product routes get the catalog brand
// relations on their allow list (the catalog extras' middlewares).
import { defineMiddlewares, validateAndTransformBody } from "@medusajs/framework/http"
import { fixBodySchema } from "./admin/catalog-sync/readiness/checks"
import { guardSalePriceList } from "./admin/sale-price-list-guard"
import { storeCatalogMiddlewares } from "./store/catalog-middlewares"

export default defineMiddlewares({
  routes: [
    ...storeCatalogMiddlewares,
    { matcher: "/admin/catalog-sync/readiness/fix", methods: ["POST"], middlewares: [validateAndTransformBody(fixBodySchema)] },
    { matcher: "/admin/price-lists/:id", methods: ["POST"], middlewares: [guardSalePriceList] },
  ],
})
