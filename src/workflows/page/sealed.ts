// Large workflow data travels sealed: as one string.
//
// Why: Medusa's workflow engine copies workflow data each time a step or transform reads it
// (resolveValue: a JavaScript walk of the whole value, then parseStringifyIfNecessary), and an
// array inside an array is copied again at each level. A page's plan (cards → variants →
// offers) is large, each read copied it whole, and the page workflow read its plan,
// records and write inputs many times. A string is passed as it is. Sealed data is a
// string the engine can store and a queue can carry: JSON text (`seal`), or, for data read only
// by the page's own workflow in this process, a handle (`sealShared`, `sealForHandOver`): a
// short string naming the value, held in this process until the page is written. A handle
// costs no JSON.stringify (nor the text's garbage); text crosses processes (the page-writes queue, `sealedText`).
import { AsyncLocalStorage } from "node:async_hooks"

declare const sealedOf: unique symbol

/** A value of type T as its JSON text, or as a handle to it held in this process (see below). */
export type Sealed<T> = string & { readonly [sealedOf]: T }

export function seal<T>(value: T): Sealed<T> {
  return JSON.stringify(value) as Sealed<T>
}

/** The value, as a fresh copy the reader may change. */
export function unseal<T>(sealed: Sealed<T>): T {
  return JSON.parse(isHandle(sealed) ? JSON.stringify(heldValue(sealed)) : sealed) as T
}

/**
 * Handles: "\u0001sealed <n>", never JSON text (which cannot start with a control character).
 * A page's workflow runs in a seal scope (`withSealScope`, around the workflow's run): values
 * sealed with `sealShared` inside it are held until it ends, and only then dropped, whatever
 * other pages this process writes meanwhile. Outside a scope (the workflow run directly),
 * `sealShared` seals text, read through `peek`'s cache of parses.
 */
const HANDLE = "\u0001sealed "
let lastHandle = 0
const held = new Map<string, unknown>()
const scopes = new AsyncLocalStorage<Set<string>>()

function isHandle(sealed: string): boolean {
  return sealed.charCodeAt(0) === 1
}

function newHandle(): string {
  return `${HANDLE}${++lastHandle}`
}

function heldValue(handle: string): unknown {
  if (held.has(handle)) return held.get(handle)
  if (handed.has(handle)) return handed.get(handle)
  // A page's values live as long as its workflow's run: a read after it would be a bug here.
  throw new Error(`catalog sync: sealed value ${handle.slice(1)} was read after its page was written`)
}

/**
 * Runs a page's workflow in a seal scope: what it seals with `sealShared` is held as handles
 * until `run` settles, then dropped (and `peek`'s cache of parses with it: the next page reads
 * none of them).
 */
export async function withSealScope<T>(run: () => Promise<T>): Promise<T> {
  const mine = new Set<string>()
  try {
    return await scopes.run(mine, run)
  } finally {
    for (const handle of mine) held.delete(handle)
    releaseShared()
  }
}

/** Values held for open seal scopes (for tests: none once every page is written). */
export function heldCount(): number {
  return held.size
}

/**
 * Parsed values of sealed texts read more than once (a page's records by some seven transforms,
 * its writes by five, each write input by three), by their text, least recently read first. One
 * parse serves every reader, so the value is frozen: a reader that changed it would change it for
 * the others (strict mode throws instead). Bounded by text length (characters), to about one
 * page's shared reads: kept longer, they raised the app's peak RSS in a large first sync. A miss costs a parse and a
 * freeze; were a page's shared reads over the bound, each would be evicted before its next read.
 * Readers only read: nothing but review and the frozen values' TypeError enforces it. A text
 * sealed with `sealShared` is read as the sealer's own value, not a parse of it (so a property
 * set to undefined, or one object reached twice, reads as the sealer left it).
 */
const shared = new Map<string, unknown>()
let sharedChars = 0
export const SHARED_CHARS_MAX = 2 * 1024 * 1024

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value
  // Walked without Object.values (an array per object: a page freezes some 100,000 values).
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i])
  else for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) deepFreeze((value as Record<string, unknown>)[key])
  return Object.freeze(value)
}

function keepShared(text: string, value: unknown): void {
  shared.set(text, value)
  sharedChars += text.length
  for (const kept of shared.keys()) {
    if (sharedChars <= SHARED_CHARS_MAX) break
    shared.delete(kept)
    sharedChars -= kept.length
  }
}

/** The value, shared with every other reader of the same text and frozen: for readers that only read. */
export function peek<T>(sealed: Sealed<T>): T {
  if (isHandle(sealed)) return heldValue(sealed) as T
  // A parsed text is never undefined (JSON has none), so one lookup tells a hit.
  const hit = shared.get(sealed)
  if (hit !== undefined) {
    // Most recently read last.
    shared.delete(sealed)
    shared.set(sealed, hit)
    return hit as T
  }
  // Text over the bound is never kept: its reader gets its own value, not frozen.
  if (sealed.length > SHARED_CHARS_MAX) return JSON.parse(sealed) as T
  const value = deepFreeze(JSON.parse(sealed) as T)
  keepShared(sealed, value)
  return value
}

/**
 * Drops every shared value: called when a page's workflow ends, since the next page reads none
 * of them. Kept until evicted, a page's values were still alive at the next full collection,
 * and the heap's live size then sets how far it may grow before the one after (the peak RSS of
 * a long first sync). A page written beside this one (several page writers in one process)
 * only parses its own values again.
 */
export function releaseShared(): void {
  shared.clear()
  sharedChars = 0
}

/**
 * Seals a value that readers in this process read with `peek`: they get the value itself, frozen,
 * instead of a parse of its text. A page's data then lives once in the process rather than as
 * the sealer's value and a parsed copy (the copies outlived the young generation and were
 * promoted, and full collections followed). The
 * caller gives the value up: it is frozen, and with it whatever the caller still holds of it.
 */
export function sealShared<T>(value: T): Sealed<T> {
  const scope = scopes.getStore()
  if (scope) {
    const handle = newHandle()
    held.set(handle, deepFreeze(value))
    scope.add(handle)
    return handle as Sealed<T>
  }
  const text = seal(value)
  if (text.length <= SHARED_CHARS_MAX && !shared.has(text)) keepShared(text, deepFreeze(value))
  return text
}

/**
 * A page's plan, handed from the run that planned it to the page's workflow in this same
 * process: a handle to the plan itself, not its text (stringifying and parsing it cost time
 * every page, and garbage). The plan is frozen when it is handed over: the workflow
 * shares it with `peek`'s readers, and the sealer still holds it, so neither may change it. It
 * is held until its page is done (`forgetHandOver`); a page written by another instance gets
 * its text instead (`sealedText`). At most HANDED_MAX are held, oldest dropped first: a process
 * writes at most CATALOG_SYNC_PAGE_WRITERS pages at once (64 at most) and one it reads, so the bound is
 * never reached but by a leak.
 */
const handed = new Map<string, unknown>()
export const HANDED_MAX = 256

/** Items of a plan frozen between two turns of the event loop (freezeInSlices). */
export const FREEZE_SLICE_ITEMS = 20

/**
 * Freezes the items of the value's arrays (a page's planned products) as sealForHandOver would,
 * `sliceItems` at a time with `turn()` awaited between them: a page's plan frozen at once held the
 * process's other requests (a shop's, when the sync runs in the server) behind it. The handover
 * then finds them frozen and walks only what is left.
 */
export async function freezeInSlices(value: object, turn: () => Promise<void>, sliceItems = FREEZE_SLICE_ITEMS): Promise<void> {
  let frozen = 0
  for (const part of Object.values(value)) {
    if (!Array.isArray(part)) continue
    for (const item of part) {
      deepFreeze(item)
      if (++frozen % sliceItems === 0) await turn()
    }
  }
}

export function sealForHandOver<T>(value: T): Sealed<T> {
  const handle = newHandle()
  handed.set(handle, deepFreeze(value))
  if (handed.size > HANDED_MAX) handed.delete(handed.keys().next().value as string)
  return handle as Sealed<T>
}

/** The value handed over (the plan itself, read only), or a parse of text sealed elsewhere (a queued page). */
export function takeHandedOver<T>(sealed: Sealed<T>): T {
  return (isHandle(sealed) ? heldValue(sealed) : unseal(sealed)) as T
}

/** Drops a value handed over once its page is done (written here or by another instance). */
export function forgetHandOver(sealed: Sealed<unknown>): void {
  handed.delete(sealed)
}

/** Sealed data as text, for another process (a page queued for any instance's writer). */
export function sealedText<T>(sealed: Sealed<T>): Sealed<T> {
  return isHandle(sealed) ? seal(heldValue(sealed) as T) : sealed
}

/** A value that may be sealed or not (data an earlier version of the plugin stored unsealed). */
export function unsealedValue<T>(value: Sealed<T> | T): T {
  return typeof value === "string" ? unseal(value as Sealed<T>) : value
}
