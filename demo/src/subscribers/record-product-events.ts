// A search-index-like subscriber for tests: when CATALOG_SYNC_TEST_EVENTS_FILE is set, every
// product.created / .updated / .deleted event the app sees is appended to that file as one JSON
// line ({ name, id }). Without the variable it does nothing.
import { appendFileSync } from "node:fs"
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"

export default async function recordProductEvents({ event }: SubscriberArgs<{ id: string }>) {
  const file = process.env.CATALOG_SYNC_TEST_EVENTS_FILE
  if (file) appendFileSync(file, JSON.stringify({ name: event.name, id: event.data.id }) + "\n")
}

export const config: SubscriberConfig = {
  event: ["product.created", "product.updated", "product.deleted"],
}
