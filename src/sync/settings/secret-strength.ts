// Whether an encryption secret is fit to protect the saved API key.
import { createHash } from "node:crypto"
import { KNOWN_SECRET_DIGESTS } from "../known-secrets"

/** The least length of an encryption secret a sync starts with. */
export const MIN_STRONG_SECRET_LENGTH = 32

/** How a secret is looked up in KNOWN_SECRET_DIGESTS (16 hex chars of its SHA-256). */
export function secretDigest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex").slice(0, 16)
}

let knownDigests: Set<string> | null = null

/**
 * Why this encryption secret is unfit (too short, or a value found in this plugin's
 * repository: an old demo default, an example, a test value), or null when it is fit.
 */
export function encryptionSecretWeakness(secret: string): string | null {
  if (secret.length < MIN_STRONG_SECRET_LENGTH) {
    return `The encryption secret (plugin option encryptionKey or CATALOG_SYNC_ENCRYPTION_KEY) is shorter than ${MIN_STRONG_SECRET_LENGTH} characters: generate a random one, e.g. with \`openssl rand -base64 48\``
  }
  knownDigests ??= new Set(KNOWN_SECRET_DIGESTS)
  if (knownDigests.has(secretDigest(secret))) {
    return "The encryption secret (plugin option encryptionKey or CATALOG_SYNC_ENCRYPTION_KEY) is a value published with this plugin (an example, demo or test value): generate a random one, e.g. with `openssl rand -base64 48`"
  }
  return null
}
