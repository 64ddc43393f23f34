import { MedusaService } from "@medusajs/framework/utils"
import CatalogSyncSettings from "./models/catalog-sync-settings"
import CatalogSyncState from "./models/catalog-sync-state"
import CatalogSyncRun from "./models/catalog-sync-run"
import CatalogSyncRunChange from "./models/catalog-sync-run-change"
import CatalogProductMap from "./models/catalog-product-map"
import { CatalogBrand, CatalogBrandModel } from "./models/catalog-brand"
import CatalogMirroredImage from "./models/catalog-mirrored-image"
import CatalogMirroredImageRef from "./models/catalog-mirrored-image-ref"
import CatalogVariantCost from "./models/catalog-variant-cost"
import {
  type CatalogSyncPluginOptions,
  type EffectiveSettings,
  type SettingsPatch,
  type SettingsRow,
  initialRowValues,
  normaliseBaseUrl,
  resolveEffectiveSettings,
} from "../../sync/settings"
import { apiKeyId } from "../../catalog-client/key-id"
import { stableJson } from "../../sync/fingerprint"
import {
  apiKeyLast4,
  decryptSecret,
  encryptSecret,
  resolveEncryptionSecret,
} from "./secret-crypto"
import type { Logger } from "@medusajs/framework/types"

/**
 * The catalog_sync module's service. MedusaService generates the CRUD methods
 * (listCatalogSyncRuns, createCatalogProductMaps, ...). The helpers below own the two
 * single-row records (settings, state) and the key's encryption. It starts nothing: the queue
 * and the worker belong to the catalog_sync_runtime module, which depends on this one.
 */
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
    const row = await this.getSettingsRow()
    // A change of the saved rules bumps their revision (reprice runs and cost rows name it).
    if (patch.pricing_rules !== undefined && stableJson(patch.pricing_rules) !== stableJson(row?.pricing_rules ?? null)) {
      values.pricing_rules_revision = (row?.pricing_rules_revision ?? 0) + 1
    }
    if (!row) {
      await this.createCatalogSyncSettings({ ...initialRowValues(this.pluginOptions_), ...values, revision: 1 } as any)
    } else {
      await this.updateCatalogSyncSettings({ id: row.id, ...values, revision: (row.revision ?? 0) + 1 } as any)
    }
    return this.getEffectiveSettings()
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

export default CatalogSyncModuleService
