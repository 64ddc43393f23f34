// Brings the shop in line with a changed filter before the changes feed continues: reads only
// the `/v1/products` listings the change needs (never the full export), writes the cards the
// new filter adds, and after a narrowing holds the removal of every shop product it no longer
// keeps (held-removals.ts: judged and applied with the run's other removals once it has read
// its last page). The filter is stored as applied only once all of it is done (its removals
// durably held), so an interrupted run does it again.
import type { CatalogClient } from "../catalog-client/catalog-client"
import type { ChangeItem } from "../catalog-client/items"
import type { CategoryTree } from "../catalog-filter/category-tree"
import type { CatalogFilter } from "../catalog-filter/filter"
import { planFilterChange, type FilterChange } from "../catalog-filter/filter-change"
import { listedAsChange, PAGE_SIZE_FOR_LISTINGS } from "./filter-pages"

export interface FilterChangeIo {
  client: CatalogClient
  signal: AbortSignal
  /** Writes listed cards as one page (creates what the shop lacks). */
  writeCards(items: ChangeItem[]): Promise<void>
  /** Holds the removal of every active shop product whose catalog id is not kept; returns how many were added. */
  holdAllBut(kept: ReadonlySet<string>): Promise<number>
  /** Counts one API request. */
  onRequest(): void
  log(line: string): void
}

/** Returns whether anything had to be done. */
export async function applyFilterChange(oldFilter: CatalogFilter, newFilter: CatalogFilter, tree: CategoryTree, io: FilterChangeIo): Promise<boolean> {
  const change = planFilterChange(oldFilter, newFilter, tree)
  if (!change) return false
  const { kept, written } = await readListings(change, io)
  const held = change.narrowed ? await io.holdAllBut(kept) : 0
  io.log(`catalog sync: filter changed: ${change.queries.length} listing(s), ${written} product(s) added, ${held} removal(s) held for the run's end`)
  return true
}

async function readListings(change: FilterChange, io: FilterChangeIo): Promise<{ kept: Set<string>; written: number }> {
  const kept = new Set<string>()
  const seen = new Set<string>()
  let written = 0
  for (const query of change.queries) {
    const pages = io.client.listProducts({ ...query, limit: PAGE_SIZE_FOR_LISTINGS }, { signal: io.signal })
    for (;;) {
      const next = await pages.next()
      if (next.done) break
      io.onRequest()
      const page = next.value
      // A card the client could not read says nothing about the product: it is kept as it is.
      for (const r of page.rejected) if (r.id) kept.add(r.id)
      const toWrite: ChangeItem[] = []
      for (const card of page.items) {
        if (seen.has(card.id)) continue
        seen.add(card.id)
        if (change.keeps(card)) kept.add(card.id)
        if (change.writes(card)) toWrite.push(listedAsChange(card))
      }
      if (toWrite.length) await io.writeCards(toWrite)
      written += toWrite.length
    }
  }
  return { kept, written }
}
