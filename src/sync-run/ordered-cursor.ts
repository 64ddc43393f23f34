// Pure: the pages of a run written out of order, and which cursor may be stored.
//
// Pages are read in order (one cursor) and numbered 0, 1, 2… as they are dispatched to writers.
// A page's cursor may be stored only when it and every earlier page committed (rule 2: commit
// before moving the bookmark), so a crash replays at most the pages in flight. A page sharing a
// catalog id with a page in flight waits for it: its plan depends on the map rows that page
// writes. A page that may create shared records (a brand or model the run does not know yet)
// waits until nothing is in flight, and holds the window until it commits.

export type PageSlot = {
  /** The page's catalog ids. */
  ids: ReadonlySet<string>
  /** Writes records other pages may need (new brands or models): written alone. */
  exclusive: boolean
}

export class OrderedCursor {
  #next = 0
  /** Pages up to this one (inclusive) were released for their cursor to be stored. */
  #released = -1
  readonly #writing = new Map<number, PageSlot>()
  readonly #committed = new Set<number>()

  /** @param limit pages dispatched and not yet released, at most */
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`pages in flight must be a positive integer, got ${limit}`)
  }

  /** Pages dispatched whose cursor is not released yet (writing, or committed behind a slower one). */
  get open(): number {
    return this.#next - 1 - this.#released
  }

  /** Pages being written now. */
  get writing(): number {
    return this.#writing.size
  }

  /** Whether a page with these ids may be dispatched now. */
  mayDispatch(slot: PageSlot): boolean {
    if (this.open >= this.limit) return false
    if (this.#writing.size && slot.exclusive) return false
    for (const other of this.#writing.values()) {
      if (other.exclusive) return false
      for (const id of slot.ids) if (other.ids.has(id)) return false
    }
    return true
  }

  /** Records a page as dispatched; returns its number. */
  dispatch(slot: PageSlot): number {
    if (!this.mayDispatch(slot)) throw new Error("page dispatched while it must wait")
    const seq = this.#next++
    this.#writing.set(seq, slot)
    return seq
  }

  /**
   * Records a page as committed; returns the pages whose cursors may now be stored, in order
   * (empty while an earlier page is still writing).
   */
  commit(seq: number): number[] {
    if (!this.#writing.delete(seq)) throw new Error(`page ${seq} is not being written`)
    this.#committed.add(seq)
    const released: number[] = []
    while (this.#committed.delete(this.#released + 1)) released.push(++this.#released)
    return released
  }
}

/** A page's slot: its ids, and whether it names a category, brand or model the run does not know yet. */
export function pageSlot(
  items: readonly {
    id: string
    status: string
    product?: { category_id?: string | null; brand?: { id: string } | null; brand_model?: { id: string } | null }
  }[],
  known: {
    categoryIdByCatalogId: ReadonlyMap<string, string>
    brandIdByCatalogId: ReadonlyMap<string, string>
    brandModelIdByCatalogId: ReadonlyMap<string, string>
  }
): PageSlot {
  let exclusive = false
  for (const item of items) {
    const card = item.status === "removed" ? undefined : item.product
    if (!card) continue
    if (card.category_id && !known.categoryIdByCatalogId.has(card.category_id)) exclusive = true
    if (card.brand?.id && !known.brandIdByCatalogId.has(card.brand.id)) exclusive = true
    if (card.brand_model?.id && !known.brandModelIdByCatalogId.has(card.brand_model.id)) exclusive = true
  }
  return { ids: new Set(items.map((i) => i.id)), exclusive }
}
