import { createHmac } from "node:crypto"
import { apiKeyId } from "../../../catalog-client"
import {
  MissingEncryptionKeyError,
  SecretDecryptError,
  WeakEncryptionKeyError,
  encryptionSecretProblem,
  decryptSecret,
  encryptSecret,
  resolveEncryptionSecret,
} from "../secret-crypto"

const SECRET = "a-server-side-secret-0123"

describe("secret crypto (AES-256-GCM)", () => {
  const key = "sk_live_0123456789abcdef"

  it("round-trips and never stores the plaintext", () => {
    const stored = encryptSecret(key, "secret-one-0123456789")
    expect(stored.startsWith("v1:")).toBe(true)
    expect(stored.split(":")).toHaveLength(4)
    expect(stored).not.toContain(key)
    expect(Buffer.from(stored.split(":")[3], "base64").toString("utf8")).not.toContain(key)
    expect(decryptSecret(stored, "secret-one-0123456789")).toBe(key)
  })

  it("uses a fresh IV every time", () => {
    expect(encryptSecret(key, SECRET)).not.toBe(encryptSecret(key, SECRET))
  })

  it("refuses a wrong secret and a tampered ciphertext", () => {
    const stored = encryptSecret(key, "secret-one-0123456789")
    expect(() => decryptSecret(stored, "secret-two-0123456789")).toThrow(SecretDecryptError)
    const parts = stored.split(":")
    const ct = Buffer.from(parts[3], "base64")
    ct[0] ^= 1
    parts[3] = ct.toString("base64")
    expect(() => decryptSecret(parts.join(":"), "secret-one-0123456789")).toThrow(SecretDecryptError)
    expect(() => decryptSecret("garbage", "secret-one-0123456789")).toThrow(SecretDecryptError)
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

  it("refuses a truncated tag or a wrong-size IV (GCM would accept a short tag otherwise)", () => {
    const stored = encryptSecret(key, SECRET)
    const parts = stored.split(":")
    const shortTag = [...parts]
    shortTag[2] = Buffer.from(parts[2], "base64").subarray(0, 12).toString("base64")
    expect(() => decryptSecret(shortTag.join(":"), SECRET)).toThrow(SecretDecryptError)
    const longIv = [...parts]
    longIv[1] = Buffer.concat([Buffer.from(parts[1], "base64"), Buffer.alloc(4)]).toString("base64")
    expect(() => decryptSecret(longIv.join(":"), SECRET)).toThrow(SecretDecryptError)
    expect(decryptSecret(stored, SECRET)).toBe(key)
  })

  it("refuses an encryption secret shorter than 16 characters, with a clear message", () => {
    expect(() => encryptSecret(key, "short-secret")).toThrow(WeakEncryptionKeyError)
    expect(() => encryptSecret(key, "short-secret")).toThrow(/at least 16 characters/)
    expect(encryptionSecretProblem("short-secret")).toMatch(/at least 16 characters/)
    expect(encryptionSecretProblem(null)).toMatch(/No encryption key/)
    expect(encryptionSecretProblem(SECRET)).toBeNull()
  })

  it("names a key by an HMAC under the secret (one function, shared with the catalog client)", () => {
    const id = apiKeyId(key, SECRET)
    expect(id).toMatch(/^[0-9a-f]{32}$/)
    expect(id).toBe(apiKeyId(key, SECRET))
    expect(id).toBe(createHmac("sha256", SECRET).update("medusa-catalog-sync:key-id:").update(key).digest("hex").slice(0, 32))
    expect(id).not.toBe(apiKeyId(key, "another-secret-0123456"))
    expect(id).not.toBe(apiKeyId(key + "x", SECRET))
    expect(apiKeyId(key)).toMatch(/^[0-9a-f]{32}$/)
    expect(apiKeyId(key)).not.toBe(id)
  })
})
