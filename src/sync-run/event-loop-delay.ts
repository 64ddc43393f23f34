// How long the process's event loop was held during a run: what a shopper's request on the same
// process waited at worst before it was picked up. Logged once when the run ends (the storefront
// bench reads the line; an operator reads it to decide on a worker instance, docs/operations.md).
import { monitorEventLoopDelay } from "node:perf_hooks"

export interface EventLoopWatch {
  /** The line for the run's log, and stops watching. */
  stop(): string
}

export function watchEventLoop(): EventLoopWatch {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  const ms = (ns: number) => (ns / 1e6).toFixed(0)
  return {
    stop() {
      histogram.disable()
      return `catalog sync: event loop during run delay p50 ${ms(histogram.percentile(50))} ms, p99 ${ms(histogram.percentile(99))} ms, max ${ms(histogram.max)} ms`
    },
  }
}
