// The events Medusa's own workflows emit for the same changes, collected during a page's
// transaction and emitted only after it commits (as a workflow releases its grouped events at
// its end): all internal ones first, then the public ones, each in calls of at most
// EMIT_SLICE_MESSAGES with a turn of the event loop between calls (emitInSlices):
// - module-internal events, one per row written (as the module services' ORM hooks emit them:
//   `<module>.<entity>.created|updated|deleted`, `{ id }`, metadata { source, action, object },
//   internal), derived from the page's row journal; link rows give the link module's
//   `<Link entity>.attached|detached`. The Index module and the cache listen to these.
// - the workflows' public events (`product.created`, `product-variant.created`, …), `{ id }`.
// The bulk writer is the sync's alone, so its product.updated events carry the sync's mark
// (SYNC_WRITE_MARK), as the update workflow's do: auto-lock must not take them for admin edits.
// One turn of the event loop (what waits for I/O, a shopper's request, runs before the caller goes on).
import { setImmediate as nextTurn } from "node:timers/promises"
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  buildModuleResourceEventName,
  CommonEvents,
  InventoryItemWorkflowEvents,
  InventoryLevelWorkflowEvents,
  Modules,
  ProductOptionWorkflowEvents,
  ProductVariantWorkflowEvents,
  ProductWorkflowEvents,
} from "@medusajs/framework/utils"
import { SYNC_WRITE_MARK } from "../field-locks/admin-edits"
import { linkEventNamings } from "./link-tables"
import type { RowAction, RowJournal } from "./row-journal"
import { heardMessages } from "./unheard-events"

export const BULK_EVENTS = {
  productCreated: ProductWorkflowEvents.CREATED,
  productUpdated: ProductWorkflowEvents.UPDATED,
  productDeleted: ProductWorkflowEvents.DELETED,
  optionDeleted: ProductOptionWorkflowEvents.DELETED,
  variantCreated: ProductVariantWorkflowEvents.CREATED,
  variantUpdated: ProductVariantWorkflowEvents.UPDATED,
  variantDeleted: ProductVariantWorkflowEvents.DELETED,
  inventoryItemCreated: InventoryItemWorkflowEvents.CREATED,
  inventoryItemDeleted: InventoryItemWorkflowEvents.DELETED,
  inventoryLevelCreated: InventoryLevelWorkflowEvents.CREATED,
  inventoryLevelUpdated: InventoryLevelWorkflowEvents.UPDATED,
} as const

/**
 * The module entities the bulk writer writes, by table: the module (source) and the entity's
 * class in snake case (object), from which the module names its events (a table not listed is a
 * pivot without an entity, e.g. product_category_product, and the module emits nothing for it).
 */
export const MODULE_ENTITIES: Record<string, { source: string; object: string }> = {
  product: { source: Modules.PRODUCT, object: "product" },
  product_variant: { source: Modules.PRODUCT, object: "product_variant" },
  product_option: { source: Modules.PRODUCT, object: "product_option" },
  product_option_value: { source: Modules.PRODUCT, object: "product_option_value" },
  product_product_option: { source: Modules.PRODUCT, object: "product_product_option" },
  product_product_option_value: { source: Modules.PRODUCT, object: "product_product_option_value" },
  image: { source: Modules.PRODUCT, object: "product_image" },
  price_set: { source: Modules.PRICING, object: "price_set" },
  price: { source: Modules.PRICING, object: "price" },
  price_rule: { source: Modules.PRICING, object: "price_rule" },
  inventory_item: { source: Modules.INVENTORY, object: "inventory_item" },
  inventory_level: { source: Modules.INVENTORY, object: "inventory_level" },
  translation: { source: Modules.TRANSLATION, object: "translation" },
}

const ACTIONS: RowAction[] = ["created", "updated", "deleted"]
const LINK_ACTION: Partial<Record<RowAction, string>> = { created: CommonEvents.ATTACHED, deleted: CommonEvents.DETACHED }

export type EventMessage = {
  name: string
  data: { id: string | string[]; [SYNC_WRITE_MARK]?: true }
  metadata?: { source: string; action: string; object: string }
}

/** The module-internal and link events of the rows in the journal, one `{ id }` message per row. */
export function internalMessages(journal: RowJournal): EventMessage[] {
  const out: EventMessage[] = []
  let links: ReturnType<typeof linkEventNamings> | undefined
  for (const table of journal.tables()) {
    const entity = MODULE_ENTITIES[table]
    for (const action of ACTIONS) {
      const ids = journal.ids(table, action)
      if (!ids.length) continue
      if (entity) {
        const name = buildModuleResourceEventName({ prefix: entity.source, objectName: entity.object, action })
        for (const id of ids) out.push({ name, data: { id }, metadata: { source: entity.source, action, object: entity.object } })
        continue
      }
      links ??= linkEventNamings()
      const link = links.get(table)
      const linkAction = LINK_ACTION[action]
      if (!link || !linkAction) continue
      // The link module emits one message per call, with every id of it.
      out.push({
        name: `${link.entityName}.${linkAction}`,
        data: { id: ids.length === 1 ? ids[0] : ids },
        metadata: { source: link.serviceName, action: linkAction, object: link.entityName },
      })
    }
  }
  return out
}

/** Messages handed to the event bus between two turns of the event loop. */
export const EMIT_SLICE_MESSAGES = 500

type MessageBus = { emit(messages: EventMessage[], options?: { internal?: boolean }): Promise<unknown> }

/**
 * The messages in order, in calls of at most `sliceMessages` with a turn of the event loop
 * between them. The local event bus dispatches a call's messages in microtasks, so a page's
 * thousands of row events in one call held the process (and a shopper's request, when the sync
 * runs in the server) for a hundred milliseconds and more; the Redis bus adds each call's jobs
 * in one bulk. Subscribers get the same messages in the same order either way. Messages the
 * local bus would deliver to no one are left out first (unheard-events.ts).
 */
export async function emitInSlices(
  eventBus: MessageBus,
  messages: EventMessage[],
  options?: { internal: true },
  sliceMessages = EMIT_SLICE_MESSAGES
): Promise<void> {
  if (!(sliceMessages >= 1)) throw new Error(`catalog sync: emitInSlices needs a slice of at least 1 message, got ${sliceMessages}`)
  for (let i = 0; i < messages.length; i += sliceMessages) {
    if (i > 0) await nextTurn()
    // Who listens is read for each slice, as the bus reads it for each message it is handed.
    const slice = heardMessages(eventBus, messages.slice(i, i + sliceMessages))
    if (slice.length) await (options ? eventBus.emit(slice, options) : eventBus.emit(slice))
  }
}

export class PendingEvents {
  private readonly byName = new Map<string, Set<string>>()

  add(name: string, ids: Iterable<string>): void {
    const set = this.byName.get(name) ?? new Set<string>()
    for (const id of ids) set.add(id)
    this.byName.set(name, set)
  }

  /** One `{ id }` message per entity and event name, like emitEventStep with an array of data. */
  messages(): EventMessage[] {
    const out: EventMessage[] = []
    for (const [name, ids] of this.byName) {
      const marked = name === BULK_EVENTS.productUpdated
      for (const id of ids) out.push({ name, data: marked ? { id, [SYNC_WRITE_MARK]: true } : { id } })
    }
    return out
  }

  /** After the commit: the internal events first (a workflow's steps group them before its emit step), then the public ones. */
  async emit(container: MedusaContainer, journal?: RowJournal): Promise<void> {
    const eventBus = container.resolve(Modules.EVENT_BUS) as MessageBus
    await emitInSlices(eventBus, journal ? internalMessages(journal) : [], { internal: true })
    await emitInSlices(eventBus, this.messages())
  }
}
