// Removals a run holds instead of applying (models/catalog-held-removal.ts): every removal of a
// run (changes-feed `removed` items, the end-of-pass sweep, a narrowed filter) is recorded here
// before the cursor past it is stored, judged together by the safety brake once the run has
// read its last page, and applied only then (or, after a pause, once the admin confirms). So a
// pause has removed nothing, and a crash at any point neither loses a held removal (it is
// committed before the cursor moves) nor applies one twice (applying skips a product whose map
// row is no longer active, and marks the chunk applied after its removal committed).
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Knex } from "knex"
import { newId } from "../bulk-write/ids"
import { BRAKE_PREVIEW_SIZE, type PlannedRemoval } from "../pricing/brake"
import type { MapRow } from "../sync/plan-page"
import { knexOf } from "../bulk-write/sql"
import { removeMappedProducts, type RemovalMode } from "../workflows/remove-catalog-products"
import { insertChangeRows } from "../workflows/page/change-log-rows"
import type { ChangeRecord } from "../sync/change-rows"

export const HELD_REMOVAL_TABLE = "mcs_held_removal"
const MAP_TABLE = "mcs_product_map"
const CHUNK = 200

export type HoldSource = "feed" | "sweep" | "filter"
/** held: waits for the run's end; approved: confirmed by the admin, applied by the continuing run. */
export type PendingStatus = "held" | "approved"

export type HeldCounts = Record<HoldSource, number>

const zero = (): HeldCounts => ({ feed: 0, sweep: 0, filter: 0 })

/**
 * Holds these removals (one row per product; one already pending is left as it is, so a page
 * replayed after a crash holds nothing twice). Returns how many rows were added.
 */
export async function holdRemovals(db: Knex, rows: readonly Pick<MapRow, "catalog_id" | "product_id">[], source: HoldSource, runId: string): Promise<number> {
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
    const { rowCount } = (await db.raw(
      `? on conflict (catalog_id) where deleted_at is null and status in ('held', 'approved') do nothing`,
      [db(HELD_REMOVAL_TABLE).insert(values)]
    )) as { rowCount: number }
    added += rowCount
  }
  return added
}

/**
 * The catalog sent these products again (created, updated or unchanged on a later page): a
 * removal still held for them is no longer the catalog's word, so it is dropped (status
 * "returned"). Approved ones stay: the admin's confirm is applied before the run reads a page.
 */
export async function releaseHolds(db: Knex, catalogIds: readonly string[]): Promise<number> {
  if (!catalogIds.length) return 0
  return db(HELD_REMOVAL_TABLE)
    .whereNull("deleted_at")
    .where("status", "held")
    .whereIn("catalog_id", [...catalogIds])
    .update({ status: "returned", resolved_at: db.fn.now(), updated_at: db.fn.now() })
}

function pending(db: Knex, status: PendingStatus, pausedRunId?: string): Knex.QueryBuilder {
  const q = db(HELD_REMOVAL_TABLE).whereNull("deleted_at").where("status", status)
  return pausedRunId ? q.where("paused_run_id", pausedRunId) : q
}

/** How many removals are pending with this status, by source. */
export async function countPending(db: Knex, status: PendingStatus): Promise<HeldCounts & { total: number }> {
  const rows = (await pending(db, status).select("source").count({ n: "id" }).groupBy("source")) as { source: HoldSource; n: string | number }[]
  const counts = zero()
  for (const r of rows) if (r.source in counts) counts[r.source] = Number(r.n)
  return { ...counts, total: counts.feed + counts.sweep + counts.filter }
}

/** The first held removals (the preview's sample), with the product they would remove. */
export async function heldSample(db: Knex, size = BRAKE_PREVIEW_SIZE): Promise<PlannedRemoval[]> {
  const rows = (await pending(db, "held").select("catalog_id", "product_id").orderBy("id").limit(size)) as { catalog_id: string; product_id: string | null }[]
  return rows.map((r) => ({ catalog_id: r.catalog_id, product_id: r.product_id }))
}

/** Every held catalog id, in hold order (what a pause lists). */
export async function heldIds(db: Knex, pausedRunId?: string): Promise<string[]> {
  const q = pausedRunId ? db(HELD_REMOVAL_TABLE).whereNull("deleted_at").where("paused_run_id", pausedRunId) : pending(db, "held")
  const rows = (await q.select("catalog_id").orderBy("id")) as { catalog_id: string }[]
  return rows.map((r) => r.catalog_id)
}

/** The held removals are the pause's: its answer covers exactly these rows. */
export async function markPaused(db: Knex, runId: string): Promise<number> {
  return pending(db, "held").update({ paused_run_id: runId, updated_at: db.fn.now() })
}

/**
 * The admin's answer to the pause of run `pausedRunId`: its held removals become approved (the
 * continuing run applies them) or discarded (never applied). Returns their catalog ids.
 */
export async function answerHolds(db: Knex, pausedRunId: string, action: "confirmed" | "discarded"): Promise<string[]> {
  const rows = (await pending(db, "held", pausedRunId)
    .update(action === "confirmed" ? { status: "approved", updated_at: db.fn.now() } : { status: "discarded", resolved_at: db.fn.now(), updated_at: db.fn.now() })
    .returning("catalog_id")) as { catalog_id: string }[]
  return rows.map((r) => r.catalog_id)
}

/**
 * Applies the pending removals of this status a chunk at a time: removes the products whose map
 * row is still active (per `mode`), then marks the chunk applied. After a crash between the two,
 * the chunk's products are no longer active and are only marked. Returns how many products were
 * removed, by source. `beforeChunk`: the run's fence (a run that lost its lock removes nothing).
 */
export async function applyPending(
  container: MedusaContainer,
  status: PendingStatus,
  opts: { mode: RemovalMode; runId: string; beforeChunk?: () => Promise<void>; removed?: (catalogIds: string[]) => Promise<void> }
): Promise<HeldCounts> {
  const db = knexOf(container)
  const counts = zero()
  for (;;) {
    const chunk = (await pending(db, status).select("id", "catalog_id", "source").orderBy("id").limit(CHUNK)) as { id: string; catalog_id: string; source: HoldSource }[]
    if (!chunk.length) return counts
    await opts.beforeChunk?.()
    const active = (await db(MAP_TABLE)
      .whereNull("deleted_at")
      .where("status", "active")
      .whereIn("catalog_id", chunk.map((r) => r.catalog_id))
      .select("id", "catalog_id", "product_id")) as { id: string; catalog_id: string; product_id: string | null }[]
    if (active.length) {
      const titles = await titlesOf(db, active)
      await removeMappedProducts(container, active, { mode: opts.mode, runId: opts.runId, now: new Date() })
      await opts.removed?.(active.map((r) => r.catalog_id))
      // The run's change log names what it removed (a held removal is logged when it is applied, not when held).
      await insertChangeRows(db, opts.runId, active.map((r) => removedRow(r, titles.get(r.product_id ?? "") ?? null)))
    }
    const sourceOf = new Map(chunk.map((r) => [r.catalog_id, r.source]))
    for (const r of active) counts[sourceOf.get(r.catalog_id) ?? "feed"]++
    await db(HELD_REMOVAL_TABLE).whereIn("id", chunk.map((r) => r.id)).update({ status: "applied", resolved_at: db.fn.now(), updated_at: db.fn.now() })
  }
}

/** The products' titles before they are removed (the change log names them). */
async function titlesOf(db: Knex, rows: { product_id: string | null }[]): Promise<Map<string, string>> {
  const ids = rows.map((r) => r.product_id).filter((id): id is string => !!id)
  if (!ids.length) return new Map()
  const found = (await db("product").select("id", "title").whereIn("id", ids)) as { id: string; title: string }[]
  return new Map(found.map((p) => [p.id, p.title]))
}

function removedRow(r: { catalog_id: string; product_id: string | null }, title: string | null): ChangeRecord {
  return {
    kind: "removed",
    catalog_id: r.catalog_id,
    product_id: r.product_id,
    title,
    price_changed: false,
    stock_changed: false,
    sizes_changed: false,
    images_changed: false,
    text_changed: false,
    price_before: null,
    price_after: null,
    reason: null,
  }
}
