// Removals outside a page: the sweep at the end of a full pass (rule 6: mapped products the pass
// did not see were removed in the catalog while their removal events were lost with an old
// cursor), and a narrowed filter (shop products it no longer keeps). Both are chosen by SQL on
// the product map and read a chunk at a time, so no per-product list is held across the catalog;
// both go past the safety brake first (src/sync/safety-brake.ts), like a page's removals.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Knex } from "knex"
import { BRAKE_PREVIEW_SIZE } from "../pricing/brake"
import type { BrakePause, SafetyBrake } from "../sync/safety-brake"
import { knexOf } from "../bulk-write/sql"
import { removeMappedProducts, type RemovalMode } from "../workflows/remove-catalog-products"

const MAP_TABLE = "catalog_product_map"
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
 * The safety brake over the scope's removals: null to go on, or the pause (nothing removed).
 * Removals the admin approved are not counted and discarded ones are kept (not removed at all);
 * the pause lists every removal id of the scope, which a confirm approves and a discard keeps.
 */
export async function brakeRemovals(container: MedusaContainer, brake: SafetyBrake, scope: RemovalScope): Promise<BrakePause | null> {
  const db = knexOf(container)
  const notCounted = [...brake.discarded, ...brake.approved]
  const [row] = await scoped(db, scope, notCounted).count({ n: "id" })
  const count = Number((row as { n: string | number }).n)
  if (!count) return null
  const sample = (await scoped(db, scope, notCounted).select("catalog_id", "product_id").orderBy("id").limit(BRAKE_PREVIEW_SIZE)) as ScopeRow[]
  const held = brake.checkRemovals(count, sample)
  if (!held) return null
  const removal_ids: string[] = []
  for await (const rows of chunksOf(db, scope, brake.discarded)) removal_ids.push(...rows.map((r) => r.catalog_id))
  return { ...held, removal_ids, price_drops: {} }
}

/**
 * Removes (per `mode`) the scope's active mapped products, except `keep` (removals the admin
 * discarded at the safety brake); returns how many. `removed`: told the catalog ids of each
 * chunk once its products were removed (mirrored images release theirs).
 */
export async function removeScope(
  container: MedusaContainer,
  scope: RemovalScope,
  mode: RemovalMode,
  keep: ReadonlySet<string>,
  removed?: (catalogIds: string[]) => Promise<void>
): Promise<number> {
  let count = 0
  for await (const chunk of chunksOf(knexOf(container), scope, keep)) {
    await removeMappedProducts(container, chunk, { mode })
    await removed?.(chunk.map((r) => r.catalog_id))
    count += chunk.length
  }
  return count
}
