// The API key at rest: AES-256-GCM under a key derived from the configured encryption
// secret. Stored as "v1:<iv>:<tag>:<ciphertext>" (base64 parts). Nothing here logs.
import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from "node:crypto"

const VERSION = "v1"
// A fixed salt is fine: the secret is a server-side key, not a user password, and the
// derivation only stretches it to 32 bytes; the per-message IV keeps ciphertexts unique.
const SALT = "medusa-catalog-sync:api-key:v1"
const derived = new Map<string, Buffer>()

export class MissingEncryptionKeyError extends Error {
  constructor() {
    super(
      "No encryption key is configured for the catalog API key: set the plugin option encryptionKey or the CATALOG_SYNC_ENCRYPTION_KEY environment variable"
    )
    this.name = "MissingEncryptionKeyError"
  }
}

export class SecretDecryptError extends Error {
  constructor() {
    super("The saved catalog API key cannot be decrypted (was the encryption key changed?)")
    this.name = "SecretDecryptError"
  }
}

/** The configured encryption secret, or null when none is set. */
export function resolveEncryptionSecret(optionSecret: string | undefined): string | null {
  const secret = optionSecret?.trim() || process.env.CATALOG_SYNC_ENCRYPTION_KEY?.trim()
  return secret ? secret : null
}

function keyFor(secret: string): Buffer {
  let key = derived.get(secret)
  if (!key) {
    key = scryptSync(secret, SALT, 32)
    derived.set(secret, key)
  }
  return key
}

export function encryptSecret(plaintext: string, secret: string | null): string {
  if (!secret) throw new MissingEncryptionKeyError()
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", keyFor(secret), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  const tag = cipher.getAuthTag()
  return [VERSION, iv.toString("base64"), tag.toString("base64"), ciphertext.toString("base64")].join(":")
}

export function decryptSecret(stored: string, secret: string | null): string {
  if (!secret) throw new MissingEncryptionKeyError()
  const parts = stored.split(":")
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretDecryptError()
  try {
    const [, iv, tag, ciphertext] = parts
    const decipher = createDecipheriv("aes-256-gcm", keyFor(secret), Buffer.from(iv, "base64"))
    decipher.setAuthTag(Buffer.from(tag, "base64"))
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString("utf8")
  } catch {
    throw new SecretDecryptError()
  }
}

/** Names a key without revealing it (Redis key names, change detection): 16 hex chars. */
export function apiKeyHash(apiKey: string): string {
  return createHash("sha256").update("medusa-catalog-sync:key:").update(apiKey).digest("hex").slice(0, 16)
}

export function apiKeyLast4(apiKey: string): string {
  return apiKey.slice(-4)
}
