// Large workflow data travels sealed: as one JSON string.
//
// Why: Medusa's workflow engine copies workflow data each time a step or transform reads it
// (resolveValue: a JavaScript walk of the whole value, then parseStringifyIfNecessary), and an
// array inside an array is copied again at each level. A page's plan (~800 KB for 200 cards,
// cards → variants → offers) cost ~40 ms per read that way, and the page workflow read its plan,
// records and write inputs some twenty times. A string is passed as it is, and JSON.parse (native)
// makes the one copy a reader needs. Sealed values are plain JSON, so the data stays serializable
// (checkpoints, the page-writes queue) as the engine requires.
declare const sealedOf: unique symbol

/** A value of type T as its JSON text. */
export type Sealed<T> = string & { readonly [sealedOf]: T }

export function seal<T>(value: T): Sealed<T> {
  return JSON.stringify(value) as Sealed<T>
}

/** The value, as a fresh copy the reader may change. */
export function unseal<T>(sealed: Sealed<T>): T {
  return JSON.parse(sealed) as T
}

/**
 * Parsed values of sealed texts read more than once (a page's records by some seven transforms,
 * its writes by five, each write input by three), by their text, least recently read first. One
 * parse serves every reader, so the value is frozen: a reader that changed it would change it for
 * the others (strict mode throws instead). Bounded by text length (characters), to about one
 * page's shared reads (1 to 1.5 MB of text for 200 products): kept longer, they raised the app's
 * peak RSS in a 50,000-product first sync by about 80 MB (with 8 MB). A miss costs a parse and a
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
 * promoted: ~90 MB per 1,000 price changes, and a full collection every few thousand). The
 * caller gives the value up: it is frozen, and with it whatever the caller still holds of it.
 */
export function sealShared<T>(value: T): Sealed<T> {
  const text = seal(value)
  if (text.length <= SHARED_CHARS_MAX && !shared.has(text)) keepShared(text, deepFreeze(value))
  return text
}

/**
 * Values sealed for a reader in this same process (a page's plan, sealed by the run into its
 * workflow input and read by the workflow's first transform), by their text: the reader takes
 * the value itself instead of parsing it again (about 9 ms for a page of 200 price changes, and
 * the garbage). Taken once; an entry not taken (a page written by another instance) is dropped
 * by `forgetHandOver` when its page is done, or else oldest first. The value is frozen when it
 * is sealed: the workflow shares it with `peek`'s readers (sealShared), and the sealer still
 * holds it, so neither may change it, and a change would throw every time rather than only
 * once it had been handed over.
 */
const handed = new Map<string, unknown>()
export const HANDED_MAX = 4

export function sealForHandOver<T>(value: T): Sealed<T> {
  return handOver(seal(deepFreeze(value)), value)
}

/** Hands over the value a text already sealed says (a queued page's plan its writer parsed): the reader takes it, not a second parse. */
export function handOver<T>(text: Sealed<T>, value: T): Sealed<T> {
  deepFreeze(value)
  handed.delete(text)
  handed.set(text, value)
  if (handed.size > HANDED_MAX) handed.delete(handed.keys().next().value as string)
  return text
}

/** The value `sealForHandOver` sealed as this text (once), or else a parse of the text. */
export function takeHandedOver<T>(sealed: Sealed<T>): T {
  const value = handed.get(sealed)
  if (value === undefined) return unseal(sealed)
  handed.delete(sealed)
  return value as T
}

/** Drops a value sealed for hand-over that its reader did not take (its page was written elsewhere). */
export function forgetHandOver(sealed: Sealed<unknown>): void {
  handed.delete(sealed)
}

/** A value that may be sealed or not (data an earlier version of the plugin stored unsealed). */
export function unsealedValue<T>(value: Sealed<T> | T): T {
  return typeof value === "string" ? unseal(value as Sealed<T>) : value
}
