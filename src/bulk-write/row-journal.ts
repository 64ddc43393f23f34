// What a page's statements wrote, table by table: the ids of rows created, updated and
// (soft-)deleted. Medusa's module services emit one internal event per entity and action
// (`product.product-variant.created`, `pricing.price.updated`, …) and the link module one per
// link row (`….attached` / `….detached`); the page derives those events from this journal, so a
// writer that writes a row cannot forget its event. Kept per transaction (a WeakMap on the knex
// transaction), so the writers keep their plain `trx` parameter.
import type { Knex } from "knex"

export type RowAction = "created" | "updated" | "deleted"

export class RowJournal {
  private readonly byTable = new Map<string, Record<RowAction, Set<string>>>()

  record(table: string, action: RowAction, ids: Iterable<string>): void {
    let entry = this.byTable.get(table)
    if (!entry) {
      entry = { created: new Set(), updated: new Set(), deleted: new Set() }
      this.byTable.set(table, entry)
    }
    for (const id of ids) {
      // A row created and then changed or removed in the same page is what Medusa's one call
      // would have made in the end: created (then deleted: nothing at all).
      if (action === "updated" && entry.created.has(id)) continue
      if (action === "deleted" && entry.created.delete(id)) {
        entry.updated.delete(id)
        continue
      }
      entry[action].add(id)
    }
  }

  /** Ids by action, in the order first written. */
  ids(table: string, action: RowAction): string[] {
    return [...(this.byTable.get(table)?.[action] ?? [])]
  }

  tables(): string[] {
    return [...this.byTable.keys()]
  }
}

const journals = new WeakMap<object, RowJournal>()

export function keepJournal(trx: Knex.Transaction, journal: RowJournal): void {
  journals.set(trx, journal)
}

/** Records rows a statement wrote, when the transaction keeps a journal (a bulk page's does). */
export function journal(trx: Knex.Transaction | Knex, table: string, action: RowAction, ids: Iterable<string>): void {
  journals.get(trx)?.record(table, action, ids)
}
