import type { Category } from "../../../catalog-client/schemas"
import { stableJson } from "../../../sync/fingerprint"
import { CATEGORY_SOURCE, desiredCategories, planCategories, type ExistingCategory } from "../plan-categories"

const cat = (id: string, parent_id: string | null, uk: string, ru: string | null = null, slug: string | null = null): Category => ({
  id,
  parent_id,
  name: uk,
  name_uk: uk,
  name_ru: ru,
  slug,
})

function existingFrom(desired: ReturnType<typeof desiredCategories>, ids: Record<string, string>): ExistingCategory[] {
  return desired.map((d) => ({
    id: ids[d.catalogId],
    external_id: d.catalogId,
    name: d.name,
    handle: d.handle,
    parent_category_id: d.parentCatalogId ? ids[d.parentCatalogId] : null,
    is_active: true,
    metadata: JSON.parse(JSON.stringify(d.metadata)),
  }))
}

describe("planCategories", () => {
  const tree = [cat("3", "2", "Кросівки", "Кроссовки", "sneakers"), cat("1", null, "Взуття", "Обувь", "shoes"), cat("2", "1", "Спорт", "Спорт", "sport")]

  it("creates parents before children, named in the primary language", () => {
    const plan = planCategories(tree, "uk", [])
    expect(plan.createLevels.map((l) => l.map((d) => d.catalogId))).toEqual([["1"], ["2"], ["3"]])
    expect(plan.createLevels[2][0]).toMatchObject({ name: "Кросівки", otherName: "Кроссовки", handle: "sneakers", parentCatalogId: "2" })
    expect(planCategories(tree, "ru", []).createLevels[2][0]).toMatchObject({ name: "Кроссовки", otherName: "Кросівки" })
  })

  it("is a no-op when nothing changed (jsonb key order ignored)", () => {
    const desired = desiredCategories(tree, "uk", [])
    const existing = existingFrom(desired, { "1": "pcat_1", "2": "pcat_2", "3": "pcat_3" })
    for (const e of existing) e.metadata = JSON.parse(stableJson(e.metadata)) // reordered keys
    const plan = planCategories(tree, "uk", existing)
    expect(plan.createLevels).toEqual([])
    expect(plan.updates).toEqual([])
    expect(plan.deactivate).toEqual([])
  })

  it("follows renames, moves and vanished categories", () => {
    const existing = existingFrom(desiredCategories(tree, "uk", []), { "1": "pcat_1", "2": "pcat_2", "3": "pcat_3" })
    const next = [cat("1", null, "Взуття нове", "Обувь", "shoes"), cat("3", "1", "Кросівки", "Кроссовки", "sneakers"), cat("4", "3", "Бігові", null, "running")]
    const plan = planCategories(next, "uk", existing)
    expect(plan.createLevels.map((l) => l.map((d) => d.catalogId))).toEqual([["4"]])
    expect(plan.updates.map((u) => [u.id, u.changes.filter((c) => c !== "metadata")])).toEqual([
      ["pcat_1", ["name"]],
      ["pcat_3", ["parent"]],
    ])
    expect(plan.deactivate).toEqual(["pcat_2"])
  })

  it("reactivates a category that comes back", () => {
    const existing = existingFrom(desiredCategories(tree, "uk", []), { "1": "pcat_1", "2": "pcat_2", "3": "pcat_3" })
    existing[1].is_active = false
    const plan = planCategories(tree, "uk", existing)
    expect(plan.updates).toEqual([expect.objectContaining({ id: existing[1].id, changes: ["active"] })])
  })

  it("leaves other categories alone and avoids their handles", () => {
    const foreign: ExistingCategory = {
      id: "pcat_x",
      external_id: null,
      name: "Shoes",
      handle: "shoes",
      parent_category_id: null,
      is_active: true,
      metadata: null,
    }
    const plan = planCategories(tree, "uk", [foreign])
    expect(plan.deactivate).toEqual([])
    expect(plan.createLevels[0][0].handle).toBe("shoes-1")
    expect(plan.createLevels[0][0].metadata.source).toBe(CATEGORY_SOURCE)
  })

  it("treats unknown parents and cycles as roots, and dedupes ids and handles", () => {
    const odd = [cat("1", "2", "A", null, "same"), cat("2", "1", "B", null, "same"), cat("3", "99", "C"), cat("3", null, "dup")]
    const desired = desiredCategories(odd, "uk", [])
    expect(desired.map((d) => [d.catalogId, d.parentCatalogId, d.handle])).toEqual([
      ["1", null, "same-1"],
      ["2", "1", "same-2"],
      ["3", null, "c"],
    ])
  })
})
