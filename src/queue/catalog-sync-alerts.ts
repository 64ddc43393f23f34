// Tells the shop owner what needs them, where Medusa shows it: a `feed` notification (the
// dashboard's bell, as Medusa's product import and export do) and, when the shop has an email
// provider and the admin set an alert address, an `email` one. Each event is one notification per
// channel: its key (src/sync/alert-events.ts) is the notification's idempotency_key, which Medusa's table
// holds unique across every instance and restart. Sending happens in the background and never
// throws: a failed notification is logged once and never fails or holds up a sync.
import type { CreateNotificationDTO, INotificationModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type Redis from "ioredis"
import { hasEnabledNotificationProvider } from "../bulk-write/notification-providers"
import type { AccountInfo, QuotaSnapshot } from "../catalog-client"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import type { EffectiveSettings } from "../sync/settings"
import { absoluteLink, alertContent, alertKey, runLink, type AlertEvent } from "../sync/alert-events"
import { quotaDay, quotaLevel } from "../sync/quota-level"
import { latestFailureStreak } from "./failure-streak"

/** The template Medusa's dashboard reads feed notifications with (title, description). */
export const FEED_TEMPLATE = "admin-ui"
/** The template name an email provider gets (its data: subject, title, description, url). */
export const EMAIL_TEMPLATE = "catalog-sync-alert"
/** Codes of a run refused by the catalog for its key or plan. */
const KEY_REFUSED_CODES = new Set(["invalid_api_key", "plan_required"])
/** How long a key's daily limit (from /v1/me) is remembered between the runs that read it. */
const DAILY_LIMIT_TTL_SECONDS = 7 * 24 * 3600
/** What close() waits for alerts still being sent. */
const SETTLE_TIMEOUT_MS = 10_000

type AlertLogger = Pick<Logger, "info" | "warn">

export type RunEnd = {
  runId: string
  status: string
  errorCode?: string | null
  settings: Pick<EffectiveSettings, "revision" | "apiKeyHash" | "apiKeyLast4">
  /** The run's client's last quota headers and account info (null when no client was built). */
  quota: QuotaSnapshot | null
  account: AccountInfo | null
}

export class CatalogSyncAlerts {
  readonly #container: () => MedusaContainer
  readonly #logger: AlertLogger
  readonly #redis: () => Redis | null
  readonly #prefix: string
  readonly #pending = new Set<Promise<void>>()
  /** Failures already logged, by notification key (a failure is logged once, not on every repeat). */
  readonly #logged = new Set<string>()
  /** Without Redis: each key's daily limit, by key id. */
  readonly #dailyLimits = new Map<string, number>()

  constructor(input: { container: () => MedusaContainer; logger: AlertLogger; redis?: () => Redis | null; prefix?: string }) {
    this.#container = input.container
    this.#logger = input.logger
    this.#redis = input.redis ?? (() => null)
    this.#prefix = input.prefix ?? "mcs"
  }

  /** Sends the event's notifications in the background. */
  notify(event: AlertEvent): void {
    this.#track(this.#send(event))
  }

  /** After a run ended: a brake pause or the outcome of its answer, a refused key, the quota, a second failure in a row. */
  afterRun(end: RunEnd): void {
    this.#track(this.#afterRun(end))
  }

  /** While a run is in progress: the quota its client has seen so far. */
  checkQuota(end: Omit<RunEnd, "status" | "errorCode">): void {
    this.#track(this.#checkQuota(end, false))
  }

  /** Waits (bounded) for alerts still being sent: at shutdown, so none is cut off midway. */
  async settle(timeoutMs = SETTLE_TIMEOUT_MS): Promise<void> {
    if (!this.#pending.size) return
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.allSettled([...this.#pending]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs)
        timer.unref()
      }),
    ])
    clearTimeout(timer)
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((e) => this.#logOnce("alerts", `catalog sync: alerts could not be checked: ${e?.message ?? e}`))
    this.#pending.add(tracked)
    void tracked.finally(() => this.#pending.delete(tracked))
  }

  async #afterRun(end: RunEnd): Promise<void> {
    const service = this.#service()
    if (end.status === "paused") {
      const run = await service.retrieveCatalogSyncRun(end.runId)
      const brake = (run.brake ?? null) as { reasons?: { message?: unknown }[] } | null
      const reasons = (brake?.reasons ?? []).map((r) => (typeof r?.message === "string" ? r.message : "")).filter(Boolean)
      await this.#send({ kind: "brake_paused", runId: end.runId, reasons })
    }
    if (end.status === "succeeded") await this.#afterAnswer(service, end.runId)
    if (end.status === "failed" && end.errorCode && KEY_REFUSED_CODES.has(end.errorCode)) {
      await this.#send({ kind: "key_refused", runId: end.runId, code: end.errorCode, revision: end.settings.revision, keyLast4: end.settings.apiKeyLast4 })
    }
    if (end.status === "failed" && end.errorCode === "daily_quota_exceeded") {
      // The catalog refused a request for the quota: it enforces it.
      await this.#send({
        kind: "quota_spent",
        runId: end.runId,
        day: quotaDay(end.quota?.observedAt ?? Date.now()),
        keyLast4: end.settings.apiKeyLast4,
        enforced: true,
      })
    } else {
      await this.#checkQuota(end, true)
    }
    if (end.status === "failed") {
      const streak = await latestFailureStreak(service)
      if (streak) await this.#send({ kind: "failed_twice", ...streak })
    }
  }

  /** A run that carried out the admin's answer to a pause ended: the answer's outcome, under the paused run's link. */
  async #afterAnswer(service: CatalogSyncModuleService, runId: string): Promise<void> {
    const run = await service.retrieveCatalogSyncRun(runId)
    const pausedId = (run.progress as { after_brake?: unknown } | null)?.after_brake
    if (typeof pausedId !== "string") return
    const paused = await service.retrieveCatalogSyncRun(pausedId)
    const resolution = (paused.brake_resolution ?? null) as { action?: unknown; removals?: unknown; price_drops?: unknown } | null
    if (resolution?.action !== "confirmed" && resolution?.action !== "discarded") return
    const held = typeof resolution.removals === "number" ? resolution.removals : 0
    const priceDrops = typeof resolution.price_drops === "number" ? resolution.price_drops : 0
    await this.#send({ kind: "brake_answered", runId: pausedId, answer: resolution.action, held, priceDrops })
  }

  /** `runEnded`: the check after the run, when the client's plan refresh (if any) has finished. */
  async #checkQuota(end: Omit<RunEnd, "status" | "errorCode">, runEnded: boolean): Promise<void> {
    const keyId = end.settings.apiKeyHash
    let limit = end.account?.limits.requests_per_day ?? null
    if (limit !== null && keyId) await this.#rememberDailyLimit(keyId, limit)
    else if (keyId) limit = await this.#knownDailyLimit(keyId)
    if (end.account && keyId) this.#quotaEnforced.set(keyId, end.account.usage.quota_enforced)
    const enforced = end.account?.usage.quota_enforced ?? (keyId ? (this.#quotaEnforced.get(keyId) ?? null) : null)
    // The headers are fresher than /v1/me's usage; the account's usage stands in without them.
    const remaining = end.quota?.quotaRemaining ?? (end.account ? Math.max(0, end.account.limits.requests_per_day - end.account.usage.requests_today) : null)
    const level = quotaLevel(remaining, limit)
    if (level.level === "ok") return
    const day = quotaDay(end.quota?.observedAt ?? Date.now())
    if (level.level === "spent") {
      // Whether the catalog enforces its quota decides what the line says; while a run goes
      // without knowing, the check after it (with the plan the run read again) says it.
      if (enforced === null && !runEnded) return
      await this.#send({ kind: "quota_spent", runId: end.runId, day, keyLast4: end.settings.apiKeyLast4, enforced })
      return
    }
    await this.#send({ kind: "quota_high", runId: end.runId, day, used: level.used, limit: level.limit, keyLast4: end.settings.apiKeyLast4 })
  }

  async #send(event: AlertEvent): Promise<void> {
    const container = this.#container()
    const { title, description } = alertContent(event)
    const key = alertKey(event)
    const admin = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE, { allowUnregistered: true })?.admin
    const link = runLink(admin?.path ?? "/app", event.runId)
    const common = {
      trigger_type: `catalog-sync.${event.kind}`,
      resource_id: event.runId,
      resource_type: "catalog_sync_run",
    }
    const data = { title, description, url: link, kind: event.kind, run_id: event.runId }
    await this.#create(container, { ...common, to: "", channel: "feed", template: FEED_TEMPLATE, data, idempotency_key: `${key}:feed` }, title)

    const { alertEmail } = await this.#service().getEffectiveSettings()
    if (!alertEmail || !(await this.#hasEmailProvider(container))) return
    const url = absoluteLink(admin?.backendUrl, link)
    await this.#create(
      container,
      {
        ...common,
        to: alertEmail,
        channel: "email",
        template: EMAIL_TEMPLATE,
        data: { ...data, subject: title, url },
        content: { subject: title, text: `${description}\n\n${url}` },
        idempotency_key: `${key}:email`,
      },
      title
    )
  }

  async #create(container: MedusaContainer, notification: CreateNotificationDTO & { idempotency_key: string }, title: string) {
    let notifications: INotificationModuleService
    try {
      notifications = container.resolve<INotificationModuleService>(Modules.NOTIFICATION)
    } catch {
      this.#logOnce("module", "catalog sync: alerts are not sent: the app has no Notification module")
      return
    }
    try {
      await notifications.createNotifications(notification)
    } catch (e: any) {
      // Another instance sending the same event at the same moment holds the key: that one is sent.
      if (await this.#sentElsewhere(notifications, notification.idempotency_key)) return
      this.#logOnce(notification.idempotency_key, `catalog sync: alert "${title}" not sent on the ${notification.channel} channel: ${e?.message ?? e}`)
    }
  }

  async #sentElsewhere(notifications: INotificationModuleService, key: string): Promise<boolean> {
    const [row] = await notifications.listNotifications({ idempotency_key: key } as any, { take: 1 }).catch(() => [])
    return !!row && row.status !== "failure"
  }

  /** Whether an enabled provider of the Notification module serves the email channel (its own table). */
  async #hasEmailProvider(container: MedusaContainer): Promise<boolean> {
    try {
      return await hasEnabledNotificationProvider(container, "email")
    } catch (e: any) {
      this.#logOnce("email-provider", `catalog sync: could not tell whether the shop has an email provider: ${e?.message ?? e}`)
      return false
    }
  }

  #dailyLimitKey(keyId: string): string {
    return `${this.#prefix}:alerts:daily_limit:${keyId}`
  }

  /** Whether the catalog enforced the daily quota, as a client of the key last read it from /v1/me. */
  readonly #quotaEnforced = new Map<string, boolean>()

  async #rememberDailyLimit(keyId: string, limit: number): Promise<void> {
    this.#dailyLimits.set(keyId, limit)
    await this.#redis()?.set(this.#dailyLimitKey(keyId), String(limit), "EX", DAILY_LIMIT_TTL_SECONDS)
  }

  /** The daily limit a client of this key last read from /v1/me (any instance's), or null. */
  async #knownDailyLimit(keyId: string): Promise<number | null> {
    const stored = await this.#redis()?.get(this.#dailyLimitKey(keyId))
    const limit = stored != null ? Number(stored) : (this.#dailyLimits.get(keyId) ?? null)
    return limit !== null && Number.isFinite(limit) ? limit : null
  }

  #logOnce(key: string, line: string): void {
    if (this.#logged.has(key)) return
    this.#logged.add(key)
    this.#logger.warn(line)
  }

  #service(): CatalogSyncModuleService {
    return this.#container().resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  }
}
