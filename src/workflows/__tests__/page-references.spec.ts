import { pageReferencesOf, type PageReferences } from "../page/page-types"
import type { PagePlan, PlannedUpsert } from "../../sync/plan-page"

const upsert = (id: string, brand: string | null, model: string | null): PlannedUpsert =>
  ({
    catalogId: id,
    input: { brand: brand ? { id: brand, name: `Brand ${brand}` } : null, brandModel: model ? { id: model, name: `Model ${model}` } : null },
  }) as unknown as PlannedUpsert

const run = {
  brandIdByCatalogId: new Map(Object.entries({ b1: "brand_1", b2: "brand_2", b3: "brand_3", b9: "brand_9" })),
  brandModelIdByCatalogId: new Map(Object.entries({ m1: "model_1", m2: "model_2", m9: "model_9" })),
  salePriceListId: "plist_1",
  translationsEnabled: true,
}

describe("the references a page carries", () => {
  it("holds the brands and models of the products the page may write, not the run's whole maps", () => {
    const plan: PagePlan = {
      create: [upsert("p1", "b1", "m1")],
      update: [upsert("p2", "b2", null)],
      // The map check may move a stock-only product to update: its brand counts too.
      stockOnly: [upsert("p3", "b3", "m2")],
      // Unchanged products are not written.
      unchanged: [upsert("p4", "b9", "m9")],
      remove: [],
      rejected: [],
    }
    expect(pageReferencesOf(run, plan)).toEqual<PageReferences>({
      brandIdByCatalogId: { b1: "brand_1", b2: "brand_2", b3: "brand_3" },
      brandModelIdByCatalogId: { m1: "model_1", m2: "model_2" },
      salePriceListId: "plist_1",
      translationsEnabled: true,
    })
  })

  it("leaves out a brand or model the run does not know yet, so the brand links step makes it", () => {
    const plan: PagePlan = { create: [upsert("p1", "b-new", "m-new")], update: [], stockOnly: [], unchanged: [], remove: [], rejected: [] }
    const refs = pageReferencesOf(run, plan)
    expect(refs.brandIdByCatalogId).toEqual({})
    expect(refs.brandModelIdByCatalogId).toEqual({})
  })
})
