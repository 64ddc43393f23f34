// The full collections V8 printed (--trace-gc, set by app-gc-trace.cjs) in an app's log: the heap
// when each began and what it left. What a collection leaves is the live heap, the reading that
// shows whether anything accumulates with the catalog; when the next one begins shows V8's limit
// (a multiple of that live heap), the sawtooth RSS follows.
import path from "node:path"

export const GC_TRACE_HOOK = path.join(__dirname, "app-gc-trace.cjs")

export interface FullCollection {
  /** Heap in use when the collection began, MB. */
  beforeMb: number
  /** Heap in use after it: the live heap, MB. */
  afterMb: number
}

// "[8410:0x32d8fca0]    37011 ms: Mark-Compact 872.2 (916.8) -> 223.0 (582.7) MB, 26.60 / 0.03 ms …"
// ("Mark-Compact (reduce)" when V8 shrinks the heap): used (committed) before -> after.
const FULL_COLLECTION = /Mark-Compact(?: \(reduce\))? ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/g

export function fullCollectionsIn(logText: string): FullCollection[] {
  return [...logText.matchAll(FULL_COLLECTION)].map((m) => ({ beforeMb: Number(m[1]), afterMb: Number(m[2]) }))
}

export interface CollectionSummary {
  count: number
  /** Least and most live heap after a full collection, MB (null without one). */
  liveMb: [number, number] | null
  /** Each collection's starting heap over the live heap the one before it left (null with fewer than two). */
  startOverLive: [number, number] | null
}

export function summarizeCollections(collections: FullCollection[]): CollectionSummary {
  if (!collections.length) return { count: 0, liveMb: null, startOverLive: null }
  const live = collections.map((c) => c.afterMb)
  const ratios = collections.slice(1).map((c, i) => c.beforeMb / collections[i].afterMb)
  return {
    count: collections.length,
    liveMb: [Math.min(...live), Math.max(...live)],
    startOverLive: ratios.length ? [Math.min(...ratios), Math.max(...ratios)] : null,
  }
}

export function describeCollections(s: CollectionSummary): string {
  if (!s.count) return "no full collection during the sync"
  const live = s.liveMb![0] === s.liveMb![1] ? `${s.liveMb![0].toFixed(0)} MB` : `${s.liveMb![0].toFixed(0)} to ${s.liveMb![1].toFixed(0)} MB`
  const limit = s.startOverLive ? `; each began at ${s.startOverLive[0].toFixed(1)} to ${s.startOverLive[1].toFixed(1)} times the heap the one before left` : ""
  return `${s.count} full collection${s.count === 1 ? "" : "s"} during the sync, the heap after ${s.count === 1 ? "it" : "each"} ${live}${limit}`
}
