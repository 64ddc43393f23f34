import { formatCount, formatDateTime, formatDuration, formatRelative, formatUah, runDurationMs } from "../format"

describe("formatUah", () => {
  it("groups thousands and keeps two decimals from the string", () => {
    expect(formatUah("1000.00")).toBe("1,000.00 ₴")
    expect(formatUah("1300")).toBe("1,300.00 ₴")
    expect(formatUah("1625.5")).toBe("1,625.50 ₴")
    expect(formatUah("0.05")).toBe("0.05 ₴")
    expect(formatUah("12345678901234567.89")).toBe("12,345,678,901,234,567.89 ₴")
    expect(formatUah("007.10")).toBe("7.10 ₴")
  })
  it("shows a dash for missing or invalid amounts", () => {
    expect(formatUah(null)).toBe("—")
    expect(formatUah("abc")).toBe("—")
  })
})

describe("formatCount", () => {
  it("groups thousands", () => {
    expect(formatCount(0)).toBe("0")
    expect(formatCount(1234567)).toBe("1,234,567")
    expect(formatCount(undefined)).toBe("—")
  })
})

describe("formatDuration", () => {
  it("picks a unit that reads well", () => {
    expect(formatDuration(850)).toBe("850 ms")
    expect(formatDuration(12_400)).toBe("12 s")
    expect(formatDuration(185_000)).toBe("3 min 05 s")
    expect(formatDuration(3_720_000)).toBe("1 h 02 min")
    expect(formatDuration(null)).toBe("—")
    expect(formatDuration(-5)).toBe("—")
  })
})

describe("runDurationMs", () => {
  it("measures finished runs and running ones up to now", () => {
    expect(runDurationMs({ started_at: "2026-11-21T05:00:00.000Z", finished_at: "2026-11-21T05:01:30.000Z" })).toBe(90_000)
    const now = Date.parse("2026-11-21T05:00:10.000Z")
    expect(runDurationMs({ started_at: "2026-11-21T05:00:00.000Z", finished_at: null }, now)).toBe(10_000)
    expect(runDurationMs({ started_at: null, finished_at: null })).toBeNull()
  })
})

describe("formatDateTime", () => {
  it("formats in the given time zone", () => {
    expect(formatDateTime("2026-11-21T05:40:00.000Z", "UTC")).toBe("21 Nov 2026, 05:40")
    expect(formatDateTime("2026-11-21T05:40:00.000Z", "Europe/Kyiv")).toBe("21 Nov 2026, 07:40")
    expect(formatDateTime(null)).toBe("—")
  })
})

describe("formatRelative", () => {
  const now = Date.parse("2026-11-21T05:00:00.000Z")
  it("says past and future in plain words", () => {
    expect(formatRelative("2026-11-21T05:04:00.000Z", now)).toBe("in 4 min")
    expect(formatRelative("2026-11-21T04:57:00.000Z", now)).toBe("3 min ago")
    expect(formatRelative("2026-11-21T02:00:00.000Z", now)).toBe("3 h ago")
    expect(formatRelative("2026-11-23T05:00:00.000Z", now)).toBe("in 2 d")
    expect(formatRelative("2026-11-21T05:00:10.000Z", now)).toBe("in a moment")
    expect(formatRelative("2026-11-21T04:59:50.000Z", now)).toBe("just now")
    expect(formatRelative(undefined, now)).toBe("—")
  })
})
