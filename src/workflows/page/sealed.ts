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

export function unseal<T>(sealed: Sealed<T>): T {
  return JSON.parse(sealed) as T
}

/** A value that may be sealed or not (data an earlier version of the plugin stored unsealed). */
export function unsealedValue<T>(value: Sealed<T> | T): T {
  return typeof value === "string" ? unseal(value as Sealed<T>) : value
}
