// Messages no one in this process would hear, left out before they reach Medusa's local event bus.
// That bus dispatches in the process that emits: a message whose name has no listener, with no
// wildcard ("*") subscriber and no interceptor (Medusa's caching module adds one), is dropped by
// the bus after it has copied it twice, stamped it and chained promises for it. A page writes
// thousands of rows, each with its module event, and with the Index module and caching off (Medusa's
// default) nothing listens to them: that work was a share of the sync's CPU on the server's event
// loop. The bus reads its listeners when a message is emitted, as this does (the caller asks again
// for each slice it hands over), so subscribers see exactly what they saw before. Any other bus
// (Redis: subscribers in other processes; a subclass or a wrapped emit that may publish elsewhere)
// gets every message.
import { EventEmitter } from "node:events"

type LocalBusShape = { eventEmitter_?: unknown; interceptorSubscribers_?: unknown }

/** Medusa's own local bus, its emit not replaced on the instance (a subclass has another class name). */
function isMedusaLocalBus(bus: unknown): bus is LocalBusShape {
  if (typeof bus !== "object" || bus === null) return false
  const proto = Object.getPrototypeOf(bus)
  const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key)
  return proto?.constructor?.name === "LocalEventBusService" && own(proto, "emit") && !own(bus, "emit")
}

/** The messages a bus would deliver to someone: all of them unless it is the local bus, where the unheard are left out. */
export function heardMessages<M extends { name: string; metadata?: object }>(eventBus: unknown, messages: M[]): M[] {
  if (!isMedusaLocalBus(eventBus)) return messages
  const emitter = eventBus.eventEmitter_
  const interceptors = eventBus.interceptorSubscribers_
  // Not the shape this reads (a Medusa that changed it): everything goes.
  if (!(emitter instanceof EventEmitter) || !(interceptors instanceof Set)) return messages
  if (interceptors.size > 0 || emitter.listenerCount("*") > 0) return messages
  const heard = new Map<string, boolean>()
  return messages.filter((m) => {
    // A grouped message waits for its group's release, when listeners are read again.
    if (m.metadata && "eventGroupId" in m.metadata) return true
    let yes = heard.get(m.name)
    if (yes === undefined) heard.set(m.name, (yes = emitter.listenerCount(m.name) > 0))
    return yes
  })
}
