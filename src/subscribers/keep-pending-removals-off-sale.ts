// Stock given back by an order (cancelled, a fulfillment cancelled, a return received) must not
// put a size or product the catalog removed, kept only for its orders, back on sale.
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, OrderWorkflowEvents } from "@medusajs/framework/utils"
import { keepPendingOffSale } from "../sync-run/pending-removals"

export default async function keepPendingRemovalsOffSale({ container }: SubscriberArgs<{ id: string }>) {
  try {
    await keepPendingOffSale(container)
  } catch (error) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`catalog sync: sizes kept for open orders not taken off sale again: ${(error as Error)?.message ?? error}`)
  }
}

export const config: SubscriberConfig = {
  event: [OrderWorkflowEvents.CANCELED, OrderWorkflowEvents.FULFILLMENT_CANCELED, OrderWorkflowEvents.RETURN_RECEIVED],
  context: { subscriberId: "catalog-sync-keep-pending-removals-off-sale" },
}
