// Whether an encryption secret is fit to protect the saved API key.
import { PUBLISHED_EXAMPLE_SECRETS } from "./published-secrets"

/** The least length of an encryption secret a sync starts with. */
export const MIN_STRONG_SECRET_LENGTH = 32

const published = new Set(PUBLISHED_EXAMPLE_SECRETS.map((s) => s.trim()))

/**
 * Why this encryption secret is unfit (too short, or an example this plugin's repository
 * published: an old demo default, a docs example, a test value), or null when it is fit.
 */
export function encryptionSecretWeakness(secret: string): string | null {
  if (secret.length < MIN_STRONG_SECRET_LENGTH) {
    return `The encryption secret (plugin option encryptionKey or CATALOG_SYNC_ENCRYPTION_KEY) is shorter than ${MIN_STRONG_SECRET_LENGTH} characters: generate a random one, e.g. with \`openssl rand -base64 48\``
  }
  if (published.has(secret.trim())) {
    return "The encryption secret (plugin option encryptionKey or CATALOG_SYNC_ENCRYPTION_KEY) is a value published with this plugin (an example, demo or test value): generate a random one, e.g. with `openssl rand -base64 48`"
  }
  return null
}
