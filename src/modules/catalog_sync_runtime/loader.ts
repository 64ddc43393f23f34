// Runs when Medusa loads the module (every process that boots the app, `medusa db:migrate`
// included): resolves the configuration once and opens the Redis command connection, like
// Medusa's event-bus-redis loader. It starts nothing; the service's onApplicationStart does.
import { asValue } from "@medusajs/framework/awilix"
import type { ConfigModule, LoaderOptions, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { CatalogSyncPluginOptions } from "../../sync/settings"
import { RedisConnections } from "../../queue/redis"
import { resolveRuntimeConfig } from "./config"
import { configureWritePath } from "../../shop-writer/choose-shop-writer"

/** What the loader registers in the module's container (the service's dependencies). */
export const RUNTIME_CONFIG_KEY = "catalogSyncRuntimeConfig"
export const RUNTIME_REDIS_KEY = "catalogSyncRedis"

export default async function catalogSyncRuntimeLoader({ container, logger, options }: LoaderOptions<CatalogSyncPluginOptions>): Promise<void> {
  const log = (logger ?? console) as Logger
  const configModule = container.resolve<ConfigModule | undefined>(ContainerRegistrationKeys.CONFIG_MODULE, { allowUnregistered: true })
  const config = resolveRuntimeConfig({ options, projectConfig: configModule?.projectConfig })
  for (const problem of config.problems) log.warn(`catalog sync: ${problem}`)
  configureWritePath(config.writePath)
  let redis: RedisConnections | null = null
  if (config.redisUrl) {
    redis = new RedisConnections(config.redisUrl, (name, e) => log.warn(`catalog sync redis (${name}): ${e.message}`))
    redis.commands()
  }
  container.register({
    [RUNTIME_CONFIG_KEY]: asValue(config),
    [RUNTIME_REDIS_KEY]: asValue(redis),
  })
}
