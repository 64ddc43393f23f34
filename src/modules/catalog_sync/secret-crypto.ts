// The API key at rest: AES-256-GCM under a key derived from the configured encryption
// secret. Stored as "v1:<iv>:<tag>:<ciphertext>" (base64 parts). Nothing here logs. A key is
// named (settings row, Redis) by apiKeyId from the catalog client, keyed by the same secret.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto"
import { readEnvironment, type PluginEnvironment } from "../../config/environment"

const VERSION = "v1"
// A fixed salt is fine: the secret is a server-side key, not a user password, and the
// derivation only stretches it to 32 bytes; the per-message IV keeps ciphertexts unique.
const SALT = "medusa-catalog-sync:api-key:v1"
const derived = new Map<string, Buffer>()
const IV_BYTES = 12
const TAG_BYTES = 16
/** A shorter secret is refused: it would be guessable. */
export const MIN_ENCRYPTION_SECRET_LENGTH = 16

export class MissingEncryptionKeyError extends Error {
  constructor() {
    super(
      "No encryption key is configured for the catalog API key: set the plugin option encryptionKey or the CATALOG_SYNC_ENCRYPTION_KEY environment variable"
    )
    this.name = "MissingEncryptionKeyError"
  }
}

export class WeakEncryptionKeyError extends Error {
  constructor() {
    super(
      `The encryption key for the catalog API key is too short: use at least ${MIN_ENCRYPTION_SECRET_LENGTH} characters (plugin option encryptionKey or CATALOG_SYNC_ENCRYPTION_KEY)`
    )
    this.name = "WeakEncryptionKeyError"
  }
}

export class SecretDecryptError extends Error {
  constructor() {
    super("The saved catalog API key cannot be decrypted (was the encryption key changed?)")
    this.name = "SecretDecryptError"
  }
}

/** The configured encryption secret (the option, else CATALOG_SYNC_ENCRYPTION_KEY), or null when none is set. */
export function resolveEncryptionSecret(optionSecret: string | undefined, env: PluginEnvironment = readEnvironment()): string | null {
  const secret = optionSecret?.trim() || env.CATALOG_SYNC_ENCRYPTION_KEY
  return secret ? secret : null
}

/** Why this secret cannot encrypt the key (missing, too short), or null when it can. */
export function encryptionSecretProblem(secret: string | null): string | null {
  if (!secret) return new MissingEncryptionKeyError().message
  if (secret.length < MIN_ENCRYPTION_SECRET_LENGTH) return new WeakEncryptionKeyError().message
  return null
}

function keyFor(secret: string): Buffer {
  if (secret.length < MIN_ENCRYPTION_SECRET_LENGTH) throw new WeakEncryptionKeyError()
  let key = derived.get(secret)
  if (!key) {
    key = scryptSync(secret, SALT, 32)
    derived.set(secret, key)
  }
  return key
}

export function encryptSecret(plaintext: string, secret: string | null): string {
  if (!secret) throw new MissingEncryptionKeyError()
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", keyFor(secret), iv, { authTagLength: TAG_BYTES })
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  const tag = cipher.getAuthTag()
  return [VERSION, iv.toString("base64"), tag.toString("base64"), ciphertext.toString("base64")].join(":")
}

export function decryptSecret(stored: string, secret: string | null): string {
  if (!secret) throw new MissingEncryptionKeyError()
  const parts = stored.split(":")
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretDecryptError()
  const key = keyFor(secret)
  const iv = Buffer.from(parts[1], "base64")
  const tag = Buffer.from(parts[2], "base64")
  // A shorter tag would make a forgery easier; GCM would accept it unless told the length.
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretDecryptError()
  try {
    const ciphertext = parts[3]
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES })
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString("utf8")
  } catch {
    throw new SecretDecryptError()
  }
}

export function apiKeyLast4(apiKey: string): string {
  return apiKey.slice(-4)
}
