// The harness's freePort (integration-tests/harness/medusa-app.ts): a port for a server that
// listens later. The kernel offers any port not bound now, so without a claim the test processes
// running side by side were handed one port twice (two apps, one of them talking to the other's).
import { freePort } from "../../integration-tests/harness/medusa-app"

describe("freePort", () => {
  it("hands out no port twice while their servers are still to listen, however many are asked for", async () => {
    // The kernel's free ports alone repeat within a few hundred draws.
    const ports: number[] = []
    for (let i = 0; i < 300; i++) ports.push(await freePort())
    expect(new Set(ports).size).toBe(ports.length)
  })
})
