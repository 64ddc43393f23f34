// The enqueue mutex against the real Redis on 127.0.0.1.
import { randomUUID } from "node:crypto"
import Redis from "ioredis"
import { withRedisMutex } from "../redis-mutex"

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379"

describe("withRedisMutex", () => {
  it("serialises critical sections across connections", async () => {
    const key = `mcs-unit-${randomUUID()}:lock:enqueue`
    const conns = [new Redis(REDIS_URL), new Redis(REDIS_URL), new Redis(REDIS_URL)]
    let inside = 0
    let maxInside = 0
    try {
      await Promise.all(
        conns.flatMap((c) =>
          [1, 2, 3].map(() =>
            withRedisMutex(c, key, async () => {
              inside++
              maxInside = Math.max(maxInside, inside)
              await new Promise((r) => setTimeout(r, 10))
              inside--
            })
          )
        )
      )
      expect(maxInside).toBe(1)
    } finally {
      await Promise.all(conns.map((c) => c.quit()))
    }
  })
})
