// One change item per id in a page, by the rule used across pages: the higher card
// `sync_version` wins, and on a tie (or when either item is a removal, which carries no
// version) the later item, as the feed orders by change. Each dropped duplicate is reported.

/** What the rule reads of a change item (items.ts's ChangeItem, which imports this file). */
export interface VersionedItem {
  id: string
  status: string
  product?: { sync_version?: number | null }
}

/** A dropped duplicate, in the shape of a run's warning (RejectedItem). */
export interface DuplicateNotice {
  id: string
  field: "id"
  reason: string
}

export interface OneItemPerId<T> {
  /** The winning item of each id, at the place of the id's last item in the page. */
  items: T[]
  /** One notice per dropped item: its id, and which version was kept over which. */
  duplicates: DuplicateNotice[]
}

function versionOf(item: VersionedItem): number | null {
  return item.product?.sync_version ?? null
}

function describe(item: VersionedItem): string {
  const version = versionOf(item)
  return version === null ? `a "${item.status}" item` : `sync_version ${version}`
}

/** Whether `later` replaces `earlier` (both the same id, `later` further down the page). */
function laterWins(earlier: VersionedItem, later: VersionedItem): boolean {
  const a = versionOf(earlier)
  const b = versionOf(later)
  return a === null || b === null || b >= a
}

export function oneItemPerId<T extends VersionedItem>(items: T[]): OneItemPerId<T> {
  const winners = new Map<string, T>()
  const duplicates: DuplicateNotice[] = []
  for (const item of items) {
    const earlier = winners.get(item.id)
    if (earlier === undefined) {
      winners.set(item.id, item)
      continue
    }
    const keep = laterWins(earlier, item) ? item : earlier
    const drop = keep === item ? earlier : item
    duplicates.push({
      id: item.id,
      field: "id",
      reason: `id appears more than once in one page: ${describe(keep)} kept, ${describe(drop)} dropped`,
    })
    // Re-inserted so the winner takes the place of the id's last item.
    winners.delete(item.id)
    winners.set(item.id, keep)
  }
  return { items: [...winners.values()], duplicates }
}
