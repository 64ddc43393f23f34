// Seeded pseudo-random numbers: the same seed always yields the same catalog.

/** mulberry32: small, fast, good enough for test data. */
export class Prng {
  private state: number

  constructor(seed: number) {
    this.state = (seed >>> 0) ^ 0x9e3779b9
  }

  /** Float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]
  }

  uint32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0
  }

  /** Derive an independent generator (e.g. one per product) without consuming a long sequence. */
  fork(salt: number): Prng {
    return new Prng((this.uint32() ^ Math.imul(salt, 0x85ebca6b)) >>> 0)
  }
}

const INT64_MAX = (1n << 63n) - 1n

/**
 * An id spread over the whole 1..2^63-1 range: first a bit length, uniformly, then the bits.
 * So small ids, ids near 2^53 and ids far above it all occur.
 */
export function randomInt64(rng: Prng): bigint {
  const bits = rng.int(1, 63)
  const hi = BigInt(rng.uint32())
  const lo = BigInt(rng.uint32())
  let value = ((hi << 32n) | lo) & ((1n << BigInt(bits)) - 1n)
  value |= 1n << BigInt(bits - 1) // top bit set so the bit length is what was drawn
  if (value < 1n) value = 1n
  return value > INT64_MAX ? INT64_MAX : value
}

export { INT64_MAX }
