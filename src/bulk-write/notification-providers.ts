// Whether Medusa's Notification module has an enabled provider for a channel (its own table; the
// module's service lists notifications, not providers).
import type { MedusaContainer } from "@medusajs/framework/types"
import { knexOf } from "./sql"

export async function hasEnabledNotificationProvider(container: Pick<MedusaContainer, "resolve">, channel: string): Promise<boolean> {
  const found = await knexOf(container).raw("select 1 from notification_provider where is_enabled and deleted_at is null and ? = any(channels) limit 1", [
    channel,
  ])
  return (found.rows?.length ?? 0) > 0
}
