// The reference data (categories, brands, brand models) of one run, asked from the catalog
// only when src/sync-run/reference-refresh.ts says it is due: a full pass, lists older than the
// interval, or a page carrying a category or brand the stored lists do not know. Otherwise the
// run uses the records already in the shop and costs the API nothing for them.
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import type { CatalogClient } from "../catalog-client/catalog-client"
import type { ChangeItem } from "../catalog-client/items"
import { parseEnvironment, readEnvironment } from "../config/environment"
import type { EffectiveSettings } from "../sync/settings"
import { refreshReferenceData, type ReferenceCache, type ReferenceMaps } from "../workflows/extras"
import { REFERENCE_MAX_AGE_MS, referenceFetchDue, unknownReferenceIds } from "./reference-refresh"

/** CATALOG_SYNC_REFERENCE_MAX_AGE_MS, else one hour. */
export function referenceMaxAgeMs(): number {
  return parseEnvironment(readEnvironment()).values.CATALOG_SYNC_REFERENCE_MAX_AGE_MS ?? REFERENCE_MAX_AGE_MS
}

type StateLike = { id: string; reference_cache?: unknown }

export class RunReferences {
  #fetched = false
  #maps: ReferenceMaps | null = null
  readonly #maxAgeMs = referenceMaxAgeMs()

  constructor(
    private readonly container: MedusaContainer,
    private readonly client: CatalogClient,
    private readonly state: StateLike,
    private readonly settings: Pick<EffectiveSettings, "primaryLanguage">,
    private readonly logger: Pick<Logger, "info">
  ) {}

  /** At run start: the stored records, refreshed from the API first if due. */
  async start(fullPass: boolean): Promise<ReferenceMaps> {
    return this.#load(fullPass, [])
  }

  /** Before a page is written: the run's maps, refreshed first if the page needs it. */
  async forPage(items: readonly ChangeItem[], fullPass: boolean): Promise<ReferenceMaps> {
    const maps = this.#maps
    if (!maps) return this.#load(fullPass, [])
    if (this.#fetched) return maps
    return this.#load(fullPass, unknownReferenceIds(items, maps), maps)
  }

  async #load(fullPass: boolean, unknownIds: string[], current?: ReferenceMaps): Promise<ReferenceMaps> {
    const cache = (this.state.reference_cache ?? null) as ReferenceCache | null
    const due = referenceFetchDue({
      lastFetchedAt: cache?.lists_fetched_at,
      now: Date.now(),
      maxAgeMs: this.#maxAgeMs,
      fullPass,
      fetchedThisRun: this.#fetched,
      unknownIds,
    })
    if (current && !due) return current
    if (due) {
      this.#fetched = true
      const about = due === "unknown_ids" ? ` (${unknownIds.slice(0, 5).join(", ")}${unknownIds.length > 5 ? ", …" : ""})` : ""
      this.logger.info(`catalog sync: reference lists fetched: ${due}${about}`)
    }
    const maps = await refreshReferenceData(this.container, this.client, this.state, this.settings, { fetchLists: due !== null })
    if (current) {
      // Brands and models a page made from its cards stay known to the run.
      for (const [k, v] of current.brandIdByCatalogId) if (!maps.brandIdByCatalogId.has(k)) maps.brandIdByCatalogId.set(k, v)
      for (const [k, v] of current.brandModelIdByCatalogId) if (!maps.brandModelIdByCatalogId.has(k)) maps.brandModelIdByCatalogId.set(k, v)
    }
    this.#maps = maps
    return maps
  }
}
