// Alerts through Medusa's Notification module, in a real app: each condition is caused through the
// sandbox (or, for a resume that gives up, a run row as recovery finds it after six resumes without
// progress), and the notifications are read from the module's own table: exactly one per event on
// the `feed` channel (title, one line, the run's link) however often the condition repeats; an
// `email` one only when the shop has an email provider and an alert address is set.
// In the parallel pass (not marked to run alone): the streak test counts at least three failed
// attempts a round (a retry that comes before the next poll adds more), so a slower run beside
// another app proves the same.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { randomUUID } from "node:crypto"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"
import { configureAndWait, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(1_500_000)

type NotificationRow = {
  id: string
  to: string
  channel: string
  template: string
  data: { title: string; description: string; url: string; kind: string; run_id: string; subject?: string }
  status: string
  resource_id: string
  provider_id: string | null
  idempotency_key: string
}

/** The plugin's notifications of one kind, as Medusa's notification table holds them. */
async function notifications(dbUrl: string, kind: string, channel = "feed"): Promise<NotificationRow[]> {
  return sql<NotificationRow>(
    dbUrl,
    `select id, "to", channel, template, data, status, resource_id, provider_id, idempotency_key
       from notification where trigger_type = $1 and channel = $2 and deleted_at is null order by created_at`,
    [`catalog-sync.${kind}`, channel]
  )
}

async function allPluginNotifications(dbUrl: string): Promise<NotificationRow[]> {
  return sql<NotificationRow>(dbUrl, `select id, channel, data, status from notification where trigger_type like 'catalog-sync.%' and deleted_at is null`)
}

/** Waits until `kind` has `count` feed notifications, then a while longer: a repeat would show by then. */
async function settledCount(dbUrl: string, kind: string, count: number, channel = "feed"): Promise<NotificationRow[]> {
  await waitFor(`${count} ${channel} notification(s) of ${kind}`, async () => (await notifications(dbUrl, kind, channel)).length >= count, 120_000)
  await new Promise((r) => setTimeout(r, 4_000))
  return notifications(dbUrl, kind, channel)
}

function expectFeed(row: NotificationRow, runId: string, title: string, line: RegExp) {
  expect(row).toMatchObject({ to: "", channel: "feed", template: "admin-ui", status: "success", resource_id: runId })
  expect(row.data.title).toBe(title)
  expect(row.data.description).toMatch(line)
  expect(row.data.description).not.toContain("\n")
  expect(row.data.url).toBe(`/app/settings/catalog-sync/runs/${runId}`)
  expect(row.data.run_id).toBe(runId)
}

/** Starts a run through the admin API and waits for its end (whatever it is). */
async function runToEnd(env: SyncEnv, statuses = ["succeeded", "failed", "interrupted", "paused"]) {
  const started = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
  expect(started.status).toBe(202)
  return waitForRun(env.app, started.body.run.id, statuses, 300_000)
}

/** Waits until no run is queued or running (BullMQ's retries included). */
async function idle(env: SyncEnv) {
  await waitFor(
    "no run queued or running",
    async () => {
      const rows = await sql(env.db.url, "select 1 from mcs_sync_run where status in ('queued', 'running') and deleted_at is null")
      return rows.length === 0
    },
    300_000,
    500
  )
}

describe("alerts on the feed channel (no email provider)", () => {
  let env: SyncEnv
  const PRODUCTS = 60

  beforeAll(async () => {
    env = await startSyncEnv(
      "alerts-feed",
      { products: PRODUCTS, seed: 43 },
      {
        // A failing API fails a run at once, and its retries come within seconds.
        CATALOG_SYNC_CLIENT_MAX_RETRIES: "0",
        CATALOG_SYNC_RETRY_BACKOFF_MS: "500",
        // Every run reads /v1/me, so the quota's limit follows the sandbox's at once.
        CATALOG_SYNC_LIMITS_MAX_AGE_MS: "0",
      }
    )
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30", alert_email: "owner@example.com" })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
    expect(await allPluginNotifications(env.db.url)).toEqual([])
  })
  afterAll(async () => {
    await env?.close()
  })

  it("refuses a bad alert address with a 400 naming the field and keeps the old one", async () => {
    const refused = await env.app.admin("/admin/catalog-sync/settings", { body: { alert_email: "not an address" } })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain("alert_email")
    const settings = await env.app.admin("/admin/catalog-sync/settings")
    expect(settings.body.settings.alert_email).toBe("owner@example.com")
  })

  it("a safety-brake pause: one notification, none more while it waits", async () => {
    const ids = (
      await sql(env.db.url, "select external_id from product where deleted_at is null and metadata->>'catalog_sync' = 'true' order by external_id")
    ).map((r) => r.external_id as string)
    env.sb.control.mutate({ remove_ids: ids.slice(0, Math.round(PRODUCTS * 0.3)) })
    const paused = await runToEnd(env)
    expect(paused.status).toBe("paused")
    // "Sync now" again while it waits: the paused run is returned, nothing new happens.
    const again = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(again.body.run.id).toBe(paused.id)
    const rows = await settledCount(env.db.url, "brake_paused", 1)
    expect(rows).toHaveLength(1)
    expectFeed(
      rows[0],
      paused.id,
      "Catalog sync paused by the safety brake",
      /^A run paused for your confirm or discard: .+\. Catalog sync in the sidebar has its preview and your answer\.$/
    )
    const discarded = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/discard`, { body: {} })
    expect(discarded.status).toBe(200)
    expect(await waitForRun(env.app, discarded.body.continued_by.id, undefined, 300_000)).toMatchObject({ status: "succeeded" })
    expect(await notifications(env.db.url, "brake_paused")).toHaveLength(1)
    // Once the answer is carried out, its outcome: one entry under the paused run, with the count kept.
    const outcome = await settledCount(env.db.url, "brake_answered", 1)
    expect(outcome).toHaveLength(1)
    expectFeed(
      outcome[0],
      paused.id,
      "Removals discarded",
      new RegExp(`^${Math.round(PRODUCTS * 0.3)} products kept in the shop, as you discarded their removal\\.`)
    )
  })

  it("two failed runs in a row: one notification for the streak, not one per retry or per further failure", async () => {
    const failedRows = async () => (await sql(env.db.url, "select 1 from mcs_sync_run where status = 'failed'")).length
    const before = await failedRows()
    env.sb.control.faults({ fail_rate: 1, kinds: ["500"] })
    try {
      // A manual run fails and is retried: at least three failed rows, more while a retry of this
      // transient failure (a 500) comes before the next poll (the worker's rule), then the job is done.
      for (const round of [1, 2]) {
        await runToEnd(env, ["failed"])
        await waitFor(`round ${round}: three failed attempts`, async () => (await failedRows()) >= before + 3 * round, 300_000, 500)
        await idle(env)
      }
    } finally {
      env.sb.control.faults({ fail_rate: 0 })
    }
    const failed = await sql(env.db.url, "select id from mcs_sync_run where status = 'failed' order by created_at")
    // Two rounds of at least three attempts each: one streak, however many further failures it had.
    expect(failed.length).toBeGreaterThanOrEqual(before + 6)
    const rows = await settledCount(env.db.url, "failed_twice", 1)
    expect(rows).toHaveLength(1)
    // Linked to the streak's second failure.
    expectFeed(
      rows[0],
      failed[before + 1].id,
      "Catalog sync failed twice in a row",
      /^The last two runs failed: [a-z][^_]*\. Catalog sync in the sidebar has the runs and their details\.$/
    )
    expect(await runAndWait(env)).toMatchObject({ status: "succeeded" })
  })

  it("a refused key: one notification per refusal, not per run; a new streak of failures is told again", async () => {
    env.sb.control.revokeKey()
    const first = await runToEnd(env, ["failed"])
    expect(first.error_code).toBe("invalid_api_key")
    const second = await runToEnd(env, ["failed"])
    expect(second.error_code).toBe("invalid_api_key")
    const rows = await settledCount(env.db.url, "key_refused", 1)
    expect(rows).toHaveLength(1)
    expectFeed(rows[0], first.id, "The catalog refused the API key", /^The key is wrong or was revoked\./)
    // A success came between: these two failures are a streak of their own.
    const streaks = await settledCount(env.db.url, "failed_twice", 2)
    expect(streaks).toHaveLength(2)
    expect(streaks[1].resource_id).toBe(second.id)
    await configure(env.app, { api_key: env.sb.apiKey })
    // Fixed (issue 43): the first run that succeeds after the refusal says once that syncing goes on.
    expect(await runAndWait(env)).toMatchObject({ status: "succeeded" })
    const unblocked = await settledCount(env.db.url, "sync_unblocked", 1)
    expect(unblocked).toHaveLength(1)
    const [by] = await sql(env.db.url, "select id, status, created_at from mcs_sync_run where id = $1", [unblocked[0].resource_id])
    expect(by.status).toBe("succeeded")
    expect(unblocked[0].idempotency_key).toBe(`catalog-sync:sync_unblocked:${second.id}:feed`)
    expectFeed(
      unblocked[0],
      by.id,
      "Catalog sync goes on: the API key is accepted again",
      /^The catalog accepts the API key again and a run succeeded, so syncing goes on\.$/
    )
    // Another success: the refusal already ended, nothing more.
    expect(await runAndWait(env)).toMatchObject({ status: "succeeded" })
    expect(await settledCount(env.db.url, "sync_unblocked", 1)).toHaveLength(1)
  })

  it("a resume that gives up: one notification", async () => {
    await idle(env)
    const [state] = await sql(env.db.url, "select cursor, full_pass_id from mcs_sync_state where deleted_at is null limit 1")
    // As recovery finds interrupted work after five resumes in a row that stored no cursor: the sixth gives up.
    const runId = `csrun_stalled_${randomUUID().replace(/-/g, "").slice(0, 12)}`
    await sql(
      env.db.url,
      `insert into mcs_sync_run (id, trigger, mode, status, started_at, finished_at, error_code, error_message, progress)
       values ($1, 'retry', 'changes', 'interrupted', now(), now(), 'process_stopped', 'The process running this sync stopped before it finished', $2)`,
      [runId, JSON.stringify({ phase: "interrupted", resume_from: { cursor: state.cursor, pass: state.full_pass_id }, stalled_resumes: 5 })]
    )
    await waitFor(
      "recovery to give up",
      async () => {
        const [row] = await sql(env.db.url, "select error_code from mcs_sync_run where id = $1", [runId])
        return row.error_code === "resume_stalled"
      },
      120_000
    )
    // Recovery keeps looking every few seconds: it must not tell again.
    await new Promise((r) => setTimeout(r, 12_000))
    const rows = await settledCount(env.db.url, "resume_stalled", 1)
    expect(rows).toHaveLength(1)
    expectFeed(rows[0], runId, "Catalog sync stopped resuming", /^Interrupted work was resumed 6 times without progress/)
  })

  it("the daily quota: one notification past 80 %, one when spent, none more on later runs", async () => {
    // The test's own requests count in the account's day, as another client of the account would.
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${env.sb.baseUrl}/v1/me`, { headers: { "X-API-Key": env.sb.apiKey } })
      await res.arrayBuffer()
    }
    const used = env.sb.state.quota.usedToday(Date.now())
    expect(used).toBeGreaterThanOrEqual(100)
    // A run (a handful of requests) ends with 1 to 8 left: over 80 % used, not spent.
    const limit = used + 9
    env.sb.control.limits({ daily_quota: limit, quota_enforced: true })
    const high = await runToEnd(env, ["succeeded"])
    const rows = await settledCount(env.db.url, "quota_high", 1)
    expect(rows).toHaveLength(1)
    expectFeed(rows[0], high.id, "Catalog API quota over 80 %", new RegExp(`^\\d+ of today's ${limit} requests used \\(\\d+(\\.\\d)? %\\)\\.$`))
    const usedInLine = Number(rows[0].data.description.split(" ")[0])
    // The percent the sync page's bar gives for the same count (one decimal).
    expect(rows[0].data.description).toContain(`(${Math.min(100, Math.round((usedInLine / limit) * 1000) / 10)} %)`)
    expect(usedInLine * 100).toBeGreaterThanOrEqual(limit * 80)
    expect(usedInLine).toBeLessThanOrEqual(env.sb.state.quota.usedToday(Date.now()))
    expect(await notifications(env.db.url, "quota_spent")).toHaveLength(0)

    // Spent: the next runs are refused by the catalog (429 daily_quota_exceeded).
    env.sb.control.limits({ daily_quota: env.sb.state.quota.usedToday(Date.now()) })
    const spent = await runToEnd(env, ["failed"])
    expect(spent.error_code).toBe("daily_quota_exceeded")
    await runToEnd(env, ["failed"])
    const spentRows = await settledCount(env.db.url, "quota_spent", 1)
    expect(spentRows).toHaveLength(1)
    expectFeed(spentRows[0], spent.id, "Catalog API quota used up", /^Today's request quota for this key is used up/)
    expect(await notifications(env.db.url, "quota_high")).toHaveLength(1)
    env.sb.control.limits({ daily_quota: 1_000_000, quota_enforced: false })
  })

  it("sent no email: the shop has no email provider, though an address is set", async () => {
    const emails = (await allPluginNotifications(env.db.url)).filter((n) => n.channel === "email")
    expect(emails).toEqual([])
  })
})

describe("alerts by email (a recording email provider in the app)", () => {
  let env: SyncEnv
  const emailFile = path.join(os.tmpdir(), `mcs-alert-emails-${randomUUID()}.jsonl`)
  const sentEmails = () =>
    fs.existsSync(emailFile)
      ? fs
          .readFileSync(emailFile, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : []

  beforeAll(async () => {
    env = await startSyncEnv(
      "alerts-email",
      { products: 20, seed: 44 },
      {
        CATALOG_SYNC_TEST_EMAIL_PROVIDER: path.resolve(__dirname, "..", "notification-email"),
        CATALOG_SYNC_TEST_EMAIL_FILE: emailFile,
        CATALOG_SYNC_CLIENT_MAX_RETRIES: "0",
      }
    )
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded" })
    const providers = await sql(env.db.url, "select id, channels from notification_provider where is_enabled")
    expect(providers.map((p) => p.id).sort()).toEqual(["local", "test-email"])
  })
  afterAll(async () => {
    await env?.close()
    fs.rmSync(emailFile, { force: true })
  })

  it("no address: the feed only", async () => {
    env.sb.control.revokeKey()
    const refused = await runToEnd(env, ["failed"])
    expect(refused.error_code).toBe("invalid_api_key")
    expect(await settledCount(env.db.url, "key_refused", 1)).toHaveLength(1)
    expect(await notifications(env.db.url, "key_refused", "email")).toEqual([])
    expect(sentEmails()).toEqual([])
  })

  it("with an address: the feed and one email per event, sent by the shop's email provider", async () => {
    // Saving bumps the settings' revision: a refusal after it is a new event.
    await configure(env.app, { alert_email: "owner@example.com" })
    const refused = await runToEnd(env, ["failed"])
    expect(refused.error_code).toBe("invalid_api_key")
    await runToEnd(env, ["failed"])
    const feed = await settledCount(env.db.url, "key_refused", 2)
    expect(feed).toHaveLength(2)
    const emails = await settledCount(env.db.url, "key_refused", 1, "email")
    expect(emails).toHaveLength(1)
    expect(emails[0]).toMatchObject({
      to: "owner@example.com",
      channel: "email",
      template: "catalog-sync-alert",
      status: "success",
      provider_id: "test-email",
      resource_id: refused.id,
    })
    expect(emails[0].data).toMatchObject({
      title: "The catalog refused the API key",
      subject: "The catalog refused the API key",
      url: `/app/settings/catalog-sync/runs/${refused.id}`,
    })
    const recorded = sentEmails().filter((e) => e.data.kind === "key_refused")
    expect(recorded).toHaveLength(1)
    expect(recorded[0]).toMatchObject({ to: "owner@example.com", channel: "email", content: { subject: "The catalog refused the API key" } })
    expect(recorded[0].content.text).toContain(`/app/settings/catalog-sync/runs/${refused.id}`)
  })
})
