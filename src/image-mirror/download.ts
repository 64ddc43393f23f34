// Downloads one image, bounded: guarded addresses (the catalog client's policy, so a hostile
// card cannot make the shop fetch internal addresses), a size limit enforced while streaming,
// image content types whose bytes agree, a total timeout and a few redirects, each target
// checked again. Its own undici agent and concurrency limit: never the catalog API's.
import { createHash } from "node:crypto"
import { Agent, request, type Dispatcher } from "undici"
import { guardedConnector, type AddressPolicy, type LookupFunction } from "../catalog-client/address-guard"
import { acceptImage, isAcceptedImageHeader, mediaType, type RasterType } from "./image-type"
import { concurrencyLimit, type ConcurrencyLimit } from "./limiter"

export interface ImageDownloadOptions {
  /** The same policy as the catalog client (allowPrivateNetworks). */
  addressPolicy: AddressPolicy
  /** Largest image accepted, bytes. Default 10 MB. */
  maxBytes?: number
  /** Whole download, connect to last byte. Default 30 s. */
  timeoutMs?: number
  /** Redirects followed (each target is checked by the guard again). Default 3. */
  maxRedirects?: number
  /** Downloads at once. Default 4. */
  concurrency?: number
  userAgent?: string
  /** For tests: a DNS lookup. */
  lookup?: LookupFunction
  /** For tests: a dispatcher instead of the guarded agent. */
  dispatcher?: Dispatcher
}

export type DownloadOutcome = { ok: true; url: string; bytes: Buffer; type: RasterType; hash: string } | { ok: false; url: string; reason: string }

export interface ImageDownloader {
  download(url: string): Promise<DownloadOutcome>
  readonly limit: ConcurrencyLimit
  close(): Promise<void>
}

export const DEFAULT_IMAGE_LIMITS = { maxBytes: 10 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 3, concurrency: 4 }

const REDIRECTS = new Set([301, 302, 303, 307, 308])

class Refused extends Error {}

export function createImageDownloader(options: ImageDownloadOptions): ImageDownloader {
  const maxBytes = options.maxBytes ?? DEFAULT_IMAGE_LIMITS.maxBytes
  const timeoutMs = options.timeoutMs ?? DEFAULT_IMAGE_LIMITS.timeoutMs
  const maxRedirects = options.maxRedirects ?? DEFAULT_IMAGE_LIMITS.maxRedirects
  const limit = concurrencyLimit(options.concurrency ?? DEFAULT_IMAGE_LIMITS.concurrency)
  const ownsDispatcher = !options.dispatcher
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connect: guardedConnector(options.addressPolicy, { timeoutMs: Math.min(10_000, timeoutMs), lookup: options.lookup }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
      connections: options.concurrency ?? DEFAULT_IMAGE_LIMITS.concurrency,
    })

  async function fetchOnce(url: string, signal: AbortSignal): Promise<DownloadOutcome> {
    let current = url
    for (let hop = 0; ; hop++) {
      const parsed = new URL(current)
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Refused(`not an http(s) URL: ${parsed.protocol}`)
      const res = await request(current, {
        dispatcher,
        method: "GET",
        signal,
        headers: { "user-agent": options.userAgent ?? "medusa-catalog-sync image mirror", accept: "image/*" },
      })
      if (REDIRECTS.has(res.statusCode)) {
        await res.body.dump()
        const location = res.headers.location
        if (typeof location !== "string" || location === "") throw new Refused(`HTTP ${res.statusCode} without a location`)
        if (hop >= maxRedirects) throw new Refused(`more than ${maxRedirects} redirects`)
        current = new URL(location, current).href
        continue
      }
      if (res.statusCode < 200 || res.statusCode > 299) {
        await res.body.dump()
        throw new Refused(`HTTP ${res.statusCode}`)
      }
      const contentType = headerText(res.headers["content-type"])
      if (!isAcceptedImageHeader(contentType)) {
        await res.body.dump()
        throw new Refused(`content-type ${mediaType(contentType) || "missing"} is not an image`)
      }
      const declared = Number(headerText(res.headers["content-length"]) || NaN)
      if (Number.isFinite(declared) && declared > maxBytes) {
        abandon(res.body)
        throw new Refused(`larger than ${maxBytes} bytes (content-length ${declared})`)
      }
      const hash = createHash("sha256")
      const chunks: Buffer[] = []
      let total = 0
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        total += chunk.length
        if (total > maxBytes) {
          abandon(res.body)
          throw new Refused(`larger than ${maxBytes} bytes`)
        }
        hash.update(chunk)
        chunks.push(chunk)
      }
      const bytes = Buffer.concat(chunks, total)
      const accepted = acceptImage(contentType, bytes.subarray(0, 16))
      if ("refused" in accepted) throw new Refused(accepted.refused)
      return { ok: true, url, bytes, type: accepted.type, hash: hash.digest("hex") }
    }
  }

  return {
    limit,
    download(url) {
      return limit.run(async () => {
        const signal = AbortSignal.timeout(timeoutMs)
        try {
          return await fetchOnce(url, signal)
        } catch (error: any) {
          const reason =
            error instanceof Refused
              ? error.message
              : signal.aborted
                ? `timed out after ${timeoutMs} ms`
                : `${error?.code ? `${error.code}: ` : ""}${error?.message ?? String(error)}`
          return { ok: false, url, reason: reason.slice(0, 500) }
        }
      })
    },
    async close() {
      if (ownsDispatcher) await dispatcher.close()
    },
  }
}

/** Stops reading a body; the abort it raises is expected, not an unhandled error. */
function abandon(body: Dispatcher.ResponseData["body"]): void {
  body.on("error", () => undefined)
  body.destroy()
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "")
}
