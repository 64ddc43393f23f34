// Everything one sandbox instance knows: catalog, account, limits, faults, counters.

import { randomBytes } from "node:crypto"
import { Catalog } from "./catalog"
import { CursorCodec } from "./cursor"
import { Faults, type FaultKind } from "./faults"
import { DailyQuota, KeyLimiter } from "./limits"
import { Mutator } from "./mutations"
import { Stats } from "./stats"

export interface SandboxConfig {
  products: number
  seed: number
  apiKey: string
  rpm: number
  concurrency: number
  dailyQuota: number
  quotaEnforced: boolean
  latencyMs: number
  failRate: number
  faultKinds?: FaultKind[]
  plan: string | null
  planExpiresAt: string | null
  cursorSecret?: string
  now: () => number
}

export class SandboxState {
  readonly catalog: Catalog
  readonly mutator: Mutator
  readonly cursors: CursorCodec
  readonly limiter: KeyLimiter
  readonly quota: DailyQuota
  readonly faults: Faults
  readonly stats = new Stats()
  /** Image paths that answer 503 (an image host failing), set through the control API. */
  readonly failingImages = new Set<string>()
  /** Money served as JSON numbers (130.5) instead of decimal strings ("130.50"): control API /money-format. */
  moneyAsNumbers = false
  readonly now: () => number
  apiKey: string
  plan: string | null
  planExpiresAt: string | null

  constructor(config: SandboxConfig) {
    this.now = config.now
    this.catalog = new Catalog(config.seed, config.products, config.now())
    this.mutator = new Mutator(this.catalog, config.seed, config.now)
    this.cursors = new CursorCodec(config.cursorSecret)
    this.limiter = new KeyLimiter(config.rpm, config.concurrency)
    this.quota = new DailyQuota(config.dailyQuota, config.quotaEnforced)
    this.faults = new Faults(config.failRate, config.latencyMs, config.faultKinds)
    this.apiKey = config.apiKey
    this.plan = config.plan
    this.planExpiresAt = config.planExpiresAt
  }

  /** Re-issuing the key invalidates the old one at once. */
  revokeKey(): string {
    this.apiKey = "sbx_" + randomBytes(16).toString("hex")
    return this.apiKey
  }

  /** API access needs the Ultra plan, not expired. */
  planAllowsApi(): boolean {
    if (this.plan !== "Ultra") return false
    return this.planExpiresAt === null || Date.parse(this.planExpiresAt) > this.now()
  }
}
