// /v1/brands and /v1/brand-models → the plugin's own CatalogBrand / CatalogBrandModel
// records (linked to products in brand-links.ts). A brand missing from the list ("brands
// that have products on sale") is soft-deleted and restored with the same id when it
// returns, so links and storefront URLs built on the id survive.
import type { InferTypeOf, MedusaContainer } from "@medusajs/framework/types"
import { createHook, createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { Brand, BrandModel } from "../../catalog-client/schemas"
import { stableJson } from "../../sync/fingerprint"
import type { CatalogSyncModuleService } from "../../modules/catalog_sync"
import type { CatalogBrand } from "../../modules/catalog_sync/models/catalog-brand"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"

/** A brand or brand model row as read here (a model's brand as its foreign key). */
type ReferenceRow = Pick<InferTypeOf<typeof CatalogBrand>, "id" | "catalog_id" | "name" | "slug" | "deleted_at"> & { brand_id?: string | null }

export function catalogSyncService(container: MedusaContainer): CatalogSyncModuleService {
  return container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
}

export interface ReferenceRecord {
  catalogId: string
  name: string
  slug: string | null
  /** Models only: the brand's catalog id. */
  brandCatalogId?: string | null
}

export function brandRecords(brands: Brand[]): ReferenceRecord[] {
  return dedupe(brands.map((b) => ({ catalogId: b.id, name: b.name?.trim() || `Brand ${b.id}`, slug: b.slug?.trim() || null })))
}

export function modelRecords(models: BrandModel[]): ReferenceRecord[] {
  return dedupe(
    models.map((m) => ({
      catalogId: m.id,
      name: m.name?.trim() || `Model ${m.id}`,
      slug: m.slug?.trim() || null,
      brandCatalogId: m.brand_id ?? null,
    }))
  )
}

function dedupe(records: ReferenceRecord[]): ReferenceRecord[] {
  const seen = new Map<string, ReferenceRecord>()
  for (const r of records) if (!seen.has(r.catalogId)) seen.set(r.catalogId, r)
  return [...seen.values()]
}

export type Kind = "brand" | "model"

/** The module service's calls for one kind (rows typed as ReferenceRow, the data as the service takes it). */
type ReferenceOps = {
  list(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<ReferenceRow[]>
  create(data: Record<string, unknown>[]): Promise<ReferenceRow[]>
  update(data: Record<string, unknown>[]): Promise<unknown>
  softDelete(ids: string[]): Promise<unknown>
  restore(ids: string[]): Promise<unknown>
}

function ops(service: CatalogSyncModuleService, kind: Kind): ReferenceOps {
  const rows = (p: Promise<unknown>) => p as Promise<ReferenceRow[]>
  return kind === "brand"
    ? {
        list: (filters, config) => rows(service.listCatalogBrands(filters, config)),
        create: (data) => rows(service.createCatalogBrands(data as never)),
        update: (data) => service.updateCatalogBrands(data as never),
        softDelete: (ids) => service.softDeleteCatalogBrands(ids),
        restore: (ids) => service.restoreCatalogBrands(ids),
      }
    : {
        list: (filters, config) => rows(service.listCatalogBrandModels(filters, config)),
        create: (data) => rows(service.createCatalogBrandModels(data as never)),
        update: (data) => service.updateCatalogBrandModels(data as never),
        softDelete: (ids) => service.softDeleteCatalogBrandModels(ids),
        restore: (ids) => service.restoreCatalogBrandModels(ids),
      }
}

export interface UpsertResult {
  map: Map<string, string>
  created: number
  updated: number
  restored: number
  removed: number
}

/**
 * Makes the records of one kind match `records`. With `complete` (a full list from the API)
 * records not listed are soft-deleted; without it (records seen on cards) nothing is removed.
 * `brandIdByCatalogId` resolves a model's brand.
 */
export async function upsertReferenceRecords(
  container: MedusaContainer,
  kind: Kind,
  records: ReferenceRecord[],
  options: { complete: boolean; brandIdByCatalogId?: Map<string, string> }
): Promise<UpsertResult> {
  const o = ops(catalogSyncService(container), kind)
  const filter = options.complete ? {} : { catalog_id: records.map((r) => r.catalogId) }
  if (!options.complete && !records.length) return { map: new Map(), created: 0, updated: 0, restored: 0, removed: 0 }
  const rows = await o.list(filter, { withDeleted: true, take: null })
  // Several soft-deleted rows may share a catalog id; prefer the live one, else the newest.
  const byCatalogId = new Map<string, ReferenceRow>()
  for (const row of rows) {
    const current = byCatalogId.get(row.catalog_id)
    if (!current || (current.deleted_at && !row.deleted_at)) byCatalogId.set(row.catalog_id, row)
  }
  const brandId = (r: ReferenceRecord) => (r.brandCatalogId ? (options.brandIdByCatalogId?.get(r.brandCatalogId) ?? null) : null)
  const values = (r: ReferenceRecord) => {
    const v: Record<string, unknown> = { name: r.name, slug: r.slug }
    if (kind === "model") v.brand_id = brandId(r)
    return v
  }

  const toCreate: Record<string, unknown>[] = []
  const toUpdate: Record<string, unknown>[] = []
  const toRestore: string[] = []
  for (const r of records) {
    const row = byCatalogId.get(r.catalogId)
    if (!row) {
      toCreate.push({ catalog_id: r.catalogId, ...values(r) })
      continue
    }
    if (row.deleted_at) toRestore.push(row.id)
    const want = values(r)
    // A model seen only on a card may not know its brand: never erase a known one.
    if (kind === "model" && want.brand_id === null && row.brand_id) want.brand_id = row.brand_id
    const have: Record<string, unknown> = { name: row.name, slug: row.slug }
    if (kind === "model") have.brand_id = row.brand_id ?? null
    if (!options.complete && r.slug === null) want.slug = row.slug
    if (stableJson(have) !== stableJson(want)) toUpdate.push({ id: row.id, ...want })
  }
  const listed = new Set(records.map((r) => r.catalogId))
  const toRemove = options.complete ? rows.filter((row) => !row.deleted_at && !listed.has(row.catalog_id)).map((row) => row.id) : []

  if (toRestore.length) await o.restore(toRestore)
  const created = toCreate.length ? await o.create(toCreate) : []
  if (toUpdate.length) await o.update(toUpdate)
  if (toRemove.length) await o.softDelete(toRemove)

  const map = new Map<string, string>()
  for (const r of records) {
    const id = byCatalogId.get(r.catalogId)?.id
    if (id) map.set(r.catalogId, id)
  }
  for (const row of created) map.set(row.catalog_id, row.id)
  return { map, created: created.length, updated: toUpdate.length, restored: toRestore.length, removed: toRemove.length }
}

export interface SyncReferenceRecordsInput {
  kind: Kind
  records: ReferenceRecord[]
  /** A full list from the API: records not listed are soft-deleted. */
  complete: boolean
  /** Models only: brand catalog id → brand record id. */
  brandIdByCatalogId?: Record<string, string>
}

/** As UpsertResult, the map as a plain record (workflow results are plain data). */
export type SyncReferenceRecordsResult = Omit<UpsertResult, "map"> & { map: Record<string, string> }

export const upsertReferenceRecordsStepId = "catalog-sync-upsert-reference-records"
export const upsertReferenceRecordsStep = createStep(upsertReferenceRecordsStepId, async (input: SyncReferenceRecordsInput, { container }) => {
  const brandIdByCatalogId = input.brandIdByCatalogId ? new Map(Object.entries(input.brandIdByCatalogId)) : undefined
  const { map, ...counts } = await upsertReferenceRecords(container, input.kind, input.records, { complete: input.complete, brandIdByCatalogId })
  return new StepResponse<SyncReferenceRecordsResult>({ ...counts, map: Object.fromEntries(map) })
})

export const syncReferenceRecordsWorkflowId = "catalog-sync-sync-reference-records"

/**
 * Makes the brand or brand model records match a list from the API (/v1/brands,
 * /v1/brand-models). The `referenceRecordsSynced` hook receives the kind and the result.
 */
export const syncReferenceRecordsWorkflow = createWorkflow(syncReferenceRecordsWorkflowId, (input: SyncReferenceRecordsInput) => {
  const result = upsertReferenceRecordsStep(input)
  const kind = transform({ input }, ({ input }) => input.kind)
  const referenceRecordsSynced = createHook("referenceRecordsSynced", { kind, result })
  return new WorkflowResponse(result, { hooks: [referenceRecordsSynced] })
})

/** catalog id → record id of the live records of one kind. */
export async function liveRecordMap(container: MedusaContainer, kind: Kind): Promise<Map<string, string>> {
  const rows = await ops(catalogSyncService(container), kind).list({}, { select: ["id", "catalog_id"], take: null })
  return new Map(rows.map((r) => [r.catalog_id, r.id]))
}
