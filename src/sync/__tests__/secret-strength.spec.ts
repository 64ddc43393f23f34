// No default secret: no string of this repository is accepted as the encryption secret, a
// short one is refused, a weak one stops runs with a clear code, and the demo makes its own.
import { randomBytes } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { repositorySecretLikeLiterals, secretLikeLiterals } from "../../../scripts/published-secrets"
import { ensureDemoSecret, generateSecret } from "../../../scripts/demo-secret"
import { createCatalogClientFor } from "../../queue/catalog-client-factory"
import { allowPrivateNetworks, encryptionSecretWeakness, MIN_STRONG_SECRET_LENGTH } from "../settings"

describe("encryption secret strength", () => {
  it("refuses every secret-like literal the repository publishes (the hand-kept list is complete)", () => {
    const found = repositorySecretLikeLiterals()
    const accepted = [...found]
      .filter(([value]) => encryptionSecretWeakness(value) === null)
      .map(([value, files]) => `${files.join(", ")}: ${value.slice(0, 12)}…`)
    expect(found.size).toBeGreaterThan(0)
    // A new example secret? Add it to src/sync/settings/published-secrets.ts (never a real one).
    expect(accepted).toEqual([])
  })

  it("finds a newly published example: an .env line, a config value, a token in the docs", () => {
    // A token in prose counts when it holds letters and digits (a long name does not); about one
    // random 40-character token in a thousand has no digit, so each is drawn until it has both.
    const drawn = (draw: () => string) => {
      for (;;) {
        const token = draw()
        if (/[0-9]/.test(token) && /[A-Za-z]/.test(token)) return token
      }
    }
    const random = () => drawn(() => randomBytes(30).toString("base64url"))
    const [env, config, docs, hex] = [random(), random(), random(), drawn(() => randomBytes(24).toString("hex"))]
    expect(secretLikeLiterals(`REDIS_URL=redis://x\nCATALOG_SYNC_ENCRYPTION_KEY=${env}\n`, false)).toEqual(new Set([env]))
    expect(secretLikeLiterals(`options: { encryptionKey: process.env.X || "${config}" }`, false)).toEqual(new Set([config]))
    expect(secretLikeLiterals(`Generate one:\n\n    ${docs}\n\nor \`${hex}\``, true)).toEqual(new Set([docs, hex]))
    // Code and prose are not secrets: expressions, interpolations, paths, names.
    const code = "const apiKey = process.env.CATALOG_API_KEY_FROM_THE_ENVIRONMENT_OF_THIS_SHOP\nkey: `${prefix}:lock:enqueue:something-long-enough`"
    expect(secretLikeLiterals(code, false)).toEqual(new Set())
    expect(secretLikeLiterals("see artifacts/screenshots/01-settings-validation-error.png and CATALOG_SYNC_HEAP_GROWTH_PERCENT", true)).toEqual(new Set())
  })

  it("refuses the old demo default, README-style placeholders and anything short", () => {
    for (const weak of ["demo-only-encryption-key-change-me", "x".repeat(MIN_STRONG_SECRET_LENGTH - 1), "", "short"]) {
      expect(encryptionSecretWeakness(weak)).toEqual(expect.any(String))
    }
    expect(encryptionSecretWeakness("demo-only-encryption-key-change-me")).toMatch(/published with this plugin/)
    expect(encryptionSecretWeakness("a".repeat(31))).toMatch(/shorter than 32/)
  })

  it("accepts random secrets as people generate them", () => {
    for (let i = 0; i < 50; i++) {
      expect(encryptionSecretWeakness(randomBytes(32).toString("hex"))).toBeNull()
      expect(encryptionSecretWeakness(randomBytes(48).toString("base64"))).toBeNull()
      expect(encryptionSecretWeakness(generateSecret())).toBeNull()
    }
  })

  it("stops a run (and any catalog call) with code weak_encryption_secret when the secret is weak", () => {
    const before = process.env.CATALOG_SYNC_ENCRYPTION_KEY
    const settings = {
      baseUrl: "http://127.0.0.1:9",
      apiKey: "k",
      apiKeyHash: null,
      pricing: { price_calculation: "max" as const, markup_percent: null, discount_percent: null, old_price_markup_percent: null },
    }
    try {
      process.env.CATALOG_SYNC_ENCRYPTION_KEY = "demo-only-encryption-key-change-me"
      expect(() => createCatalogClientFor(null, settings)).toThrow(expect.objectContaining({ code: "weak_encryption_secret" }))
      process.env.CATALOG_SYNC_ENCRYPTION_KEY = "sixteen-chars-ok"
      expect(() => createCatalogClientFor(null, settings)).toThrow(/shorter than 32/)
      process.env.CATALOG_SYNC_ENCRYPTION_KEY = generateSecret()
      const client = createCatalogClientFor(null, settings)
      void client.close()
    } finally {
      if (before === undefined) delete process.env.CATALOG_SYNC_ENCRYPTION_KEY
      else process.env.CATALOG_SYNC_ENCRYPTION_KEY = before
    }
  })
})

describe("allowPrivateNetworks", () => {
  it("is off by default, set by the option, else by CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS", () => {
    expect(allowPrivateNetworks({}, {})).toBe(false)
    expect(allowPrivateNetworks({}, { CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS: "true" })).toBe(true)
    expect(allowPrivateNetworks({}, { CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS: "1" })).toBe(true)
    expect(allowPrivateNetworks({}, { CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS: "no" })).toBe(false)
    expect(allowPrivateNetworks({ allowPrivateNetworks: false }, { CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS: "true" })).toBe(false)
    expect(allowPrivateNetworks({ allowPrivateNetworks: true }, {})).toBe(true)
  })
})

describe("the demo's secret", () => {
  let dir: string
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcs-demo-secret-"))
  })
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  it("is generated at random into demo/.env on first start and kept after", () => {
    const envFile = path.join(dir, ".env")
    const first = ensureDemoSecret(envFile)
    expect(first.created).toBe(true)
    expect(encryptionSecretWeakness(first.secret)).toBeNull()
    expect(fs.readFileSync(envFile, "utf8")).toContain(`CATALOG_SYNC_ENCRYPTION_KEY=${first.secret}\n`)
    expect(fs.statSync(envFile).mode & 0o077).toBe(0)
    expect(ensureDemoSecret(envFile)).toEqual({ secret: first.secret, created: false })

    const other = ensureDemoSecret(path.join(fs.mkdtempSync(path.join(dir, "b-")), ".env"))
    expect(other.secret).not.toBe(first.secret)
  })

  it("keeps what demo/.env already holds", () => {
    const envFile = path.join(dir, ".env")
    fs.writeFileSync(envFile, "REDIS_URL=redis://127.0.0.1:6379")
    const made = ensureDemoSecret(envFile)
    expect(fs.readFileSync(envFile, "utf8")).toMatch(/^REDIS_URL=redis:\/\/127\.0\.0\.1:6379\n#.*\nCATALOG_SYNC_ENCRYPTION_KEY=/)
    fs.writeFileSync(envFile, `CATALOG_SYNC_ENCRYPTION_KEY="${made.secret}"\n`)
    expect(ensureDemoSecret(envFile)).toEqual({ secret: made.secret, created: false })
  })

  it("is what demo/medusa-config.ts uses: no fallback value there", () => {
    const config = fs.readFileSync(path.resolve(__dirname, "../../../demo/medusa-config.ts"), "utf8")
    expect(config).toMatch(/encryptionKey: process\.env\.CATALOG_SYNC_ENCRYPTION_KEY,/)
    expect(fs.readFileSync(path.resolve(__dirname, "../../../scripts/demo.sh"), "utf8")).toContain("scripts/demo-secret.ts")
  })
})
