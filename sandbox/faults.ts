// Faults on demand: a fraction of answers misbehave, so clients can be tested against a flaky service.

import { Prng } from "./prng"

export type FaultKind = "500" | "502" | "503" | "429" | "reset" | "slow" | "truncate"
export const FAULT_KINDS: FaultKind[] = ["500", "502", "503", "429", "reset", "slow", "truncate"]

export class Faults {
  /** Delay of a "slow" fault, on top of latencyMs. */
  slowMs = 2000

  constructor(
    public failRate: number,
    public latencyMs: number,
    public kinds: FaultKind[] = FAULT_KINDS,
    private readonly rng = new Prng(424242)
  ) {}

  /** The fault to inject into this answer, if any. */
  draw(): FaultKind | null {
    if (this.failRate <= 0 || this.kinds.length === 0) return null
    if (this.failRate < 1 && this.rng.next() >= this.failRate) return null
    return this.rng.pick(this.kinds)
  }
}
