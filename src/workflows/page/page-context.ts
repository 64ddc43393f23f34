// A page's plan and its working data, held in this process while the page's workflow runs,
// out of the workflow's data by design: Medusa's engine copies workflow data each time a step
// reads it (a JavaScript walk of the whole value, then a JSON round trip), and a page's plan
// (cards → variants → offers) is large. The workflow's input names the page by a short key and
// carries its small settings; each step reads and adds to the page's data here. The caller that
// runs the workflow opens the page and drops it when the run settles (withOpenPage); a page
// written by another instance comes as JSON on the page-writes queue and is opened there.
import type { RejectedItem } from "../../catalog-client/items"
import type { WriteFence } from "../../bulk-write/write-fence"
import type { HeldValues, LockableField, PlannedFieldValues } from "../../field-locks"
import type { ProductBefore } from "../../sync/change-rows"
import type { PagePlan, PlannedUpsert } from "../../sync/plan-page"
import type { Language } from "../../sync/settings/language"
import type { ShopVocabulary } from "../../sync/shop-vocabulary"
import type { WritePath } from "../../shop-writer/shop-writer"
import type { NewReferences } from "../extras"
import type { Placement } from "../page-input"
import type { RemovalMode } from "../remove-catalog-products"
import type { PageReferences, PlannedWrite, PlanRecords, WrittenProduct } from "./page-types"
import type { CostPricing } from "./store-variant-costs"

/** A page's settings: the page workflow's input beside the page's key. */
export interface PageSettings {
  runId: string
  placement: Placement
  removalMode: RemovalMode
  /** The full pass this page belongs to (marks products seen for the sweep), or null. */
  fullPassId: string | null
  primaryLanguage: Language
  vocabulary: ShopVocabulary | null
  /** Concurrent chunks for creates and updates (read by the caller when the page runs). */
  writeConcurrency: number
  /** ISO time stamped on every map row the page writes. */
  syncedAt: string
  /** The run's price_calculation and rules revision, stored with each size's cost (null: priced without rules). */
  pricing?: CostPricing | null
}

/** A page for a writer: plain data, so it can cross to another instance (the page-writes queue). */
export interface PageToWrite extends PageSettings {
  /** The pure plan of the page (planPage); read only. */
  plan: PagePlan
  /** The run's brands and models of the page's products, its sale price list, whether translations are on. */
  refs: PageReferences
  /** The run lock every write of the page checks (bulk-write/write-fence.ts); null: unfenced. */
  fence?: WriteFence | null
  /** The run's writer (src/shop-writer), chosen once when the run started; null: chosen by the instance that writes the page. */
  writePath?: WritePath | null
}

/** The field locks of the page's mapped products and whether admin edits lock fields. */
export interface PageFieldLocks {
  /** product id → locked fields (products without locks absent). */
  byProductId: Record<string, LockableField[]>
  autoLockOnAdminEdit: boolean
}

/** Products a crash left behind for catalog ids this page creates (prepare-page-step.ts). */
export interface CrashLeftovers {
  /** catalog id → the leftover product this page adopts */
  adopted: Record<string, string>
  /** Further copies, to delete. */
  extraIds: string[]
}

/** What the page's steps found before the writes (prepare-page-step.ts). */
export interface PreparedPage {
  /** The plan's records after the map check (it may move products to create or update). */
  records: PlanRecords
  /** What Medusa held of the products the page rewrites or removes (change log). */
  shopBefore: Record<string, ProductBefore>
  leftovers: CrashLeftovers
  locks: PageFieldLocks
}

/** What the product writes did (write-products-step.ts). */
export interface PageWrites {
  /** Adopted leftovers count (and get their map rows) as created. */
  created: PlannedWrite[]
  updated: PlannedWrite[]
  rejected: RejectedItem[]
  /** Every written product, as the steps after the writes read it. */
  products: WrittenProduct[]
  /** Catalog ids written as price-only changes: brand links and translations (from the fields) leave them. */
  pricesOnly: string[]
  /** The catalog's values locks kept out, and (auto-lock on) what the writes set, by catalog id. */
  fieldValues: { held: HeldValues[]; written: Record<string, PlannedFieldValues> }
  /** product id → sizes whose prices are locked (they keep their sale prices). */
  lockedPriceSizes: Record<string, string[]>
}

export interface OpenPage {
  page: PageToWrite
  /** The plan's products by catalog id (their write inputs): creates, updates and stock-only ones. */
  planned: Map<string, PlannedUpsert>
  prepared?: PreparedPage
  writes?: PageWrites
  newReferences?: NewReferences
}

const open = new Map<string, OpenPage>()
let lastKey = 0

/** Runs `work` with the page open under a new key (the page workflow's input names it); dropped when `work` settles. */
export async function withOpenPage<T>(page: PageToWrite, work: (pageKey: string) => Promise<T>): Promise<T> {
  const key = `page-${++lastKey}`
  const { plan } = page
  open.set(key, { page, planned: new Map([...plan.create, ...plan.update, ...plan.stockOnly].map((p) => [p.catalogId, p])) })
  try {
    return await work(key)
  } finally {
    open.delete(key)
  }
}

/** The open page of this key; a read after its workflow settled is a bug, and says so. */
export function openPage(key: string): OpenPage {
  const page = open.get(key)
  if (!page) throw new Error(`catalog sync: page ${key} is not open in this process (read after its workflow settled?)`)
  return page
}
