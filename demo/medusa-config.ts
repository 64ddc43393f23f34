import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

const redisUrl = process.env.REDIS_URL || "redis://127.0.0.1:6379"

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL || "postgres://postgres@localhost:5432/medusa_catalog_sync_demo",
    redisUrl,
    // DEMO_DATABASE_LOGGING=true: every SQL statement the app's ORM runs is logged (to read a query's plan).
    databaseLogging: process.env.DEMO_DATABASE_LOGGING === "true",
    workerMode: (process.env.MEDUSA_WORKER_MODE as "shared" | "worker" | "server") || "shared",
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || "http://localhost:9000",
      authCors: process.env.AUTH_CORS || "http://localhost:9000",
      jwtSecret: process.env.JWT_SECRET || "demo-jwt-secret",
      cookieSecret: process.env.COOKIE_SECRET || "demo-cookie-secret",
    },
  },
  admin: {
    disable: process.env.DISABLE_ADMIN === "true",
  },
  // The translation module is behind a feature flag in 2.21; the demo enables it so
  // the second catalog language is served through the store API's locale. The Index module
  // (index_engine: /store/products takes its ids from the index) and Medusa's caching (store
  // reads cached, invalidated by events) are off unless a test asks for them.
  featureFlags: {
    translation: process.env.DISABLE_TRANSLATION !== "true",
    index_engine: process.env.DEMO_INDEX_ENGINE === "true",
    caching: process.env.DEMO_CACHING === "true",
  },
  modules: [
    ...(process.env.DISABLE_TRANSLATION === "true" ? [] : [{ resolve: "@medusajs/medusa/translation" }]),
    // Medusa's default Notification module has the local provider on the `feed` channel (the
    // dashboard's bell), which is where the plugin's alerts go. A shop that configures the module
    // itself (an email provider) must list a `feed` provider too, as here. The alerts spec adds a
    // recording email provider (integration-tests/notification-email) this way.
    ...(process.env.CATALOG_SYNC_TEST_EMAIL_PROVIDER
      ? [
          {
            resolve: "@medusajs/medusa/notification",
            options: {
              providers: [
                { resolve: "@medusajs/medusa/notification-local", id: "local", options: { name: "Local Notification Provider", channels: ["feed"] } },
                { resolve: process.env.CATALOG_SYNC_TEST_EMAIL_PROVIDER, id: "test-email", options: { channels: ["email"] } },
              ],
            },
          },
        ]
      : []),
    ...(process.env.DEMO_INDEX_ENGINE === "true" ? [{ resolve: "@medusajs/index" }] : []),
    ...(process.env.DEMO_CACHING === "true" ? [{ resolve: "@medusajs/medusa/caching", options: { in_memory: { enable: true } } }] : []),
  ],
  plugins: [
    {
      resolve: "medusa-catalog-sync",
      options: {
        baseUrl: process.env.CATALOG_BASE_URL,
        apiKey: process.env.CATALOG_API_KEY,
        // No fallback: `npm run demo` writes a random secret to demo/.env on first start
        // (scripts/demo-secret.ts). Without one the admin cannot save a key.
        encryptionKey: process.env.CATALOG_SYNC_ENCRYPTION_KEY,
        // The demo's catalog is the sandbox on loopback; a real shop leaves this off.
        allowPrivateNetworks: process.env.CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS !== "false",
        redisUrl,
        pollIntervalMinutes: 10,
      },
    },
  ],
})
