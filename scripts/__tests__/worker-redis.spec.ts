import { workerRedisUrl } from "../../integration-tests/harness/worker-redis"

describe("workerRedisUrl: one Redis database per jest worker", () => {
  it("keeps the given database for the first worker (a run in band)", () => {
    expect(workerRedisUrl("redis://127.0.0.1:6379/5", 1)).toBe("redis://127.0.0.1:6379/5")
  })

  it("gives each further worker the next index, from 0 when none is given", () => {
    expect(workerRedisUrl(undefined, 1)).toBe("redis://127.0.0.1:6379/0")
    expect(workerRedisUrl(undefined, 2)).toBe("redis://127.0.0.1:6379/1")
    expect(workerRedisUrl("redis://127.0.0.1:6379", 2)).toBe("redis://127.0.0.1:6379/1")
    expect(workerRedisUrl("redis://127.0.0.1:6379/8", 2)).toBe("redis://127.0.0.1:6379/9")
  })

  it("keeps host, port and credentials", () => {
    expect(workerRedisUrl("redis://user:pw@redis.internal:6380/2", 3)).toBe("redis://user:pw@redis.internal:6380/4")
  })

  it("refuses an index past Redis's 16 databases instead of sharing one", () => {
    expect(() => workerRedisUrl("redis://127.0.0.1:6379/15", 2)).toThrow(/database 16/)
    expect(() => workerRedisUrl("redis://127.0.0.1:6379/x", 1)).toThrow(/not an index/)
  })
})
