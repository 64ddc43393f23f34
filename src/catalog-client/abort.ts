// Abortable waiting.
import { AbortedError } from "./errors"

export function abortReason(signal: AbortSignal): Error {
  const reason = signal.reason
  if (reason instanceof AbortedError) return reason
  return new AbortedError()
}

/** Resolves after `ms`, or earlier when `wake` resolves; rejects with AbortedError on abort. */
export function sleep(ms: number, signal?: AbortSignal, wake?: Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal))
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener("abort", onAbort)
      resolve()
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortReason(signal!))
    }
    const timer = setTimeout(done, Math.max(0, ms))
    signal?.addEventListener("abort", onAbort, { once: true })
    wake?.then(done, done)
  })
}

/** A signal that aborts when any of the given signals aborts. */
export function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined)
  if (present.length === 0) return undefined
  if (present.length === 1) return present[0]
  return AbortSignal.any(present)
}

/** The promise, or a rejection with the abort reason as soon as the signal aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal))
    signal.addEventListener("abort", onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort)
        resolve(value)
      },
      (error) => {
        signal.removeEventListener("abort", onAbort)
        reject(error)
      }
    )
  })
}
