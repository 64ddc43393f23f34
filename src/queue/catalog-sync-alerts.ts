// Tells the shop owner what needs them, where Medusa shows it: a `feed` notification (the
// dashboard's bell, as Medusa's product import and export do) and, when the shop has an email
// provider and the admin set an alert address, an `email` one. Each event is one notification per
// channel: its key (src/sync/alert-events.ts) is the notification's idempotency_key, which Medusa's table
// holds unique across every instance and restart. Sending happens in the background and never
// throws: a failed notification is logged once and never fails or holds up a sync.
import type { CreateNotificationDTO, INotificationModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { hasEnabledNotificationProvider } from "../bulk-write/notification-providers"
import type { AccountInfo, QuotaSnapshot, RateLimiter } from "../catalog-client"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import type { EffectiveSettings } from "../sync/settings"
import { absoluteLink, alertContent, alertKey, runLink, unblockedEvent, type AlertEvent } from "../sync/alert-events"
import { isRefusalCode } from "../sync/failure-class"
import { quotaAlert, quotaDay } from "../sync/quota-level"
import { quotaToday } from "../sync/requests-today"
import { latestFailureStreak } from "./failure-streak"

/** The template Medusa's dashboard reads feed notifications with (title, description). */
export const FEED_TEMPLATE = "admin-ui"
/** The template name an email provider gets (its data: subject, title, description, url). */
export const EMAIL_TEMPLATE = "catalog-sync-alert"
/** How far back a success looks for the refusal it may end (a blocked sync runs no scheduled run). */
const UNBLOCK_LOOKBACK_RUNS = 20
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
  /** The key's limiter (shared by every holder of the key): the plan, today's remaining quota, a refusal today. */
  limiter?: Pick<RateLimiter, "plan" | "quotaRemainingToday" | "quotaRefusedToday"> | null
}

export class CatalogSyncAlerts {
  readonly #container: () => MedusaContainer
  readonly #logger: AlertLogger
  readonly #pending = new Set<Promise<void>>()
  /** Failures already logged, by notification key (a failure is logged once, not on every repeat). */
  readonly #logged = new Set<string>()

  constructor(input: { container: () => MedusaContainer; logger: AlertLogger }) {
    this.#container = input.container
    this.#logger = input.logger
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
    if (end.status === "succeeded") {
      await this.#afterAnswer(service, end.runId)
      await this.#afterRefusal(service, end.runId)
    }
    if (end.status === "failed" && end.errorCode && isRefusalCode(end.errorCode)) {
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

  /** A run succeeded after the catalog refused the key or the plan: the bell says, once, that syncing goes on. */
  async #afterRefusal(service: CatalogSyncModuleService, runId: string): Promise<void> {
    const run = { ...(await service.retrieveCatalogSyncRun(runId, { select: ["id", "created_at"] })), status: "succeeded" }
    const earlier = await service.listCatalogSyncRuns(
      { status: ["succeeded", "failed"], ...(run.created_at ? { created_at: { $lt: run.created_at } } : {}) },
      { order: { created_at: "DESC" }, take: UNBLOCK_LOOKBACK_RUNS, select: ["id", "status", "error_code"] }
    )
    const event = unblockedEvent(run, earlier)
    if (event) await this.#send(event)
  }

  /**
   * `runEnded`: the check after the run, when the client's plan refresh (if any) has finished.
   * Every figure comes from the key's limiter (src/sync/requests-today.ts, as the admin's bar):
   * a limit the catalog's answers contradicted since /v1/me told it is not used, and "not
   * enforced" is said only at a run's end, when no request was refused for the quota today.
   */
  async #checkQuota(end: Omit<RunEnd, "status" | "errorCode">, runEnded: boolean): Promise<void> {
    const limiter = end.limiter
    const today = quotaToday({
      plan: (await limiter?.plan?.()) ?? null,
      remaining: (await limiter?.quotaRemainingToday?.()) ?? end.quota?.quotaRemaining ?? null,
      refusedToday: (await limiter?.quotaRefusedToday?.()) ?? false,
    })
    const alert = quotaAlert(today, runEnded, end.quota?.quotaPassed ?? false)
    if (!alert) return
    const day = quotaDay(end.quota?.observedAt ?? Date.now())
    await this.#send({ ...alert, runId: end.runId, day, keyLast4: end.settings.apiKeyLast4 })
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

  #logOnce(key: string, line: string): void {
    if (this.#logged.has(key)) return
    this.#logged.add(key)
    this.#logger.warn(line)
  }

  #service(): CatalogSyncModuleService {
    return this.#container().resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  }
}
