import { stopParkedApps } from "./parked-apps"

export default async function globalTeardown() {
  await stopParkedApps()
}
