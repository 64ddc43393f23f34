/**
 * Runs in every jest worker of the medusa, browser and install projects before each spec file (jest
 * `setupFiles`). The demo app's Medusa event bus and workflow-engine queues live in Redis under
 * fixed names, so two apps on one Redis database take each other's events and jobs: each
 * worker gets its own database index, the given one (REDIS_URL, default 0) plus the worker's
 * number less one. One worker (`--runInBand`) keeps REDIS_URL as given. Databases, ports, the
 * plugin's Redis prefix and log names are already unique per spec (see database.ts,
 * medusa-app.ts, sync-helpers.ts).
 */
import { workerRedisUrl } from "./worker-redis"

// The URL as given to jest, kept so a second spec file in the same worker does not add again.
process.env.MCS_REDIS_URL_GIVEN ??= process.env.REDIS_URL ?? ""
// MCS_REDIS_WORKER_OFFSET moves a whole jest run past another one running beside it (scripts/test.sh
// runs the install project in the background beside the medusa workers).
const worker = Number(process.env.JEST_WORKER_ID || 1) + Number(process.env.MCS_REDIS_WORKER_OFFSET || 0)
process.env.REDIS_URL = workerRedisUrl(process.env.MCS_REDIS_URL_GIVEN || undefined, worker)
