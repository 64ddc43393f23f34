// The one name for an API key outside the key itself (Redis key names, the settings row,
// caches). With a server-side secret it is an HMAC, so a leaked name cannot be checked
// against guessed keys offline; without one, a plain SHA-256.
import { createHash, createHmac } from "node:crypto"

const CONTEXT = "medusa-catalog-sync:key-id:"

/** 32 hex chars; stable for a key and secret, reveals neither. */
export function apiKeyId(apiKey: string, secret?: string | null): string {
  const digest = secret ? createHmac("sha256", secret) : createHash("sha256")
  return digest.update(CONTEXT).update(apiKey).digest("hex").slice(0, 32)
}
