// Four projects: "core" needs no Medusa (sandbox, client, pure sync logic, all over real
// loopback HTTP); "medusa" boots real Medusa apps against PostgreSQL and Redis; "browser"
// drives the demo admin in headless Chromium; "install" packs the plugin and installs it into
// a Medusa app made from nothing (needs the npm registry).
const swc = [
  "@swc/jest",
  {
    jsc: {
      parser: { syntax: "typescript", tsx: true, decorators: true },
      target: "es2021",
      transform: { react: { runtime: "automatic" } },
    },
  },
]
const common = {
  testEnvironment: "node",
  transform: { "^.+\\.[jt]sx?$": swc },
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  modulePathIgnorePatterns: ["<rootDir>/.medusa/", "<rootDir>/demo/", "<rootDir>/node_modules/medusa-catalog-sync"],
}
module.exports = {
  // The longest files first, by a run's measured times (a clean clone has no timing cache of jest's).
  testSequencer: "<rootDir>/integration-tests/harness/longest-first-sequencer.js",
  projects: [
    {
      ...common,
      displayName: "core",
      // A busy CI machine runs 3 to 4 times slower: the sandbox specs build catalogs in their hooks.
      setupFilesAfterEnv: ["<rootDir>/scripts/jest-core-timeout.js"],
      testMatch: [
        "<rootDir>/src/**/__tests__/**/*.spec.ts",
        "<rootDir>/sandbox/**/__tests__/**/*.spec.ts",
        "<rootDir>/scripts/**/__tests__/**/*.spec.ts",
        "<rootDir>/bench/**/__tests__/**/*.spec.ts",
      ],
    },
    {
      ...common,
      displayName: "medusa",
      globalSetup: "<rootDir>/integration-tests/harness/global-setup.ts",
      // Stops the apps the spec files left parked for each other (MCS_PARK_APPS, parked-apps.ts).
      globalTeardown: "<rootDir>/integration-tests/harness/global-teardown.ts",
      // Each parallel worker gets its own Redis database (Medusa's queues have fixed names).
      setupFiles: ["<rootDir>/integration-tests/harness/worker-isolation.ts"],
      testMatch: ["<rootDir>/integration-tests/medusa/**/*.spec.ts"],
    },
    {
      ...common,
      displayName: "browser",
      globalSetup: "<rootDir>/integration-tests/harness/global-setup.ts",
      globalTeardown: "<rootDir>/integration-tests/harness/global-teardown.ts",
      setupFiles: ["<rootDir>/integration-tests/harness/worker-isolation.ts"],
      testMatch: ["<rootDir>/integration-tests/browser/**/*.spec.ts"],
    },
    {
      ...common,
      displayName: "install",
      setupFiles: ["<rootDir>/integration-tests/harness/worker-isolation.ts"],
      testMatch: ["<rootDir>/integration-tests/install/**/*.spec.ts"],
    },
  ],
}
