// A test email provider for the Notification module: records every email it is asked to send,
// one JSON line each, in the file named by CATALOG_SYNC_TEST_EMAIL_FILE (the alerts spec reads it).
// The demo app registers it for the `email` channel when CATALOG_SYNC_TEST_EMAIL_PROVIDER names
// this directory (demo/medusa-config.ts).
import fs from "node:fs"
import type { ProviderSendNotificationDTO, ProviderSendNotificationResultsDTO } from "@medusajs/framework/types"
import { AbstractNotificationProviderService, ModuleProvider, Modules } from "@medusajs/framework/utils"

class RecordingEmailProvider extends AbstractNotificationProviderService {
  static identifier = "recording-email"

  async send(notification: ProviderSendNotificationDTO): Promise<ProviderSendNotificationResultsDTO> {
    const file = process.env.CATALOG_SYNC_TEST_EMAIL_FILE
    const { to, channel, template, data, content } = notification
    if (file) fs.appendFileSync(file, JSON.stringify({ to, channel, template, data, content }) + "\n")
    return { id: `recorded_${Date.now()}` }
  }
}

export default ModuleProvider(Modules.NOTIFICATION, { services: [RecordingEmailProvider] })
