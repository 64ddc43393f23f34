import { describeCollections, fullCollectionsIn, summarizeCollections } from "../gc-trace"

// Lines as V8 (Node 20) prints them with --trace-gc, from a 10,000-product first sync's app log.
const LOG = [
  "catalog sync page 12: 200 created, waited 3 ms for the page, wrote in 402 ms {…}",
  "[8410:0x32d8fca0]    11741 ms: Scavenge 330.1 (355.4) -> 318.0 (356.9) MB, 2.18 / 0.00 ms  (average mu = 0.992, current mu = 0.990) allocation failure;",
  "[8410:0x32d8fca0]    11769 ms: Mark-Compact 345.8 (370.8) -> 217.3 (359.0) MB, 22.12 / 0.03 ms  (+ 43.6 ms in 97 steps since start of marking, biggest step 16.2 ms, walltime since start of marking 243 ms) (average mu = 0.991, current mu = 0.986) finalize incremental marking via stack guard; GC in old space requested",
  "[8410:0x32d8fca0]    37011 ms: Mark-Compact 872.2 (916.8) -> 223.0 (582.7) MB, 26.60 / 0.03 ms  (+ 141.4 ms in 60 steps since start of marking, biggest step 21.7 ms, walltime since start of marking 239 ms) (average mu = 0.990, current mu = 0.989) finalize incremental marking via task; GC in old space requested",
  "[8410:0x32d8fca0]    61020 ms: Mark-Compact (reduce) 300.5 (340.0) -> 221.9 (260.1) MB, 30.01 / 0.00 ms  (+ 12.0 ms in 9 steps since start of marking) (average mu = 0.99, current mu = 0.99) finalize incremental marking via task; GC in old space requested",
].join("\n")

describe("full collections in an app's --trace-gc log", () => {
  it("reads each full collection's heap before and after, and nothing else", () => {
    expect(fullCollectionsIn(LOG)).toEqual([
      { beforeMb: 345.8, afterMb: 217.3 },
      { beforeMb: 872.2, afterMb: 223.0 },
      { beforeMb: 300.5, afterMb: 221.9 },
    ])
  })

  it("summarizes the live heap and where each collection began against the live heap before it", () => {
    const s = summarizeCollections(fullCollectionsIn(LOG))
    expect(s.count).toBe(3)
    expect(s.liveMb).toEqual([217.3, 223.0])
    expect(s.startOverLive![0]).toBeCloseTo(300.5 / 223.0, 5)
    expect(s.startOverLive![1]).toBeCloseTo(872.2 / 217.3, 5)
    expect(describeCollections(s)).toBe(
      "3 full collections during the sync, the heap after each 217 to 223 MB; each began at 1.3 to 4.0 times the heap the one before left"
    )
  })

  it("says so when the sync ran no full collection, or one", () => {
    expect(describeCollections(summarizeCollections([]))).toBe("no full collection during the sync")
    expect(summarizeCollections([])).toEqual({ count: 0, liveMb: null, startOverLive: null })
    const one = summarizeCollections([{ beforeMb: 632, afterMb: 219.1 }])
    expect(one.startOverLive).toBeNull()
    expect(describeCollections(one)).toBe("1 full collection during the sync, the heap after it 219 MB")
  })
})
