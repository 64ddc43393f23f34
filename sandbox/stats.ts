// Counters served by the control API's GET /stats.

import type { FaultKind } from "./faults"

export class Stats {
  requests = 0
  byStatus: Record<string, number> = {}
  rateLimited = { per_minute: 0, concurrency: 0, daily_quota: 0 }
  faults: Partial<Record<FaultKind, number>> = {}
  notModified = 0
  images = 0
  /** Image requests answered 503 because the control API made their path fail. */
  imageFailures = 0
  /** Pages of the full export served (GET /v1/products/changes in export mode). */
  exportPages = 0
  /** Requests per API path (images under one key), to tell which listings a client used. */
  byPath: Record<string, number> = {}

  countPath(path: string): void {
    const key = path.startsWith("/images/") ? "/images" : path
    this.byPath[key] = (this.byPath[key] ?? 0) + 1
  }

  countStatus(status: number): void {
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1
  }

  countFault(kind: FaultKind): void {
    this.faults[kind] = (this.faults[kind] ?? 0) + 1
  }

  toJSON() {
    return {
      requests: this.requests,
      by_status: this.byStatus,
      rate_limited: { ...this.rateLimited, total: this.rateLimited.per_minute + this.rateLimited.concurrency + this.rateLimited.daily_quota },
      faults: { ...this.faults, total: Object.values(this.faults).reduce((a, b) => a + (b ?? 0), 0) },
      not_modified: this.notModified,
      images: this.images,
      image_failures: this.imageFailures,
      export_pages: this.exportPages,
      by_path: { ...this.byPath },
    }
  }
}
