// The runtime's configuration: options first, then Medusa's project config, then the
// environment; a value of the environment that does not parse is ignored and reported.
import { readEnvironment } from "../../../config/environment"
import { resolveRuntimeConfig } from "../config"

const env = (vars: Record<string, string>) => readEnvironment(vars)

describe("resolveRuntimeConfig", () => {
  it("takes the Redis URL from the options, else the project config, else REDIS_URL, else none", () => {
    const all = env({ REDIS_URL: "redis://env" })
    expect(resolveRuntimeConfig({ options: { redisUrl: "redis://option" }, projectConfig: { redisUrl: "redis://project" }, env: all }).redisUrl).toBe(
      "redis://option"
    )
    expect(resolveRuntimeConfig({ options: {}, projectConfig: { redisUrl: "redis://project" }, env: all }).redisUrl).toBe("redis://project")
    expect(resolveRuntimeConfig({ options: {}, projectConfig: {}, env: all }).redisUrl).toBe("redis://env")
    expect(resolveRuntimeConfig({ env: env({}) }).redisUrl).toBeNull()
  })

  it("takes the worker mode from the project config, else MEDUSA_WORKER_MODE, else shared", () => {
    expect(resolveRuntimeConfig({ projectConfig: { workerMode: "server" }, env: env({ MEDUSA_WORKER_MODE: "worker" }) }).workerMode).toBe("server")
    expect(resolveRuntimeConfig({ env: env({ MEDUSA_WORKER_MODE: "worker" }) }).workerMode).toBe("worker")
    expect(resolveRuntimeConfig({ env: env({}) }).workerMode).toBe("shared")
  })

  it("gives a worker instance niceness 10 unless the option or environment says otherwise; a process that serves the shop none", () => {
    const worker = { projectConfig: { workerMode: "worker" } }
    expect(resolveRuntimeConfig({ ...worker, env: env({}) }).workerNice).toBe(10)
    expect(resolveRuntimeConfig({ ...worker, env: env({ CATALOG_SYNC_WORKER_NICE: "5" }) }).workerNice).toBe(5)
    expect(resolveRuntimeConfig({ ...worker, options: { workerNice: 0 }, env: env({ CATALOG_SYNC_WORKER_NICE: "5" }) }).workerNice).toBe(0)
    expect(resolveRuntimeConfig({ projectConfig: { workerMode: "shared" }, options: { workerNice: 15 }, env: env({}) }).workerNice).toBe(0)
    expect(resolveRuntimeConfig({ projectConfig: { workerMode: "server" }, env: env({}) }).workerNice).toBe(0)
    const refused = resolveRuntimeConfig({ ...worker, options: { workerNice: 25 }, env: env({ CATALOG_SYNC_WORKER_NICE: "30" }) })
    expect(refused.workerNice).toBe(10)
    expect(refused.problems).toEqual([expect.stringContaining("CATALOG_SYNC_WORKER_NICE"), expect.stringContaining("plugin option workerNice=25 is not valid")])
  })

  it("reads the prefix and the test hooks typed, with the defaults when unset", () => {
    const defaults = resolveRuntimeConfig({ env: env({}) })
    expect(defaults).toMatchObject({ redisPrefix: "mcs", retryBackoffMs: 30_000, scheduleEveryMs: null, problems: [] })
    const set = resolveRuntimeConfig({
      env: env({ CATALOG_SYNC_REDIS_PREFIX: " shop-a ", CATALOG_SYNC_RETRY_BACKOFF_MS: "1500", CATALOG_SYNC_SCHEDULE_EVERY_MS: "3000" }),
    })
    expect(set).toMatchObject({ redisPrefix: "shop-a", retryBackoffMs: 1500, scheduleEveryMs: 3000 })
  })

  it("ignores the test-only schedule interval when NODE_ENV is production, and says so", () => {
    const production = resolveRuntimeConfig({ env: env({ CATALOG_SYNC_SCHEDULE_EVERY_MS: "3000", NODE_ENV: "production" }) })
    expect(production.scheduleEveryMs).toBeNull()
    expect(production.problems).toEqual([expect.stringContaining("CATALOG_SYNC_SCHEDULE_EVERY_MS is a test hook")])
    expect(resolveRuntimeConfig({ env: env({ CATALOG_SYNC_SCHEDULE_EVERY_MS: "3000", NODE_ENV: "development" }) }).scheduleEveryMs).toBe(3000)
  })

  it("ignores a value that does not parse (the default applies) and names it, never the secret's value", () => {
    const config = resolveRuntimeConfig({
      env: env({ CATALOG_SYNC_RETRY_BACKOFF_MS: "soon", CATALOG_SYNC_SCHEDULE_EVERY_MS: "-5", MEDUSA_WORKER_MODE: "both" }),
    })
    expect(config).toMatchObject({ retryBackoffMs: 30_000, scheduleEveryMs: null, workerMode: "shared" })
    expect(config.problems).toEqual([
      expect.stringContaining("CATALOG_SYNC_SCHEDULE_EVERY_MS"),
      expect.stringContaining("CATALOG_SYNC_RETRY_BACKOFF_MS"),
      expect.stringContaining("MEDUSA_WORKER_MODE"),
    ])
  })

  it("takes the write path from the option, else CATALOG_SYNC_WRITE_PATH, else bulk; a bad value is named and ignored", () => {
    expect(resolveRuntimeConfig({ env: env({}) }).writePath).toBe("bulk")
    expect(resolveRuntimeConfig({ env: env({ CATALOG_SYNC_WRITE_PATH: "workflows" }) }).writePath).toBe("workflows")
    expect(resolveRuntimeConfig({ options: { writePath: "bulk" }, env: env({ CATALOG_SYNC_WRITE_PATH: "workflows" }) }).writePath).toBe("bulk")
    const bad = resolveRuntimeConfig({ options: { writePath: "fast" as never }, env: env({ CATALOG_SYNC_WRITE_PATH: "workflows" }) })
    expect(bad.writePath).toBe("workflows")
    expect(bad.problems).toEqual([expect.stringContaining("writePath")])
    const badEnv = resolveRuntimeConfig({ env: env({ CATALOG_SYNC_WRITE_PATH: "sql" }) })
    expect(badEnv.writePath).toBe("bulk")
    expect(badEnv.problems).toEqual([expect.stringContaining("CATALOG_SYNC_WRITE_PATH")])
  })
})
