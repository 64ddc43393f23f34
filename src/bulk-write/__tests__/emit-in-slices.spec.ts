// A page's events go to the bus in slices with a turn of the event loop between them: the same
// messages in the same order, and a request waiting for the loop is served between two slices.
import { emitInSlices, PendingEvents, type EventMessage } from "../events"
import { RowJournal } from "../row-journal"

const messagesOf = (n: number, name = "product.product.created"): EventMessage[] => Array.from({ length: n }, (_, i) => ({ name, data: { id: `id_${i}` } }))

function recordingBus(log: string[]) {
  const calls: { messages: EventMessage[]; options: unknown }[] = []
  return {
    calls,
    emit: async (messages: EventMessage[], options?: unknown) => {
      calls.push({ messages, options })
      log.push(`emit ${messages.length}`)
    },
  }
}

describe("emitInSlices", () => {
  it("hands every message over once, in order, in calls of at most the slice, with the options on each call", async () => {
    const bus = recordingBus([])
    const messages = messagesOf(1_201)
    await emitInSlices(bus, messages, { internal: true }, 500)
    expect(bus.calls.map((c) => c.messages.length)).toEqual([500, 500, 201])
    expect(bus.calls.every((c) => (c.options as { internal?: boolean })?.internal === true)).toBe(true)
    expect(bus.calls.flatMap((c) => c.messages)).toEqual(messages)
  })

  it("lets the event loop turn between two slices (a timer or an answer due meanwhile runs before the next slice)", async () => {
    const log: string[] = []
    const bus = recordingBus(log)
    setImmediate(() => log.push("other work"))
    await emitInSlices(bus, messagesOf(3), undefined, 1)
    expect(log).toEqual(["emit 1", "other work", "emit 1", "emit 1"])
  })

  it("refuses a slice of less than one message (it would never end)", async () => {
    await expect(emitInSlices(recordingBus([]), messagesOf(2), undefined, 0)).rejects.toThrow("at least 1 message")
  })

  it("makes no call for no messages, and public events go without options", async () => {
    const bus = recordingBus([])
    await emitInSlices(bus, [])
    expect(bus.calls).toEqual([])
    await emitInSlices(bus, messagesOf(2, "product.created"))
    expect(bus.calls).toEqual([{ messages: messagesOf(2, "product.created"), options: undefined }])
  })

  it("a page's emit: every internal message before the first public one, each kind whole", async () => {
    const bus = recordingBus([])
    const journal = new RowJournal()
    journal.record(
      "product_variant",
      "created",
      Array.from({ length: 1_100 }, (_, i) => `variant_${i}`)
    )
    const events = new PendingEvents()
    events.add("product.created", ["prod_1", "prod_2"])
    const container = { resolve: () => bus } as never
    await events.emit(container, journal)
    const internal = bus.calls.filter((c) => (c.options as { internal?: boolean })?.internal)
    expect(internal.map((c) => c.messages.length)).toEqual([500, 500, 100])
    expect(internal.flatMap((c) => c.messages.map((m) => m.data.id))).toEqual(Array.from({ length: 1_100 }, (_, i) => `variant_${i}`))
    expect(bus.calls.slice(3)).toEqual([{ messages: [{ name: "product.created", data: { id: "prod_1" } }, { name: "product.created", data: { id: "prod_2" } }], options: undefined }])
  })
})
