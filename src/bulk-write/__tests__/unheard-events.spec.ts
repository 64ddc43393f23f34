// Messages Medusa's local event bus would deliver to no one are left out before it; everything a
// subscriber, a wildcard subscriber or an interceptor would see still reaches it, in order.
import LocalEventBusService from "@medusajs/event-bus-local/dist/services/event-bus-local"
import { emitInSlices, type EventMessage } from "../events"
import { heardMessages } from "../unheard-events"

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never
const busWith = () => new LocalEventBusService({ logger } as never, {}, {} as never)
const msg = (name: string, id: string): EventMessage => ({ name, data: { id } })
const settle = () => new Promise((r) => setTimeout(r, 20))

/** The messages the bus's own emit handles, one by one (its emit stays the class's). */
function countingBus(bus: any): string[] {
  const handed: string[] = []
  const handle = bus.groupOrEmitEvent.bind(bus)
  bus.groupOrEmitEvent = (m: EventMessage) => {
    handed.push(`${m.name}:${m.data.id}`)
    return handle(m)
  }
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

  it("reads who listens for each slice: a subscriber added between two slices gets the later ones", async () => {
    const bus = busWith()
    const seen: string[] = []
    const messages = ["p1", "p2", "p3", "p4"].map((id) => msg("product.created", id))
    // The first slice goes to no one; the subscriber comes during the turn between slices.
    setImmediate(() => bus.subscribe("product.created", async (e: any) => void seen.push(e.data.id)))
    await emitInSlices(bus as never, messages, undefined, 2)
    await settle()
    expect(seen).toEqual(["p3", "p4"])
  })

  it("hands a subclass of the local bus, or one whose emit was replaced, every message (it may publish elsewhere)", () => {
    class ForwardingBus extends LocalEventBusService {}
    expect(heardMessages(new ForwardingBus({ logger } as never, {}, {} as never), page)).toBe(page)
    const wrapped = busWith()
    wrapped.emit = async () => undefined
    expect(heardMessages(wrapped, page)).toBe(page)
    expect(heardMessages(busWith(), page)).toEqual([])
  })

  it("hands any other bus every message (a Redis bus's subscribers are in other processes)", () => {
    const other = { emit: async () => undefined }
    expect(heardMessages(other, page)).toBe(page)
    expect(heardMessages(null, page)).toBe(page)
  })
})
