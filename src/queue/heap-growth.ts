// Opt-in (syncHeapGrowthPercent, default 0): holds V8's old-generation growth to a set factor
// while this process syncs, and gives V8 its own policy back afterwards.
//
// Under Node's defaults V8 lets the old generation grow to up to four times the heap the last
// full collection left before it runs the next one, and it picks four whenever the program
// promotes objects quickly, which a sync's page work does. The app's live heap stays about the
// same at any catalog size, but a long sync reaches that fourfold limit again and again while a
// short one ends below it, so peak RSS grows with the catalog although nothing is kept per
// product. Held to 2×, peak RSS stays about the same at any size (measured figures:
// docs/node-and-memory.md). A plugin does not retune the GC of the shop's whole process unless
// the shop's owner asks, hence off by default.
//
// V8 reads --heap-growing-percent each time it sets the next limit, and the flag replaces the
// factor V8 would have chosen (also its lower ones: near the heap limit, or when the program
// allocates slowly); setting it at run time takes effect at the next full collection (a child
// process with --trace-gc-verbose shows it: src/queue/__tests__/heap-growth.spec.ts). The flag is
// the whole process's, so it is held only while a run or a page write is in progress here, plus
// a short linger so the gaps between a run's pages do not flip it; never when whoever started
// the process chose a growth policy on its command line, and never where V8's own largest factor
// is no more than the one asked for (for 100: an old generation under 2 GB).
import { getHeapStatistics, setFlagsFromString } from "node:v8"

/**
 * The factor a sync holds V8's heap growth to by default, as V8's flag spells it: 0 leaves V8's
 * own policy alone. A plugin does not retune the GC of the shop's whole process unless its owner
 * asks (syncHeapGrowthPercent, e.g. 100 = 2×; docs/node-and-memory.md).
 */
export const DEFAULT_SYNC_HEAP_GROWTH_PERCENT = 0
/** How long after the last hold ends the factor stays held (pages of one run come seconds apart). */
export const HEAP_GROWTH_LINGER_MS = 30_000

/**
 * Process flags by which an app's owner chose the heap growth policy themselves (Node accepts
 * them on the command line only, not in NODE_OPTIONS). A flag set at run time by the app's own
 * code cannot be seen, and a sync's hold replaces it.
 */
const OWNER_GROWTH_FLAGS = ["--heap-growing-percent", "--heap_growing_percent", "--optimize-for-size", "--optimize_for_size"]

const MB = 1024 * 1024

/**
 * V8's largest semi-space on 64-bit Node unless --max-semi-space-size says otherwise: 16 MB up
 * to V8 12 (Node 20 and 22), 64 MB from V8 13 (Node 24: its heap size limit is the old
 * generation's plus 192 MB, three semi-spaces, where Node 22's is plus 48 MB).
 */
export function defaultSemiSpaceMb(v8Version: string = process.versions.v8): number {
  return Number(v8Version.split(".")[0]) >= 13 ? 64 : 16
}

/** The semi-space size the process's options set (--max-semi-space-size, in MB), else V8's default. */
export function semiSpaceMbOf(processOptions: readonly string[], v8Version: string = process.versions.v8): number {
  let mb = defaultSemiSpaceMb(v8Version)
  processOptions.forEach((option, i) => {
    const m = /^--max[-_]semi[-_]space[-_]size(?:=(\d+))?$/.exec(option)
    const value = m ? (m[1] ?? processOptions[i + 1]) : undefined
    if (value && /^\d+$/.test(value)) mb = Number(value)
  })
  return mb
}

/**
 * The largest factor V8's own policy may grow the old generation by, for this heap size limit
 * (MemoryController::MaxGrowingFactor, 64-bit without pointer compression; the same rule in the
 * V8 of Node 20, 22 and 24): 4 when the old generation may reach 2 GB, else from 1.3 at 256 MB
 * up to 2 in proportion. A process given a smaller heap (its own --max-old-space-size, or a
 * small machine's default) already grows by 2 at most. The heap size limit counts the young
 * generation too: three semi-spaces, whose size depends on V8's version (semiSpaceMbOf).
 */
export function v8LargestGrowthFactor(heapSizeLimitBytes: number = getHeapStatistics().heap_size_limit, semiSpaceMb: number = defaultSemiSpaceMb()): number {
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

/**
 * The flag's state: how many holds are open, whether the flag is set, the linger. There is one
 * per process (the flag is the process's), shared by every SyncHeapGrowth of the process, so
 * two copies of the runtime (two app containers in one process) count their holds together and
 * neither gives V8's policy back while the other syncs.
 */
export class HeapGrowthFlag {
  readonly #lingerMs: number
  readonly #setFlags: (flags: string) => void
  #holds = 0
  #held = false
  #lingering: NodeJS.Timeout | null = null

  /** setFlags is V8's own unless a test passes a recorder. */
  constructor(input: { lingerMs?: number; setFlags?: (flags: string) => void } = {}) {
    this.#lingerMs = input.lingerMs ?? HEAP_GROWTH_LINGER_MS
    this.#setFlags = input.setFlags ?? setFlagsFromString
  }

  /** Whether the flag is set now (a hold is open, or the last ended less than the linger ago). */
  get held(): boolean {
    return this.#held
  }

  /** Opens a hold; the first sets the flag (while several are open, the first one's percent applies). */
  acquire(percent: number): void {
    this.#holds++
    this.#stopLingering()
    if (!this.#held) {
      this.#setFlags(`--heap-growing-percent=${percent}`)
      this.#held = true
    }
  }

  /** Closes a hold; after the last, V8's policy comes back once the linger has passed. */
  release(): void {
    this.#holds = Math.max(0, this.#holds - 1)
    if (this.#holds > 0) return
    this.#stopLingering()
    this.#lingering = setTimeout(() => {
      this.#lingering = null
      this.#restore()
    }, this.#lingerMs)
    this.#lingering.unref()
  }

  /** Gives V8's policy back at once when no hold is open (an owner is closing). */
  restoreIfIdle(): void {
    if (this.#holds > 0) return
    this.#stopLingering()
    this.#restore()
  }

  #stopLingering(): void {
    if (this.#lingering) clearTimeout(this.#lingering)
    this.#lingering = null
  }

  #restore(): void {
    if (!this.#held) return
    // 0 is V8's default: the factor computed from the collector's and the program's speeds.
    this.#setFlags("--heap-growing-percent=0")
    this.#held = false
  }
}

const PROCESS_WIDE = Symbol.for("medusa-catalog-sync.heap-growth-flag")

/** The process's one HeapGrowthFlag. */
export function processHeapGrowthFlag(): HeapGrowthFlag {
  const slot = globalThis as { [PROCESS_WIDE]?: HeapGrowthFlag }
  return (slot[PROCESS_WIDE] ??= new HeapGrowthFlag())
}

/** One owner's holds (a runtime's worker and page writer) on the process's flag. */
export class SyncHeapGrowth {
  readonly #percent: number | null
  readonly #flag: HeapGrowthFlag
  #open = 0
  #closed = false

  /** percent: the growth this owner's syncs hold V8 to (100: 2×); null leaves V8's policy alone. */
  constructor(input: { percent: number | null; flag?: HeapGrowthFlag }) {
    this.#percent = input.percent && input.percent > 0 ? Math.round(input.percent) : null
    this.#flag = input.flag ?? processHeapGrowthFlag()
  }

  /** Whether the process's flag is set now (by this owner's holds or another's). */
  get held(): boolean {
    return this.#flag.held
  }

  /** Holds the factor until the returned release is called (a second call does nothing). */
  hold(): () => void {
    if (this.#percent === null || this.#closed) return () => undefined
    this.#flag.acquire(this.#percent)
    this.#open++
    let released = false
    return () => {
      if (released || this.#closed) return
      released = true
      this.#open--
      this.#flag.release()
    }
  }

  /**
   * The owner is stopping: its open holds end, and V8's policy comes back at once unless
   * another owner holds it; later holds of this owner do nothing.
   */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    for (; this.#open > 0; this.#open--) this.#flag.release()
    this.#flag.restoreIfIdle()
  }
}
