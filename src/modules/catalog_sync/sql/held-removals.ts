// The held removals' rows (mcs_held_removal, models/catalog-held-removal.ts): what a run
// holds instead of removing, until the safety brake has judged them or the admin has answered
// a pause (src/sync-run/held-removals.ts applies them).
import type { Knex } from "knex"
import { newId } from "../../../bulk-write/ids"
import { sqlOf, type Connection } from "../../../bulk-write/connection"
import { BRAKE_PREVIEW_SIZE, type PlannedRemoval } from "../../../pricing/brake"
import type { MapRow } from "../../../sync/plan-page"
import { PRODUCT_MAP_TABLE } from "./product-map"

export const HELD_REMOVAL_TABLE = "mcs_held_removal"
const CHUNK = 200

export type HoldSource = "feed" | "sweep" | "filter"
/** held: waits for the run's end; approved: confirmed by the admin, applied by the continuing run. */
export type PendingStatus = "held" | "approved"

export type HeldCounts = Record<HoldSource, number>

export const noHeldRemovals = (): HeldCounts => ({ feed: 0, sweep: 0, filter: 0 })

/**
 * Holds these removals (one row per product; one already pending is left as it is, so a page
 * replayed after a crash holds nothing twice). Returns how many rows were added.
 */
export async function holdRemovals(
  connection: Connection,
  rows: readonly Pick<MapRow, "catalog_id" | "product_id">[],
  source: HoldSource,
  runId: string
): Promise<number> {
  const db = sqlOf(connection)
  let added = 0
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = rows.slice(i, i + CHUNK).map((r) => ({
      id: newId("cshold"),
      catalog_id: r.catalog_id,
      product_id: r.product_id ?? null,
      source,
      status: "held",
      held_by_run_id: runId,
    }))
    const { rowCount } = (await db.raw(`? on conflict (catalog_id) where deleted_at is null and status in ('held', 'approved') do nothing`, [
      db(HELD_REMOVAL_TABLE).insert(values),
    ])) as { rowCount: number }
    added += rowCount
  }
  return added
}

/**
 * The catalog sent these products again (created, updated or unchanged on a later page): a
 * removal still held for them is no longer the catalog's word, so it is dropped (status
 * "returned"). Approved ones stay: the admin's confirm is applied before the run reads a page.
 */
export async function releaseHolds(connection: Connection, catalogIds: readonly string[]): Promise<number> {
  if (!catalogIds.length) return 0
  const db = sqlOf(connection)
  return db(HELD_REMOVAL_TABLE)
    .whereNull("deleted_at")
    .where("status", "held")
    .whereIn("catalog_id", [...catalogIds])
    .update({ status: "returned", resolved_at: db.fn.now(), updated_at: db.fn.now() })
}

function pending(db: Knex | Knex.Transaction, status: PendingStatus, pausedRunId?: string): Knex.QueryBuilder {
  const q = db(HELD_REMOVAL_TABLE).whereNull("deleted_at").where("status", status)
  return pausedRunId ? q.where("paused_run_id", pausedRunId) : q
}

/** How many removals are pending with this status, by source. */
export async function countPending(connection: Connection, status: PendingStatus): Promise<HeldCounts & { total: number }> {
  const rows = (await pending(sqlOf(connection), status).select("source").count({ n: "id" }).groupBy("source")) as { source: HoldSource; n: string | number }[]
  const counts = noHeldRemovals()
  for (const r of rows) if (r.source in counts) counts[r.source] = Number(r.n)
  return { ...counts, total: counts.feed + counts.sweep + counts.filter }
}

/** The first held removals (the preview's sample), with the product they would remove. */
export async function heldSample(connection: Connection, size = BRAKE_PREVIEW_SIZE): Promise<PlannedRemoval[]> {
  const rows = (await pending(sqlOf(connection), "held").select("catalog_id", "product_id").orderBy("id").limit(size)) as {
    catalog_id: string
    product_id: string | null
  }[]
  return rows.map((r) => ({ catalog_id: r.catalog_id, product_id: r.product_id }))
}

/** Every held catalog id, in hold order (what a pause lists). */
export async function heldIds(connection: Connection, pausedRunId?: string): Promise<string[]> {
  const db = sqlOf(connection)
  const q = pausedRunId ? db(HELD_REMOVAL_TABLE).whereNull("deleted_at").where("paused_run_id", pausedRunId) : pending(db, "held")
  const rows = (await q.select("catalog_id").orderBy("id")) as { catalog_id: string }[]
  return rows.map((r) => r.catalog_id)
}

/** The held removals are the pause's: its answer covers exactly these rows. */
export async function markPaused(connection: Connection, runId: string): Promise<number> {
  const db = sqlOf(connection)
  return pending(db, "held").update({ paused_run_id: runId, updated_at: db.fn.now() })
}

/**
 * The admin's answer to the pause of run `pausedRunId`: its held removals become approved (the
 * continuing run applies them) or discarded (never applied). Returns their catalog ids.
 */
export async function answerHolds(connection: Connection, pausedRunId: string, action: "confirmed" | "discarded"): Promise<string[]> {
  const db = sqlOf(connection)
  const rows = (await pending(db, "held", pausedRunId)
    .update(
      action === "confirmed" ? { status: "approved", updated_at: db.fn.now() } : { status: "discarded", resolved_at: db.fn.now(), updated_at: db.fn.now() }
    )
    .returning("catalog_id")) as { catalog_id: string }[]
  return rows.map((r) => r.catalog_id)
}

/** The next pending removals of this status, in hold order (at most one chunk). */
export async function pendingChunk(connection: Connection, status: PendingStatus): Promise<{ id: string; catalog_id: string; source: HoldSource }[]> {
  return pending(sqlOf(connection), status).select("id", "catalog_id", "source").orderBy("id").limit(CHUNK)
}

/** These held rows were applied (their products removed, or no longer active). */
export async function markApplied(connection: Connection, ids: string[]): Promise<void> {
  const db = sqlOf(connection)
  await db(HELD_REMOVAL_TABLE).whereIn("id", ids).update({ status: "applied", resolved_at: db.fn.now(), updated_at: db.fn.now() })
}

/**
 * Since when each of these products is kept by a discarded removal, and at which pause: when the
 * run that found it gone held its removal (the newest discarded row per catalog id: a product that
 * came back and went again is kept since its later hold).
 */
export async function discardedSince(
  connection: Connection,
  catalogIds: readonly string[]
): Promise<Map<string, { since: Date; paused_run_id: string | null; source: HoldSource }>> {
  if (!catalogIds.length) return new Map()
  const rows = (await sqlOf(connection)(HELD_REMOVAL_TABLE)
    .whereNull("deleted_at")
    .where("status", "discarded")
    .whereIn("catalog_id", [...catalogIds])
    .orderBy("created_at", "asc")
    .select("catalog_id", "created_at", "paused_run_id", "source")) as {
    catalog_id: string
    created_at: Date
    paused_run_id: string | null
    source: HoldSource
  }[]
  // Since the run that found it gone held its removal, not since the admin's later Discard.
  return new Map(rows.map((r) => [r.catalog_id, { since: r.created_at, paused_run_id: r.paused_run_id, source: r.source }]))
}

/**
 * The admin asked to remove a product whose removal they had discarded: an approved removal,
 * which the next run applies before it reads a page, as it applies a confirmed pause's (the
 * normal removal: open orders keep what they reserve). One pending row per product: a removal
 * already held for it becomes approved.
 */
export async function approveRemoval(connection: Connection, row: Pick<MapRow, "catalog_id" | "product_id">): Promise<void> {
  const db = sqlOf(connection)
  const promoted = await db(HELD_REMOVAL_TABLE)
    .whereNull("deleted_at")
    .where({ catalog_id: row.catalog_id, status: "held" })
    .update({ status: "approved", updated_at: db.fn.now() })
  if (promoted) return
  await db.raw(`? on conflict (catalog_id) where deleted_at is null and status in ('held', 'approved') do nothing`, [
    db(HELD_REMOVAL_TABLE).insert({ id: newId("cshold"), catalog_id: row.catalog_id, product_id: row.product_id ?? null, source: "feed", status: "approved" }),
  ])
}

/**
 * How many products the shop still holds (their map row active, so `products_synced` counts them)
 * whose removal waits: held by a run or a pause, or approved (confirmed, or removed by the admin
 * from the kept list) until a run applies it. The catalog no longer sells them. `except` are the
 * catalog ids counted elsewhere (kept by a discard); `productId` narrows to one shop product.
 * Of them, `awaiting_answer` are held at a pause: nothing is decided until the admin confirms or
 * discards; `held_until_run_end` are held by a run that has not read its last page (the safety
 * brake judges them then). The rest (`total` less both) are decided and go with the next run.
 */
export async function removalsWaiting(
  connection: Connection,
  except: readonly string[],
  productId?: string
): Promise<{ total: number; awaiting_answer: number; held_until_run_end: number }> {
  const db = sqlOf(connection)
  const q = db(`${HELD_REMOVAL_TABLE} as h`)
    .join(`${PRODUCT_MAP_TABLE} as m`, "m.catalog_id", "h.catalog_id")
    .whereNull("h.deleted_at")
    .whereIn("h.status", ["held", "approved"])
    .whereNull("m.deleted_at")
    .where("m.status", "active")
  if (except.length) q.whereNotIn("h.catalog_id", [...except])
  if (productId) q.where("m.product_id", productId)
  const [row] = (await q.select(
    db.raw("count(distinct h.catalog_id) as n"),
    db.raw("count(distinct h.catalog_id) filter (where h.status = 'held' and h.paused_run_id is not null) as awaiting"),
    db.raw("count(distinct h.catalog_id) filter (where h.status = 'held' and h.paused_run_id is null) as held")
  )) as { n: string | number; awaiting: string | number; held: string | number }[]
  return { total: Number(row?.n ?? 0), awaiting_answer: Number(row?.awaiting ?? 0), held_until_run_end: Number(row?.held ?? 0) }
}
