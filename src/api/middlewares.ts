// The plugin's only middlewares file (Medusa reads src/api/middlewares.ts). The admin routes
// validate their own bodies with zod (they answer 400 naming the field, a shape Medusa's
// validateAndTransformBody does not give); the store product routes get the catalog brand
// relations on their allow list (fidelity's middlewares).
import { defineMiddlewares } from "@medusajs/framework/http"
import { storeCatalogMiddlewares } from "./store/catalog-middlewares"

export default defineMiddlewares({
  routes: [...storeCatalogMiddlewares],
})
