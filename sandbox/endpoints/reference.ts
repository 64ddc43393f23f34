// GET /v1/categories, /v1/brands, /v1/brand-models with conditional requests:
// strong ETag + Last-Modified; If-None-Match (preferred) or If-Modified-Since answer 304.

import { createHash } from "node:crypto"
import type { Catalog } from "../catalog"
import { stringifyJson } from "../json"
import { jsonReply, type Reply } from "../reply"
import type { RequestContext } from "./context"

export type ReferenceKind = "categories" | "brands" | "brand-models"

interface Document {
  version: number
  body: string
  etag: string
  lastModifiedMs: number
}

export class ReferenceDocuments {
  private readonly documents = new Map<ReferenceKind, Document>()

  constructor(
    private readonly catalog: Catalog,
    private readonly now: () => number
  ) {}

  get(kind: ReferenceKind): Document {
    const existing = this.documents.get(kind)
    const version = kind === "categories" ? this.catalog.categoryVersion : this.catalog.referenceVersion
    if (existing && existing.version === version) return existing
    const body = stringifyJson({ data: this.records(kind) })
    const etag = `"${createHash("sha1").update(body).digest("base64url")}"`
    if (existing && existing.etag === etag) {
      existing.version = version
      return existing
    }
    // Last-Modified has 1 s resolution: keep it strictly increasing so If-Modified-Since never hides a change.
    const nowSecond = Math.floor(this.now() / 1000) * 1000
    const lastModifiedMs = existing ? Math.max(nowSecond, existing.lastModifiedMs + 1000) : nowSecond
    const document = { version, body, etag, lastModifiedMs }
    this.documents.set(kind, document)
    return document
  }

  private records(kind: ReferenceKind): unknown[] {
    if (kind === "categories") {
      return this.catalog.reference.categories.map((c) => ({
        id: c.id,
        parent_id: c.parentId,
        name: c.nameUk,
        name_uk: c.nameUk,
        name_ru: c.nameRu,
        slug: c.slug,
      }))
    }
    if (kind === "brands") return this.catalog.brandsOnSale().map((b) => ({ id: b.id, name: b.name, slug: b.slug }))
    return this.catalog.brandModelsOnSale().map((m) => ({ id: m.id, brand_id: m.brandId, name: m.name, slug: m.slug }))
  }
}

export function referenceEndpoint(kind: ReferenceKind) {
  return (ctx: RequestContext): Reply => {
    const document = ctx.references.get(kind)
    const lastModified = new Date(document.lastModifiedMs).toUTCString()
    const headers = { ETag: document.etag, "Last-Modified": lastModified, "Cache-Control": "no-cache" }
    if (notModified(ctx, document.etag, document.lastModifiedMs)) return { status: 304, headers, body: null }
    return jsonReply(200, document.body, headers)
  }
}

function notModified(ctx: RequestContext, etag: string, lastModifiedMs: number): boolean {
  const ifNoneMatch = ctx.headers["if-none-match"]
  if (ifNoneMatch !== undefined) {
    // Weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored.
    const tags = ifNoneMatch.split(",").map((t) => t.trim().replace(/^W\//, ""))
    return tags.includes("*") || tags.includes(etag)
  }
  const ifModifiedSince = ctx.headers["if-modified-since"]
  if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince)
    return !Number.isNaN(since) && lastModifiedMs <= since
  }
  return false
}
