// Pure: a page's plan checked again, just before it is written, against the map rows as they
// are now. Pages may be written by several writers; a card that another write has overtaken
// since the page was planned (its map row now holds a newer sync_version) is not applied:
// it moves to `unchanged`, with the row as it is now, so a full pass still counts it seen.
import { isStaleCard, type MapRow, type PagePlan, type PlannedUpsert } from "./plan-page"

export function withoutStaleCards(plan: PagePlan, rowsNow: readonly MapRow[]): { plan: PagePlan; stale: string[] } {
  const rows = new Map(rowsNow.map((r) => [r.catalog_id, r]))
  const stale: PlannedUpsert[] = []
  const keep = (list: PlannedUpsert[]) =>
    list.filter((p) => {
      const row = rows.get(p.catalogId)
      if (!row || !isStaleCard(p.input.syncVersion, row.sync_version)) return true
      stale.push({ ...p, row })
      return false
    })
  const create = keep(plan.create)
  const update = keep(plan.update)
  const stockOnly = keep(plan.stockOnly)
  if (!stale.length) return { plan, stale: [] }
  return { plan: { ...plan, create, update, stockOnly, unchanged: [...plan.unchanged, ...stale] }, stale: stale.map((p) => p.catalogId) }
}
