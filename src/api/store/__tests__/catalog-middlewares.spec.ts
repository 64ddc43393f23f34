// The store product routes keep only allow-listed fields; with the plugin's middleware in front
// of Medusa's own query validation, the brand relations survive (in-process, no app needed).
import { validateAndTransformQuery } from "@medusajs/framework/http"
import * as QueryConfig from "@medusajs/medusa/api/store/products/query-config"
import { StoreGetProductParams } from "@medusajs/medusa/api/store/products/validators"
import { storeCatalogMiddlewares } from "../catalog-middlewares"

async function prepare(fields: string, withPlugin: boolean) {
  const req: any = { query: { fields }, allowed: [], restrictedFields: undefined, get: () => undefined }
  if (withPlugin) {
    const route = storeCatalogMiddlewares.find((r) => r.matcher === "/store/products")!
    await new Promise<void>((resolve) => (route.middlewares![0] as any)(req, {}, resolve))
  }
  let error: unknown
  await validateAndTransformQuery(StoreGetProductParams as any, QueryConfig.retrieveProductQueryConfig as any)(req, {} as any, (e?: unknown) => {
    error = e
  })
  return { fields: (req.queryConfig?.fields ?? []) as string[], error }
}

describe("storeCatalogMiddlewares", () => {
  it("lets *catalog_brand and +catalog_brand_model.name through the store product allow list", async () => {
    const { fields, error } = await prepare("id,*catalog_brand,+catalog_brand_model.name", true)
    expect(error).toBeUndefined()
    expect(fields).toEqual(expect.arrayContaining(["catalog_brand.*", "catalog_brand_model.name"]))
  })

  it("without it Medusa refuses the relation", async () => {
    const { fields, error } = await prepare("id,*catalog_brand", false)
    expect(fields).not.toContain("catalog_brand.*")
    expect(error ?? "refused").toBeTruthy()
  })
})
