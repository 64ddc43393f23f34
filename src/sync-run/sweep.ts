// Removals outside a page: the sweep at the end of a full pass (rule 6: mapped products the pass
// did not see were removed in the catalog while their removal events were lost with an old
// cursor), and a narrowed filter (shop products it no longer keeps). Both are chosen by SQL on
// the product map and read a chunk at a time, so no per-product list is held across the catalog;
// both are held like a page's removals (held-removals.ts): judged by the safety brake with every
// other removal of the run once it has read its last page, and applied only then.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Knex } from "knex"
import { knexOf } from "../bulk-write/sql"
import { holdRemovals, type HoldSource } from "./held-removals"

const MAP_TABLE = "mcs_product_map"
const CHUNK = 200

/** Which active mapped products a removal outside a page covers. */
export type RemovalScope =
  /** The sweep: not seen in this full pass. */
  | { unseenInPass: string }
  /** A narrowed filter: not among these catalog ids (the cards the new filter keeps). */
  | { notIn: ReadonlySet<string> }

type ScopeRow = { id: string; catalog_id: string; product_id: string | null }

/** `catalog_id` not among `ids`: one JSON parameter (a hashed set in PostgreSQL), however many. */
function notAmong(q: Knex.QueryBuilder, ids: Iterable<string>): Knex.QueryBuilder {
  const list = [...ids]
  return list.length ? q.whereRaw("catalog_id not in (select jsonb_array_elements_text(?::jsonb))", [JSON.stringify(list)]) : q
}

/** The scope's active map rows, without `except` (catalog ids). */
function scoped(db: Knex, scope: RemovalScope, except: Iterable<string>): Knex.QueryBuilder {
  const q = db(MAP_TABLE).whereNull("deleted_at").where("status", "active")
  if ("unseenInPass" in scope) q.where((w) => w.whereNull("last_seen_pass").orWhereNot("last_seen_pass", scope.unseenInPass))
  else notAmong(q, scope.notIn)
  return notAmong(q, except)
}

/** The scope's rows without `except`, a chunk at a time in id order (keyset: a row left active is not read twice). */
async function* chunksOf(db: Knex, scope: RemovalScope, except: Iterable<string>): AsyncGenerator<ScopeRow[]> {
  const exceptIds = [...except]
  for (let after: string | null = null; ; ) {
    const q = scoped(db, scope, exceptIds).select("id", "catalog_id", "product_id").orderBy("id").limit(CHUNK)
    if (after !== null) q.where("id", ">", after)
    const rows = (await q) as ScopeRow[]
    if (!rows.length) return
    yield rows
    after = rows[rows.length - 1].id
  }
}

/**
 * Holds the scope's removals (held-removals.ts), except `keep` (removals the admin discarded at
 * the safety brake): nothing is removed here; the run judges and applies them once it has read
 * its last page. Returns how many were added to the held ones.
 */
export async function holdScope(container: MedusaContainer, scope: RemovalScope, keep: ReadonlySet<string>, source: HoldSource, runId: string): Promise<number> {
  const db = knexOf(container)
  let held = 0
  for await (const chunk of chunksOf(db, scope, keep)) held += await holdRemovals(db, chunk, source, runId)
  return held
}
