// Writes one page: reads the page's product-map rows, plans (pure, in slices), then runs
// syncCatalogPageWorkflow (src/workflows/sync-catalog-page.ts) on the page opened in this
// process (src/workflows/page/page-context.ts), which carries the plan out step by step and
// writes the map rows last. The caller stores the cursor only after this
// returns (rule 2: commit before moving the bookmark).
// One turn of the event loop between planning slices: what waits for I/O runs before the caller goes on.
import { setImmediate as nextTurn } from "node:timers/promises"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { ChangeItem, RejectedItem } from "../catalog-client/items"
import type { MapContext } from "../sync/map-card"
import { planPageInSlices, type PagePlan } from "../sync/plan-page"
import type { BrakeCheck, BrakePause, CurrentPrice } from "../sync/safety-brake"
import type { EffectiveSettings } from "../sync/settings"
import type { ReferenceMaps } from "../workflows/extras"
import type { Placement } from "../workflows/page-input"
import { pageReferencesOf } from "../workflows/page/page-types"
import { readMapRows } from "../modules/catalog_sync/sql/product-map"
import type { RemovalMode } from "../workflows/remove-catalog-products"
import { syncCatalogPageWorkflow, type SyncCatalogPageResult } from "../workflows/sync-catalog-page"
import type { PageImages } from "./page-images"
import { stepTimings, timed } from "../workflows/steps/profile"
import { withOpenPage, type PageToWrite } from "../workflows/page/page-context"
import { withWriteFence, type WriteFence } from "../bulk-write/write-fence"
import { runWritePath, withWritePath } from "../shop-writer/choose-shop-writer"

export interface PageContext {
  container: MedusaContainer
  runId: string
  mapContext: MapContext
  placement: Placement
  removalMode: RemovalMode
  /** The full pass this page belongs to (marks products seen for the sweep), or null. */
  fullPassId: string | null
  /** The run's reference data; brands and models a page makes are added for later pages. */
  refs: ReferenceMaps
  settings: EffectiveSettings
  /**
   * A page's creates and updates are written as this many concurrent workflows: the product
   * module's ORM work is CPU in this process while PostgreSQL works on the other core, so two
   * halves overlap (CATALOG_SYNC_WRITE_CONCURRENCY, resolved by the runtime).
   */
  writeConcurrency: number
  /** Mirrored images (setting mirror_images), or null: products keep the catalog's image URLs. */
  images?: PageImages | null
  /** The run lock the page's writes check inside their transactions, or null (unfenced). */
  fence?: WriteFence | null
  /** Told the page's plan before it is written (the run shows what the page found as it goes). */
  onPlanned?: (plan: PagePlan) => void
  /**
   * The safety brake: what it reads of the shop for the page's products (read while the page is
   * planned), then its check: the plan to write (its removals taken out, to be held), or a pause
   * (nothing written).
   */
  brake?: PageBrake
}

export interface PageOutcome {
  plan: PagePlan
  rejected: RejectedItem[]
  /** Milliseconds per part of the write, for the run's log. */
  timings: Record<string, number>
  /** Change-log rows stored and changes left without a row (the run's cap). */
  changeLog: SyncCatalogPageResult["changeLog"]
  /** Set when the safety brake paused the run before this page: nothing of it was written. */
  paused?: BrakePause
}

/** The workflow engine hands a step's error back serialized: made an Error again for the run's record and log. */
function asError(error: unknown): unknown {
  if (error instanceof Error || !error || typeof error !== "object" || typeof (error as { message?: unknown }).message !== "string") return error
  const { message, stack, ...rest } = error as { message: string; stack?: string }
  const out = Object.assign(new Error(message), rest)
  if (typeof stack === "string") out.stack = stack
  return out
}

/** The plan as the workflow wrote it (its result names the products by catalog id). */
function asWritten(plan: PagePlan, written: SyncCatalogPageResult["written"]): PagePlan {
  const byId = new Map([...plan.create, ...plan.update, ...plan.stockOnly].map((p) => [p.catalogId, p]))
  const pick = (ids: string[]) => ids.map((id) => byId.get(id)!)
  return { ...plan, create: pick(written.create), update: pick(written.update), stockOnly: pick(written.stockOnly) }
}

export interface PageBrake {
  /** The shop's current prices of these products (a superset of the plan's updates: the page's products with a live map row). */
  read: (catalogIds: string[]) => Promise<ReadonlyMap<string, CurrentPrice>>
  check: (plan: PagePlan, current: ReadonlyMap<string, CurrentPrice>) => BrakeCheck
}

/** Carries out a prepared page: in this process, or on any instance's page writer (page-writer.ts). */
export type PageWriter = (page: PageToWrite) => Promise<SyncCatalogPageResult>

/** The page's workflow, run in this process. */
export function localPageWriter(container: MedusaContainer): PageWriter {
  return async (toWrite) => {
    // The workflow's input is the page's key and settings: the plan stays in this process, open
    // until the run settles. Every write of the page checks the run's lock (write-fence.ts) and
    // goes the run's way (src/shop-writer), on whichever instance writes it.
    const { plan: _plan, refs: _refs, fence, writePath, ...settings } = toWrite
    const run = () =>
      withWriteFence(fence, () =>
        withOpenPage(toWrite, (pageKey) =>
          syncCatalogPageWorkflow(container).run({ input: { pageKey, ...settings }, events: stepTimings(container, "page") as never })
        )
      )
    try {
      const { result } = await (writePath ? withWritePath(writePath, run) : run())
      return result
    } catch (error) {
      throw asError(error)
    }
  }
}

/** A page planned and judged by the brake, ready for a writer (plain data), or paused. */
export type PreparedPage =
  | { paused: BrakePause; plan: PagePlan; input?: undefined; started: number }
  | {
      paused?: undefined
      plan: PagePlan
      /** The page's removals the brake took out of the plan, to be held (held-removals.ts), not written. */
      held: PagePlan["remove"]
      input: PageToWrite
      /** The plan the input carries: with mirrored image URLs when images are mirrored. */
      sent: PagePlan
      mirrored: Awaited<ReturnType<PageImages["mirrorPlan"]>> | null
      started: number
      planned: number
      imagesDone: number
    }

/** Reads the page's map rows, plans, asks the brake and mirrors images: everything before the write. */
export async function preparePage(items: ChangeItem[], ctx: PageContext): Promise<PreparedPage> {
  const { container } = ctx
  const started = Date.now()
  const ids = [...new Set(items.map((i) => i.id))]
  const { brake } = ctx
  const rows = await timed(container, "plan: read map rows", () => readMapRows(container, ids))
  // The brake's read runs in PostgreSQL while the page is planned, for the products that may be
  // updates (a live map row with a product): the plan's updates are among them.
  const current = brake?.read(rows.filter((r) => r.product_id && r.status !== "removed").map((r) => r.catalog_id))
  current?.catch(() => undefined) // awaited below; a failure before then must not go unhandled
  // Planning runs on the server's event loop: in slices, with a turn of the loop between them, so
  // shoppers' requests (and the brake read's queries) go on while a page is planned.
  const planned0 = await timed(container, "plan: planPage", () => planPageInSlices(items, rows, ctx.mapContext, nextTurn))
  const checked = brake && current ? await timed(container, "plan: brake", async () => brake.check(planned0, await current)) : { plan: planned0, held: [] }
  if (checked.pause) return { paused: checked.pause, plan: planned0, started }
  const { plan, held } = checked
  const planned = Date.now()
  ctx.onPlanned?.(plan)
  // Before the workflow: the products are written once, with the shop's copies (page-images.ts).
  const mirrored = ctx.images ? await ctx.images.mirrorPlan(plan) : null
  const imagesDone = Date.now()
  // The plan the workflow writes: with the shop's copies of the images when they are mirrored.
  const sent = mirrored?.plan ?? plan
  const input: PageToWrite = {
    runId: ctx.runId,
    plan: sent,
    placement: ctx.placement,
    removalMode: ctx.removalMode,
    fullPassId: ctx.fullPassId,
    refs: pageReferencesOf(ctx.refs, sent),
    primaryLanguage: ctx.settings.primaryLanguage,
    vocabulary: ctx.settings.vocabulary ?? null,
    writeConcurrency: ctx.writeConcurrency,
    syncedAt: new Date().toISOString(),
    pricing: ctx.mapContext.pricing ? { priceCalculation: ctx.settings.pricing.price_calculation, rulesRevision: ctx.settings.pricingRulesRevision } : null,
    fence: ctx.fence ?? null,
    writePath: runWritePath() ?? null,
  }
  return { plan, held, input, sent, mirrored, started, planned, imagesDone }
}

/** After the page's workflow committed: images bookkeeping, new brands for later pages, the outcome. */
export async function finishPage(
  prepared: Extract<PreparedPage, { input: PageToWrite }>,
  result: SyncCatalogPageResult,
  ctx: PageContext
): Promise<PageOutcome> {
  const { mirrored, plan } = prepared
  // Cards a writer found overtaken when it wrote (page-writes-worker.ts) count as unchanged.
  const stale = new Set((result as { stale?: string[] }).stale ?? [])
  if (ctx.images && mirrored) {
    await ctx.images.afterPage({
      released: mirrored.released,
      removedCatalogIds: plan.remove.map((r) => r.catalog_id),
      anyRejected: result.rejected.length > 0,
    })
  }
  for (const [k, v] of Object.entries(result.newReferences.brandIdByCatalogId)) ctx.refs.brandIdByCatalogId.set(k, v)
  for (const [k, v] of Object.entries(result.newReferences.brandModelIdByCatalogId)) ctx.refs.brandModelIdByCatalogId.set(k, v)
  const timings = {
    plan: prepared.planned - prepared.started,
    ...(mirrored ? { images: prepared.imagesDone - prepared.planned } : {}),
    write: Date.now() - prepared.imagesDone,
  }
  const written = asWritten(prepared.sent, result.written)
  if (stale.size) {
    const overtaken = [...plan.create, ...plan.update, ...plan.stockOnly].filter((p) => stale.has(p.catalogId))
    written.unchanged = [...written.unchanged, ...overtaken]
  }
  return { plan: written, rejected: result.rejected, timings, changeLog: result.changeLog }
}

export async function writePage(items: ChangeItem[], ctx: PageContext, writer: PageWriter = localPageWriter(ctx.container)): Promise<PageOutcome> {
  const prepared = await preparePage(items, ctx)
  if (prepared.paused) {
    return {
      plan: prepared.plan,
      rejected: [],
      timings: { plan: Date.now() - prepared.started },
      changeLog: { stored: 0, omitted: {} },
      paused: prepared.paused,
    }
  }
  return finishPage(prepared, await writer(prepared.input), ctx)
}
