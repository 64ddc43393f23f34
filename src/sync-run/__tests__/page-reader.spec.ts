// The run's reader of the changes feed: one page read ahead, a refused cursor turned into a
// restart while restarts are left, nothing read past the window's room or a shutdown.
import type { ChangesPage } from "../../catalog-client/catalog-client"
import { InvalidCursorError } from "../../catalog-client/errors"
import { MAX_RESTARTS } from "../../sync/run-state"
import { PageReader } from "../page-reader"

type Call = { cursor: string | null | undefined }

/** A feed of pages "p1", "p2", … ending after `last`; a cursor in `refused` is refused. */
function feed(last: number, refused: Set<string | null> = new Set()) {
  const calls: Call[] = []
  const client = {
    getChangesPage: async (params: { cursor?: string | null }) => {
      calls.push({ cursor: params.cursor })
      if (refused.has(params.cursor ?? null)) throw new InvalidCursorError("cursor refused", { code: "invalid_cursor", status: 422, requestId: null })
      const n = params.cursor ? Number(params.cursor.slice(1)) + 1 : 1
      return { items: [], rejected: [], nextCursor: `p${n}`, hasMore: n < last } as unknown as ChangesPage
    },
  }
  return { client, calls }
}

describe("PageReader", () => {
  it("requests the next page as soon as it hands one over, and counts every request", async () => {
    const { client, calls } = feed(3)
    let requests = 0
    const reader = new PageReader(client, new AbortController().signal, () => requests++)
    reader.readFrom(null)
    const first = await reader.next(0, true)
    expect(first?.page.nextCursor).toBe("p1")
    expect(calls.map((c) => c.cursor ?? null)).toEqual([null, "p1"])
    expect(requests).toBe(2)
    // Until it is taken, the same page is handed over again (no further request).
    expect((await reader.next(0, true))?.page).toBe(first?.page)
    reader.taken()
    expect((await reader.next(0, true))?.page.nextCursor).toBe("p2")
    reader.taken()
    expect((await reader.next(0, true))?.page.nextCursor).toBe("p3")
    reader.taken()
    expect(reader.hasMore).toBe(false)
    expect(await reader.next(0, true)).toBeNull()
    expect(requests).toBe(3)
  })

  it("reads nothing new while the window has no room, but hands over the page already read", async () => {
    const { client } = feed(5)
    const reader = new PageReader(client, new AbortController().signal, () => undefined)
    reader.readFrom(null)
    expect(await reader.next(0, false)).toBeNull()
    const read = await reader.next(0, true)
    expect(await reader.next(0, false)).toBe(read)
  })

  it("turns a refused cursor into a restart while restarts are left, and throws it after the last", async () => {
    const { client } = feed(5, new Set(["old"]))
    const reader = new PageReader(client, new AbortController().signal, () => undefined)
    reader.readFrom("old")
    expect(await reader.next(MAX_RESTARTS - 1, true)).toBeNull()
    expect(reader.restartFor).toBe("invalid_cursor")
    reader.readFrom(null)
    expect(reader.restartFor).toBeNull()
    expect((await reader.next(MAX_RESTARTS - 1, true))?.page.nextCursor).toBe("p1")

    const last = new PageReader(client, new AbortController().signal, () => undefined)
    last.readFrom("old")
    await expect(last.next(MAX_RESTARTS, true)).rejects.toBeInstanceOf(InvalidCursorError)
  })

  it("after a shutdown drops the page read and not yet written, and reads no further", async () => {
    const { client, calls } = feed(5)
    const shutdown = new AbortController()
    const reader = new PageReader(client, shutdown.signal, () => undefined)
    reader.readFrom(null)
    const read = await reader.next(0, true)
    expect(read).not.toBeNull()
    shutdown.abort()
    // The page being read when the shutdown came is handed over (this client ignores the signal;
    // the real one rejects it as aborted)…
    const second = await reader.next(0, true)
    // …but the first one, read and not taken, was dropped; no request follows the shutdown.
    expect(second?.page.nextCursor).toBe("p2")
    reader.taken()
    expect(reader.hasMore).toBe(false)
    expect(calls).toHaveLength(2)
  })

  it("stop() reads no further (the brake paused the run)", async () => {
    const { client } = feed(5)
    const reader = new PageReader(client, new AbortController().signal, () => undefined)
    reader.readFrom(null)
    await reader.next(0, true)
    reader.taken()
    reader.stop()
    expect(reader.hasMore).toBe(false)
    expect(await reader.next(0, true)).toBeNull()
  })
})
