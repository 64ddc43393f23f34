import { absoluteLink, alertContent, alertKey, runLink, unblockedEvent, type AlertEvent } from "../alert-events"
import { quotaDay, quotaLevel } from "../quota-level"
import { quotaToday } from "../requests-today"
import { quotaLine } from "../../admin/lib/quota-bar"

const events: AlertEvent[] = [
  { kind: "brake_paused", runId: "csrun_1", reasons: ["removes 30 % of the shop's catalog products", "drops prices"] },
  { kind: "key_refused", runId: "csrun_2", code: "invalid_api_key", revision: 3, keyLast4: "abcd" },
  { kind: "key_refused", runId: "csrun_2", code: "plan_required", revision: 3, keyLast4: "abcd" },
  { kind: "resume_stalled", runId: "csrun_3", stalled: 6 },
  { kind: "quota_high", runId: "csrun_4", day: "2026-11-28", used: 8_100, limit: 10_000, keyLast4: "abcd" },
  { kind: "quota_spent", runId: "csrun_5", day: "2026-11-28", keyLast4: "abcd" },
  { kind: "failed_twice", runId: "csrun_6", since: "csrun_0", errorCode: "server_error", errorMessage: "line one\nline two" },
  { kind: "sync_overdue", runId: "csrun_7", since: "2026-12-06T10:00:00.000Z", pollEveryMs: 600_000 },
]

describe("alert content", () => {
  it("gives every event a title and one line", () => {
    for (const e of events) {
      const { title, description } = alertContent(e)
      expect(title.length).toBeGreaterThan(0)
      expect(description.length).toBeGreaterThan(0)
      expect(description).not.toMatch(/\n/)
      expect(description.length).toBeLessThanOrEqual(300)
    }
  })

  it("says what happened, with the figures of the event", () => {
    expect(alertContent(events[0]).description).toBe(
      "A run paused for your confirm or discard: removes 30 % of the shop's catalog products; drops prices. Catalog sync in the sidebar has its preview and your answer."
    )
    expect(alertContent(events[1]).description).toMatch(/^The key is wrong or was revoked/)
    expect(alertContent(events[2]).description).toMatch(/^The catalog account.s plan has no API access/)
    // The key was accepted on a plan refusal: the title names the plan, not the key.
    expect(alertContent(events[1]).title).toBe("The catalog refused the API key")
    expect(alertContent(events[2]).title).toBe("The catalog account's plan has no API access")
    expect(alertContent(events[3]).description).toMatch(/resumed 6 times/)
    expect(alertContent(events[4]).description).toBe("8,100 of today's 10,000 requests used (81 %).")
    // No raw code or remote text in the bell: the run's page has them, in its details.
    expect(alertContent(events[6]).description).toBe(
      "The last two runs failed: the catalog answered with a server error. Catalog sync in the sidebar has the runs and their details."
    )
    expect(alertContent({ ...events[6], errorCode: "invalid_api_key", errorMessage: "401 invalid_api_key: key revoked" } as AlertEvent).description).toBe(
      "The last two runs failed: the catalog refused the API key. Catalog sync in the sidebar has the runs and their details."
    )
    expect(alertContent({ ...events[6], errorCode: "ECONNREFUSED" } as AlertEvent).description).not.toMatch(/ECONNREFUSED/)
    expect(alertContent(events[7]).description).toMatch(/^No sync started since 2026-12-06T10:00:00.000Z, over two poll intervals \(10 min each\)/)
  })

  it("says a quota the catalog does not enforce was passed and syncing went on; an enforced one stops syncing until the reset", () => {
    const spent = { kind: "quota_spent", runId: "r", day: "2026-12-06", keyLast4: "1234" } as const
    expect(alertContent({ ...spent, enforced: false, passed: true }).description).toMatch(/does not enforce it for this account, so syncing went on/)
    expect(alertContent({ ...spent, enforced: false, passed: true }).title).toBe("Catalog API quota passed")
    expect(alertContent({ ...spent, enforced: true }).title).toBe("Catalog API quota used up")
    expect(alertContent({ ...spent, enforced: true }).description).toMatch(
      /^Today's request quota for this key is used up\. The catalog answers again after its reset/
    )
  })

  it("at the limit (22 of 22) the quota is used up, not passed; the 80 % alert's percent is the sync page's (issue 43)", () => {
    const spent = { kind: "quota_spent", runId: "r", day: "2026-12-06", keyLast4: "1234" } as const
    for (const atLimit of [
      { ...spent, enforced: false },
      { ...spent, enforced: false, passed: false },
    ]) {
      expect(alertContent(atLimit).title).toBe("Catalog API quota used up")
      expect(alertContent(atLimit).description).toBe(
        "Today's requests reached this key's daily quota. The catalog does not enforce it for this account, so syncing goes on; a plan that enforces it would stop syncing until 00:00 UTC."
      )
    }
    const high = { kind: "quota_high", runId: "r", day: "2026-12-06", keyLast4: "1234", used: 8_640, limit: 10_000 } as const
    expect(alertContent(high).description).toBe("8,640 of today's 10,000 requests used (86.4 %).")
    // The sync page's bar for the same count says the same percent.
    const bar = quotaLine(quotaToday({ plan: { requestsPerDay: 10_000 }, remaining: 1_360, refusedToday: false })) as { label: string }
    expect(bar.label).toBe("8,640 of 10,000 (86.4 %)")
  })

  it("cuts a long line", () => {
    const long = alertContent({ kind: "brake_paused", runId: "r", reasons: ["a".repeat(1000)] }).description
    expect(long.length).toBe(300)
    expect(long.endsWith("…")).toBe(true)
  })
})

describe("alert keys: the same event has the same key, another event another", () => {
  it("names brake pauses and stalled resumes by their run", () => {
    expect(alertKey(events[0])).toBe("catalog-sync:brake_paused:csrun_1")
    expect(alertKey({ ...events[0], reasons: [] } as AlertEvent)).toBe(alertKey(events[0]))
    expect(alertKey(events[3])).toBe("catalog-sync:resume_stalled:csrun_3")
    expect(alertKey(events[7])).toBe("catalog-sync:sync_overdue:csrun_7")
  })

  it("names a refused key by the settings' revision, not by the run", () => {
    const k = events[1] as Extract<AlertEvent, { kind: "key_refused" }>
    expect(alertKey({ ...k, runId: "csrun_later" })).toBe(alertKey(k))
    expect(alertKey({ ...k, revision: 4 })).not.toBe(alertKey(k))
    expect(alertKey(events[2])).not.toBe(alertKey(k))
  })

  it("names the quota's alerts by day, whatever the run or figures", () => {
    const high = events[4] as Extract<AlertEvent, { kind: "quota_high" }>
    expect(alertKey({ ...high, runId: "other", used: 9_000 })).toBe(alertKey(high))
    expect(alertKey({ ...high, day: "2026-11-29" })).not.toBe(alertKey(high))
    expect(alertKey(events[5])).not.toBe(alertKey(high))
  })

  it("names a failure streak by the success before it", () => {
    const f = events[6] as Extract<AlertEvent, { kind: "failed_twice" }>
    expect(alertKey({ ...f, runId: "csrun_7" })).toBe(alertKey(f))
    expect(alertKey({ ...f, since: "csrun_8" })).not.toBe(alertKey(f))
    expect(alertKey({ ...f, since: null })).toBe("catalog-sync:failed_twice:never_succeeded")
  })
})

describe("links", () => {
  it("point at the run's page under the dashboard's path", () => {
    expect(runLink("/app", "csrun_1")).toBe("/app/settings/catalog-sync/runs/csrun_1")
    expect(runLink("/dashboard/", "csrun_1")).toBe("/dashboard/settings/catalog-sync/runs/csrun_1")
    expect(absoluteLink("https://shop.example.com/", "/app/x")).toBe("https://shop.example.com/app/x")
    expect(absoluteLink("/", "/app/x")).toBe("/app/x")
    expect(absoluteLink(undefined, "/app/x")).toBe("/app/x")
  })
})

describe("quota level", () => {
  it("is high from 80 % of a known limit, spent at zero, ok otherwise", () => {
    expect(quotaLevel(2_001, 10_000)).toEqual({ level: "ok" })
    expect(quotaLevel(2_000, 10_000)).toEqual({ level: "high", used: 8_000, limit: 10_000 })
    expect(quotaLevel(1, 10_000)).toEqual({ level: "high", used: 9_999, limit: 10_000 })
    expect(quotaLevel(0, 10_000)).toEqual({ level: "spent" })
    expect(quotaLevel(0, null)).toEqual({ level: "spent" })
    expect(quotaLevel(5, null)).toEqual({ level: "ok" })
    expect(quotaLevel(null, 10_000)).toEqual({ level: "ok" })
  })

  it("counts days in UTC", () => {
    expect(quotaDay(Date.parse("2026-11-28T23:59:59Z"))).toBe("2026-11-28")
    expect(quotaDay(Date.parse("2026-11-29T00:00:00Z"))).toBe("2026-11-29")
  })

  it("tells the outcome of an answer to a pause in past words that stay true, keyed by the paused run", () => {
    const answered = (answer: "confirmed" | "discarded", held: number, priceDrops = 0) =>
      ({ kind: "brake_answered", runId: "csrun_9", answer, held, priceDrops }) as const
    expect(alertContent(answered("confirmed", 450))).toEqual({
      title: "Removals confirmed",
      description: "450 products removed from the shop, as you confirmed.",
    })
    expect(alertContent(answered("discarded", 1))).toEqual({
      title: "Removals discarded",
      description: "1 product kept in the shop, as you discarded its removal. The Catalog sync page lists it with a Remove button.",
    })
    expect(alertContent(answered("confirmed", 0, 3)).title).toBe("Price drops confirmed")
    expect(alertContent(answered("discarded", 0, 3)).description).toBe("3 prices kept at their earlier amount, as you discarded the drops.")
    expect(alertKey(answered("discarded", 2))).toBe("catalog-sync:brake_answered:csrun_9")
    for (const event of [events[0], answered("confirmed", 2)]) expect(alertContent(event).description).not.toMatch(/waits/)
  })
})

describe("the sync unblocked (issue 43, review of the admin)", () => {
  const refused = (id: string, code = "invalid_api_key") => ({ id, status: "failed", error_code: code })
  const ok = (id: string) => ({ id, status: "succeeded", error_code: null })

  it("a success after a refused key or plan says once that syncing goes on, keyed by the refusal it ends", () => {
    const event = unblockedEvent(ok("csrun_9"), [refused("csrun_8"), refused("csrun_7"), ok("csrun_6")])
    expect(event).toEqual({ kind: "sync_unblocked", runId: "csrun_9", refusedRunId: "csrun_8", code: "invalid_api_key" })
    expect(alertContent(event!)).toEqual({
      title: "Catalog sync goes on: the API key is accepted again",
      description: "The catalog accepts the API key again and a run succeeded, so syncing goes on.",
    })
    expect(alertKey(event!)).toBe("catalog-sync:sync_unblocked:csrun_8")
    // Another success later (the same refusal already ended) says nothing more.
    expect(unblockedEvent(ok("csrun_10"), [ok("csrun_9"), refused("csrun_8")])).toBeNull()
  })

  it("a renewed plan is told as the plan, not the key; other failures between say neither", () => {
    const event = unblockedEvent(ok("r5"), [
      { id: "r4", status: "failed", error_code: "server_error" },
      { id: "r3", status: "interrupted" },
      refused("r2", "plan_required"),
    ])
    expect(event?.refusedRunId).toBe("r2")
    expect(alertContent(event!).title).toBe("Catalog sync goes on: the plan is accepted again")
    expect(alertContent(event!).description).not.toMatch(/plan_required|invalid_api_key/)
    // No refusal before it, or a run that did not succeed: nothing to tell.
    expect(unblockedEvent(ok("r5"), [{ id: "r4", status: "failed", error_code: "server_error" }, ok("r1")])).toBeNull()
    expect(unblockedEvent(refused("r6"), [refused("r5")])).toBeNull()
    expect(unblockedEvent(ok("r1"), [])).toBeNull()
  })
})
