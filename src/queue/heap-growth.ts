// Holds V8's old-generation growth to a set factor while this process syncs, and gives V8 its
// own policy back afterwards.
//
// Under Node's defaults V8 lets the old generation grow to up to four times the heap the last
// full collection left before it runs the next one, and it picks four whenever the program
// promotes objects quickly, which a sync's page work does. The app's live heap stays about the
// same at any catalog size (about 220 MB in the memory bench), but a long sync reaches that
// fourfold limit again and again while a short one ends below it: 1,128 MB peak RSS at 50,000
// products against 768 MB at 5,000. With the factor held to 2 both peak near 670 MB, and the
// sync runs as fast (`npm run bench -- memory`).
//
// V8 reads --heap-growing-percent each time it sets the next limit, and the flag replaces the
// factor V8 would have chosen (also its lower ones: near the heap limit, or when the program
// allocates slowly); setting it at run time takes effect at the next full collection (a child
// process with --trace-gc-verbose shows it: src/queue/__tests__/heap-growth.spec.ts). The flag is
// the whole process's, so it is held only while a run or a page write is in progress here, plus
// a short linger so the gaps between a run's pages do not flip it; never when whoever started
// the process chose a growth policy on its command line, and never where V8's own largest factor
// is no more than the one asked for (a heap under 2 GB).
import { getHeapStatistics, setFlagsFromString } from "node:v8"

/** The factor a sync holds V8's heap growth to, as V8's flag spells it: 100 % growth = 2×. */
export const DEFAULT_SYNC_HEAP_GROWTH_PERCENT = 100
/** How long after the last hold ends the factor stays held (pages of one run come seconds apart). */
export const HEAP_GROWTH_LINGER_MS = 30_000

/**
 * Process flags by which an app's owner chose the heap growth policy themselves (Node accepts
 * them on the command line only, not in NODE_OPTIONS). A flag set at run time by the app's own
 * code cannot be seen, and a sync's hold replaces it.
 */
const OWNER_GROWTH_FLAGS = ["--heap-growing-percent", "--heap_growing_percent", "--optimize-for-size", "--optimize_for_size"]

const MB = 1024 * 1024
/** V8's largest semi-space on 64-bit Node unless --max-semi-space-size says otherwise. */
export const DEFAULT_SEMI_SPACE_MB = 16

/** The semi-space size the process's options set (--max-semi-space-size, in MB), else V8's default. */
export function semiSpaceMbOf(processOptions: readonly string[]): number {
  let mb = DEFAULT_SEMI_SPACE_MB
  for (const option of processOptions) {
    const m = /^--max[-_]semi[-_]space[-_]size=(\d+)$/.exec(option)
    if (m) mb = Number(m[1])
  }
  return mb
}

/**
 * The largest factor V8's own policy may grow the old generation by, for this heap size limit
 * (V8 11's MemoryController::MaxGrowingFactor, Node 20, 64-bit without pointer compression): 4
 * when the old generation may reach 2 GB, else from 1.3 at 256 MB up to 2 in proportion. A
 * process given a smaller heap (its own --max-old-space-size, or a small machine's default)
 * already grows by 2 at most. The heap size limit counts the young generation too: three
 * semi-spaces.
 */
export function v8LargestGrowthFactor(
  heapSizeLimitBytes: number = getHeapStatistics().heap_size_limit,
  semiSpaceMb: number = DEFAULT_SEMI_SPACE_MB
): number {
  const minSize = 256 * MB
  const maxSize = 2048 * MB
  const oldGeneration = Math.max(minSize, heapSizeLimitBytes - 3 * semiSpaceMb * MB)
  if (oldGeneration >= maxSize) return 4
  return 1.3 + ((oldGeneration - minSize) * (2 - 1.3)) / (maxSize - minSize)
}

/** The flag of the process's own options that chose a heap growth policy, or null when none did. */
export function ownerHeapGrowthFlag(processOptions: readonly string[]): string | null {
  for (const option of processOptions) {
    const name = option.split("=")[0]
    if (OWNER_GROWTH_FLAGS.includes(name)) return option
  }
  return null
}

const PROCESS_WIDE = Symbol.for("medusa-catalog-sync.sync-heap-growth")

/**
 * The process's one hold on V8's flag: the flag is the process's, so two copies of the runtime
 * (two app containers in one process) must count their holds together, or one would give V8's
 * policy back while the other syncs. The first caller's percent applies.
 */
export function processHeapGrowth(percent: number | null): SyncHeapGrowth {
  const slot = globalThis as { [PROCESS_WIDE]?: SyncHeapGrowth }
  const existing = slot[PROCESS_WIDE]
  if (existing && !existing.closed) return existing
  return (slot[PROCESS_WIDE] = new SyncHeapGrowth({ percent }))
}

export class SyncHeapGrowth {
  readonly #percent: number | null
  readonly #lingerMs: number
  readonly #setFlags: (flags: string) => void
  #holds = 0
  #held = false
  #lingering: NodeJS.Timeout | null = null
  #closed = false

  /**
   * percent: the growth a sync holds V8 to (100: 2×); null leaves V8's policy alone.
   * setFlags is V8's own unless a test passes a recorder.
   */
  constructor(input: { percent: number | null; lingerMs?: number; setFlags?: (flags: string) => void }) {
    this.#percent = input.percent && input.percent > 0 ? Math.round(input.percent) : null
    this.#lingerMs = input.lingerMs ?? HEAP_GROWTH_LINGER_MS
    this.#setFlags = input.setFlags ?? setFlagsFromString
  }

  get closed(): boolean {
    return this.#closed
  }

  /** Whether the factor is held now (a hold is open, or one ended less than the linger ago). */
  get held(): boolean {
    return this.#held
  }

  /** Holds the factor until the returned release is called (a second call does nothing). */
  hold(): () => void {
    if (this.#percent === null || this.#closed) return () => undefined
    this.#holds++
    if (this.#lingering) {
      clearTimeout(this.#lingering)
      this.#lingering = null
    }
    if (!this.#held) {
      this.#setFlags(`--heap-growing-percent=${this.#percent}`)
      this.#held = true
    }
    let released = false
    return () => {
      if (released) return
      released = true
      this.#holds--
      if (this.#holds > 0 || this.#closed) return
      this.#lingering = setTimeout(() => {
        this.#lingering = null
        this.#restore()
      }, this.#lingerMs)
      this.#lingering.unref()
    }
  }

  /** Gives V8 its own policy back now (the app is stopping). */
  close(): void {
    this.#closed = true
    if (this.#lingering) clearTimeout(this.#lingering)
    this.#lingering = null
    this.#restore()
  }

  #restore(): void {
    if (!this.#held) return
    // 0 is V8's default: the factor computed from the collector's and the program's speeds.
    this.#setFlags("--heap-growing-percent=0")
    this.#held = false
  }
}
