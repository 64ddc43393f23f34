// Remembers validators (ETag / Last-Modified) and bodies of the reference endpoints so a
// repeated call sends If-None-Match / If-Modified-Since and a 304 returns the cached body.
import { headerValue, type HeaderBag } from "./rate-limiter"

export interface Validators {
  etag?: string
  lastModified?: string
}

export interface CachedReference<T> extends Validators {
  data: T
}

export class ConditionalCache {
  #entries = new Map<string, CachedReference<unknown>>()

  get<T>(path: string): CachedReference<T> | undefined {
    return this.#entries.get(path) as CachedReference<T> | undefined
  }

  set<T>(path: string, entry: CachedReference<T>): void {
    this.#entries.set(path, entry)
  }

  clear(): void {
    this.#entries.clear()
  }
}

export function conditionalHeaders(validators: Validators | undefined): Record<string, string> {
  const headers: Record<string, string> = {}
  if (validators?.etag) headers["if-none-match"] = validators.etag
  if (validators?.lastModified) headers["if-modified-since"] = validators.lastModified
  return headers
}

export function validatorsFrom(headers: HeaderBag): Validators {
  const etag = headerValue(headers, "etag")
  const lastModified = headerValue(headers, "last-modified")
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) }
}
