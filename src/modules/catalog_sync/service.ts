import { InjectTransactionManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import CatalogSyncSettings from "./models/catalog-sync-settings"
import CatalogSyncState from "./models/catalog-sync-state"
import CatalogSyncRun from "./models/catalog-sync-run"
import CatalogSyncRunChange from "./models/catalog-sync-run-change"
import CatalogProductMap from "./models/catalog-product-map"
import { CatalogBrand, CatalogBrandModel } from "./models/catalog-brand"
import CatalogMirroredImage from "./models/catalog-mirrored-image"
import CatalogMirroredImageRef from "./models/catalog-mirrored-image-ref"
import CatalogVariantCost from "./models/catalog-variant-cost"
import CatalogFieldLock from "./models/catalog-field-lock"
import CatalogHeldRemoval from "./models/catalog-held-removal"
import CatalogPendingRemoval from "./models/catalog-pending-removal"
import {
  type CatalogSyncPluginOptions,
  type EffectiveSettings,
  type SettingsPatch,
  type SettingsRow,
  initialRowValues,
  normaliseBaseUrl,
  resolveEffectiveSettings,
} from "../../sync/settings"
import { fieldLocksOf } from "../../sync/settings/effective-settings"
import {
  effectiveLocks,
  productLockOverrideSchema,
  withFieldLock,
  type LockableField,
  type PlannedFieldValues,
  type ProductLockOverride,
  type ShopLockDefaults,
} from "../../field-locks"
import { apiKeyId } from "../../catalog-client/key-id"
import { stableJson } from "../../sync/fingerprint"
import { apiKeyLast4, decryptSecret, encryptSecret, resolveEncryptionSecret } from "./secret-crypto"
import type { Context, Logger } from "@medusajs/framework/types"

/**
 * The catalog_sync module's service. MedusaService generates the CRUD methods
 * (listCatalogSyncRuns, createCatalogProductMaps, ...). The helpers below own the two
 * single-row records (settings, state) and the key's encryption. It starts nothing: the queue
 * and the worker belong to the catalog_sync_runtime module, which depends on this one.
 */
/** The settings row's JSON columns: each is saved whole (see replaceSettingsRow_). */
const SETTINGS_JSON_COLUMNS = ["pricing_rules", "brake", "field_locks", "filter"] as const

class CatalogSyncModuleService extends MedusaService({
  CatalogSyncSettings,
  CatalogSyncState,
  CatalogSyncRun,
  CatalogSyncRunChange,
  CatalogProductMap,
  CatalogBrand,
  CatalogBrandModel,
  CatalogMirroredImage,
  CatalogMirroredImageRef,
  CatalogVariantCost,
  CatalogFieldLock,
  CatalogHeldRemoval,
  CatalogPendingRemoval,
}) {
  protected readonly pluginOptions_: CatalogSyncPluginOptions
  protected readonly logger_: Logger
  private warnedBadBaseUrl_ = false

  constructor(container: Record<string, unknown>, options?: CatalogSyncPluginOptions) {
    // eslint-disable-next-line prefer-rest-params
    super(...arguments)
    this.pluginOptions_ = options ?? {}
    this.logger_ = (container.logger as Logger | undefined) ?? (console as unknown as Logger)
  }

  getPluginOptions(): CatalogSyncPluginOptions {
    return this.pluginOptions_
  }

  /** The saved settings row, or null before the admin first saves. */
  async getSettingsRow(): Promise<(SettingsRow & { id: string }) | null> {
    const [row] = await this.listCatalogSyncSettings({}, { take: 1, order: { created_at: "ASC" } })
    return (row as unknown as SettingsRow & { id: string }) ?? null
  }

  /** Admin settings over plugin options, the key decrypted (never log the result). */
  async getEffectiveSettings(): Promise<EffectiveSettings> {
    const row = await this.getSettingsRow()
    let decryptedKey: string | null = null
    if (row?.api_key_encrypted) {
      try {
        decryptedKey = decryptSecret(row.api_key_encrypted, resolveEncryptionSecret(this.pluginOptions_.encryptionKey))
      } catch (e) {
        this.logger_.warn(`catalog sync: ${(e as Error).message}`)
      }
    }
    const secret = resolveEncryptionSecret(this.pluginOptions_.encryptionKey)
    if (!this.warnedBadBaseUrl_ && this.pluginOptions_.baseUrl?.trim() && !normaliseBaseUrl(this.pluginOptions_.baseUrl)) {
      this.warnedBadBaseUrl_ = true
      this.logger_.warn("catalog sync: the plugin option baseUrl is not an http(s) URL without credentials, query or fragment; it is ignored")
    }
    return resolveEffectiveSettings({ row, options: this.pluginOptions_, decryptedKey, hashKey: (key) => apiKeyId(key, secret) })
  }

  /**
   * Applies a validated patch (see validateSettingsPatch) and bumps the revision. A new key
   * is encrypted here; without an encryption secret it throws MissingEncryptionKeyError and
   * nothing is saved.
   */
  async saveSettings(patch: SettingsPatch): Promise<EffectiveSettings> {
    const { api_key, ...rest } = patch
    const values: Record<string, unknown> = { ...rest }
    if (api_key !== undefined) {
      if (api_key === null) {
        values.api_key_encrypted = null
        values.api_key_last4 = null
        values.api_key_hash = null
      } else {
        const secret = resolveEncryptionSecret(this.pluginOptions_.encryptionKey)
        values.api_key_encrypted = encryptSecret(api_key, secret)
        values.api_key_last4 = apiKeyLast4(api_key)
        values.api_key_hash = apiKeyId(api_key, secret)
      }
    }
    // Saved rules take the stored API markup parameters over (they were folded into them): cleared.
    if (patch.pricing_rules !== undefined) Object.assign(values, { markup_percent: null, discount_percent: null, old_price_markup_percent: null })
    const row = await this.getSettingsRow()
    // A change of the saved rules bumps their revision (reprice runs and cost rows name it).
    if (patch.pricing_rules !== undefined && stableJson(patch.pricing_rules) !== stableJson(row?.pricing_rules ?? null)) {
      values.pricing_rules_revision = (row?.pricing_rules_revision ?? 0) + 1
    }
    if (!row) {
      await this.createCatalogSyncSettings({ ...initialRowValues(this.pluginOptions_), ...values, revision: 1 } as any)
    } else {
      await this.replaceSettingsRow_(row.id, { ...values, revision: (row.revision ?? 0) + 1 })
    }
    return this.getEffectiveSettings()
  }

  /**
   * Updates the settings row with each JSON column of `values` written whole. The module's update
   * merges an object into the stored one (mergeObjectProperties), so a key the new value leaves
   * out would stay: a crossed-out rule of another type kept the old rule's percent and no longer
   * parsed, a narrowed filter kept the brands it dropped. The columns are cleared first, in the
   * same transaction.
   */
  @InjectTransactionManager()
  protected async replaceSettingsRow_(id: string, values: Record<string, unknown>, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const objects = SETTINGS_JSON_COLUMNS.filter((c) => values[c] !== undefined && values[c] !== null)
    if (objects.length) await this.updateCatalogSyncSettings({ id, ...Object.fromEntries(objects.map((c) => [c, null])) } as any, sharedContext)
    await this.updateCatalogSyncSettings({ id, ...values } as any, sharedContext)
  }

  /** The shop-wide field locks (settings `field_locks`). */
  async getFieldLockDefaults(): Promise<ShopLockDefaults> {
    return fieldLocksOf(await this.getSettingsRow())
  }

  /** Each product's lock row (absent: no row yet). */
  async listFieldLockRows(productIds: string[]): Promise<Map<string, FieldLockRow>> {
    if (!productIds.length) return new Map()
    const rows = (await this.listCatalogFieldLocks({ product_id: productIds }, { take: null })) as unknown as FieldLockRow[]
    return new Map(rows.map((r) => [r.product_id, r]))
  }

  /** The fields locked on each product (shop default and the product's own override), only products with a lock. */
  async readFieldLocks(productIds: string[]): Promise<Record<string, LockableField[]>> {
    return (await this.readFieldLocksAndDefaults(productIds)).byProductId
  }

  /** readFieldLocks and the shop's defaults, read side by side (a sync page needs both). */
  async readFieldLocksAndDefaults(productIds: string[]): Promise<{ byProductId: Record<string, LockableField[]>; defaults: ShopLockDefaults }> {
    const [defaults, rows] = await Promise.all([this.getFieldLockDefaults(), this.listFieldLockRows(productIds)])
    const byProductId: Record<string, LockableField[]> = {}
    for (const id of productIds) {
      const locked = effectiveLocks(defaults, overrideOf(rows.get(id)))
      if (locked.length) byProductId[id] = locked
    }
    return { byProductId, defaults }
  }

  /** The catalog ids among these whose product has `field` locked (shop default or its own override). */
  async catalogIdsWithLockedField(catalogIds: string[], field: LockableField): Promise<Set<string>> {
    if (!catalogIds.length) return new Set()
    // Side by side: a sync page's brake sends both before it plans the page (write-page.ts).
    const [defaults, rows] = await Promise.all([
      this.getFieldLockDefaults(),
      this.listCatalogFieldLocks({ catalog_id: catalogIds }, { take: null }) as unknown as Promise<FieldLockRow[]>,
    ])
    const overrides = new Map(rows.map((r) => [r.catalog_id, overrideOf(r)]))
    return new Set(catalogIds.filter((id) => effectiveLocks(defaults, overrides.get(id)).includes(field)))
  }

  /** Locks (or unlocks) fields of one product; returns its new override. */
  async setProductFieldLock(productId: string, catalogId: string | null, fields: LockableField[], locked: boolean): Promise<ProductLockOverride> {
    const defaults = await this.getFieldLockDefaults()
    const row = (await this.listFieldLockRows([productId])).get(productId)
    const override = withFieldLock(defaults, overrideOf(row), fields, locked)
    await this.upsertFieldLockRows([{ product_id: productId, catalog_id: catalogId ?? row?.catalog_id ?? null, lock: override.lock, unlock: override.unlock }])
    return override
  }

  /**
   * Merges per-product values into `held` or `written` (a field not in the new values keeps
   * its recorded one): the catalog's values a lock kept out, or what the sync wrote.
   */
  async mergeFieldValues(
    column: "held" | "written",
    values: { productId: string; catalogId: string | null; values: PlannedFieldValues }[],
    at: Date = new Date()
  ) {
    if (!values.length) return
    const rows = await this.listFieldLockRows(values.map((v) => v.productId))
    await this.upsertFieldLockRows(
      values.map((v) => ({
        product_id: v.productId,
        catalog_id: v.catalogId ?? rows.get(v.productId)?.catalog_id ?? null,
        [column]: { ...((rows.get(v.productId)?.[column] as PlannedFieldValues | null) ?? {}), ...v.values },
        ...(column === "held" ? { held_at: at } : {}),
      })),
      rows
    )
  }

  /** Forgets held values of fields (an unlocked field's held value is taken or stale). */
  async dropHeldValues(productId: string, fields: LockableField[]) {
    const row = (await this.listFieldLockRows([productId])).get(productId)
    if (!row?.held) return
    const held = { ...(row.held as Record<string, unknown>) }
    for (const f of fields) delete held[f]
    await this.updateCatalogFieldLocks({ id: row.id, held } as any)
  }

  private async upsertFieldLockRows(values: (Partial<FieldLockRow> & { product_id: string })[], known?: Map<string, FieldLockRow>) {
    const rows = known ?? (await this.listFieldLockRows(values.map((v) => v.product_id)))
    const updates = values.filter((v) => rows.has(v.product_id)).map((v) => ({ id: rows.get(v.product_id)!.id, ...v }))
    const creates = values.filter((v) => !rows.has(v.product_id))
    if (updates.length) await this.updateCatalogFieldLocks(updates as any)
    if (creates.length) await this.createCatalogFieldLocks(creates as any)
  }

  /** The sync state row, created on first use. */
  async getState() {
    const [state] = await this.listCatalogSyncStates({}, { take: 1, order: { created_at: "ASC" } })
    if (state) return state
    return this.createCatalogSyncStates({})
  }

  async updateState(patch: Record<string, unknown>) {
    const state = await this.getState()
    return this.updateCatalogSyncStates({ id: state.id, ...patch } as any)
  }
}

/** A mcs_field_lock row (see its model). */
export interface FieldLockRow {
  id: string
  product_id: string
  catalog_id: string | null
  lock: LockableField[] | null
  unlock: LockableField[] | null
  held: PlannedFieldValues | null
  held_at: Date | null
  written: PlannedFieldValues | null
}

function overrideOf(row: FieldLockRow | undefined): ProductLockOverride {
  const parsed = productLockOverrideSchema.safeParse({ lock: row?.lock ?? [], unlock: row?.unlock ?? [] })
  return parsed.success ? parsed.data : { lock: [], unlock: [] }
}

export default CatalogSyncModuleService
