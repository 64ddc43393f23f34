// Messages Medusa's local event bus would deliver to no one are left out before it; everything a
// subscriber, a wildcard subscriber or an interceptor would see still reaches it, in order.
import LocalEventBusService from "@medusajs/event-bus-local/dist/services/event-bus-local"
import { emitInSlices, type EventMessage } from "../events"
import { heardMessages } from "../unheard-events"

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never
const busWith = () => new LocalEventBusService({ logger } as never, {}, {} as never)
const msg = (name: string, id: string): EventMessage => ({ name, data: { id } })
const settle = () => new Promise((r) => setTimeout(r, 20))

function countingBus<T extends { emit: (...a: any[]) => Promise<unknown> }>(bus: T) {
  const handed: string[] = []
  const emit = bus.emit.bind(bus)
  bus.emit = (async (messages: EventMessage[], options?: unknown) => {
    handed.push(...messages.map((m) => `${m.name}:${m.data.id}`))
    return emit(messages, options)
  }) as T["emit"]
  return handed
}

describe("heardMessages on Medusa's local event bus", () => {
  // The local bus's emitter is one per process, shared by its instances.
  afterEach(() => (busWith() as any).eventEmitter_.removeAllListeners())
  const page = [msg("product.product.created", "p1"), msg("product.created", "p1"), msg("product.product.created", "p2"), msg("product.created", "p2")]

  it("leaves out the names nobody listens to and keeps the rest in order; a subscriber gets all of its own", async () => {
    const bus = busWith()
    const seen: string[] = []
    bus.subscribe("product.created", async (e: any) => void seen.push(e.data.id))
    const handed = countingBus(bus)
    await emitInSlices(bus as never, page)
    await settle()
    expect(handed).toEqual(["product.created:p1", "product.created:p2"])
    expect(seen).toEqual(["p1", "p2"])
  })

  it("keeps every message when a wildcard subscriber listens", async () => {
    const bus = busWith()
    const seen: string[] = []
    bus.subscribe("*", async (e: any) => void seen.push(`${e.name}:${e.data.id}`))
    await emitInSlices(bus as never, page)
    await settle()
    expect(seen).toEqual(page.map((m) => `${m.name}:${m.data.id}`))
  })

  it("keeps every message when an interceptor is registered (Medusa's caching module invalidates from them)", async () => {
    const bus = busWith()
    const intercepted: string[] = []
    bus.addInterceptor(async (m: any) => void intercepted.push(`${m.name}:${m.data.id}`))
    await emitInSlices(bus as never, page)
    await settle()
    expect(intercepted).toEqual(page.map((m) => `${m.name}:${m.data.id}`))
  })

  it("keeps a grouped message (its group is released later, when listeners are read again)", () => {
    const grouped = { ...msg("product.product.created", "p9"), metadata: { eventGroupId: "g1" } }
    expect(heardMessages(busWith(), [grouped, msg("product.product.created", "p1")])).toEqual([grouped])
  })

  it("hands any other bus every message (a Redis bus's subscribers are in other processes)", () => {
    const other = { emit: async () => undefined }
    expect(heardMessages(other, page)).toBe(page)
    expect(heardMessages(null, page)).toBe(page)
  })
})
