import {
  MissingEncryptionKeyError,
  SecretDecryptError,
  apiKeyHash,
  decryptSecret,
  encryptSecret,
  resolveEncryptionSecret,
} from "../secret-crypto"

describe("secret crypto (AES-256-GCM)", () => {
  const key = "sk_live_0123456789abcdef"

  it("round-trips and never stores the plaintext", () => {
    const stored = encryptSecret(key, "secret-one")
    expect(stored.startsWith("v1:")).toBe(true)
    expect(stored.split(":")).toHaveLength(4)
    expect(stored).not.toContain(key)
    expect(Buffer.from(stored.split(":")[3], "base64").toString("utf8")).not.toContain(key)
    expect(decryptSecret(stored, "secret-one")).toBe(key)
  })

  it("uses a fresh IV every time", () => {
    expect(encryptSecret(key, "s")).not.toBe(encryptSecret(key, "s"))
  })

  it("refuses a wrong secret and a tampered ciphertext", () => {
    const stored = encryptSecret(key, "secret-one")
    expect(() => decryptSecret(stored, "secret-two")).toThrow(SecretDecryptError)
    const parts = stored.split(":")
    const ct = Buffer.from(parts[3], "base64")
    ct[0] ^= 1
    parts[3] = ct.toString("base64")
    expect(() => decryptSecret(parts.join(":"), "secret-one")).toThrow(SecretDecryptError)
    expect(() => decryptSecret("garbage", "secret-one")).toThrow(SecretDecryptError)
  })

  it("refuses to encrypt without a secret", () => {
    expect(() => encryptSecret(key, null)).toThrow(MissingEncryptionKeyError)
  })

  it("resolves the secret from the option, then the environment", () => {
    const before = process.env.CATALOG_SYNC_ENCRYPTION_KEY
    try {
      delete process.env.CATALOG_SYNC_ENCRYPTION_KEY
      expect(resolveEncryptionSecret(undefined)).toBeNull()
      expect(resolveEncryptionSecret("  ")).toBeNull()
      process.env.CATALOG_SYNC_ENCRYPTION_KEY = "from-env"
      expect(resolveEncryptionSecret(undefined)).toBe("from-env")
      expect(resolveEncryptionSecret("from-option")).toBe("from-option")
    } finally {
      if (before === undefined) delete process.env.CATALOG_SYNC_ENCRYPTION_KEY
      else process.env.CATALOG_SYNC_ENCRYPTION_KEY = before
    }
  })

  it("hashes a key to a stable 16-hex name that does not reveal it", () => {
    expect(apiKeyHash(key)).toMatch(/^[0-9a-f]{16}$/)
    expect(apiKeyHash(key)).toBe(apiKeyHash(key))
    expect(apiKeyHash(key)).not.toBe(apiKeyHash(key + "x"))
  })
})
