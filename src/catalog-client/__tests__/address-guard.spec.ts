// The address policy: every non-public range refused by default, IPv4 inside IPv6 judged as
// IPv4, names judged by every address they resolve to, and a refused address never connected.
import { countingLoopbackServer } from "./sandbox-helpers"
import { Agent, request } from "undici"
import { AddressNotAllowedError, forbiddenRange, guardedConnector, parseIPv6, resolveAllowed, type LookupFunction } from "../address-guard"

describe("forbiddenRange", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["169.254.0.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.100.100.200", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.0.192", "reserved"],
    ["198.18.0.1", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "private"],
    ["fd00:ec2::254", "private"],
    ["fdff:ffff::1", "private"],
    ["ff02::1", "multicast"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["0:0:0:0:0:ffff:a9fe:a9fe", "link-local"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::10.1.2.3", "private"],
    ["2002:c0a8:0101::1", "private"],
    // Local-use NAT64 (RFC 8215) reaches the site's own IPv4 network; IPv4-translated (::ffff:0:a.b.c.d).
    ["64:ff9b:1::a00:1", "reserved"],
    ["64:ff9b:1:ffff::1", "reserved"],
    ["::ffff:0:7f00:1", "loopback"],
    ["::ffff:0:10.0.0.1", "private"],
    ["2001:db8::1", "documentation"],
  ])("refuses %s (%s)", (ip, range) => {
    expect(forbiddenRange(ip)).toBe(range)
  })

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "192.169.0.1",
    "11.0.0.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:0808:0808::1",
    "fbff::1",
    "fec0::1".replace("fec0", "fe7f"),
  ])("allows the public address %s", (ip) => {
    expect(forbiddenRange(ip)).toBeNull()
  })

  it("parses IPv6 forms to the same 16 bytes", () => {
    expect(parseIPv6("::ffff:10.0.0.1")).toEqual(parseIPv6("0:0:0:0:0:ffff:a00:1"))
    expect(parseIPv6("[::1]")).toEqual([...new Array(15).fill(0), 1])
    expect(parseIPv6("fe80::1%eth0")).toEqual(parseIPv6("fe80:0:0:0:0:0:0:1"))
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8])
    expect(parseIPv6("not-an-ip")).toBeNull()
  })
})

describe("resolveAllowed", () => {
  const stub = (answers: Record<string, string[]>): LookupFunction & { calls: string[] } => {
    const calls: string[] = []
    const fn = ((hostname, _options, callback) => {
      calls.push(hostname)
      const found = answers[hostname]
      if (!found) return callback(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" }), [])
      callback(
        null,
        found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
      )
    }) as LookupFunction & { calls: string[] }
    fn.calls = calls
    return fn
  }

  it("judges a name by every address it resolves to", async () => {
    const lookup = stub({ "catalog.example": ["93.184.216.34"], "rebind.example": ["93.184.216.34", "10.0.0.5"], "meta.example": ["169.254.169.254"] })
    await expect(resolveAllowed("catalog.example", {}, lookup)).resolves.toEqual([{ address: "93.184.216.34", family: 4 }])
    await expect(resolveAllowed("rebind.example", {}, lookup)).rejects.toBeInstanceOf(AddressNotAllowedError)
    await expect(resolveAllowed("meta.example", {}, lookup)).rejects.toMatchObject({ code: "address_not_allowed", range: "link-local" })
  })

  it("checks IP literals without a lookup, brackets or not", async () => {
    const lookup = stub({})
    await expect(resolveAllowed("127.0.0.1", {}, lookup)).rejects.toBeInstanceOf(AddressNotAllowedError)
    await expect(resolveAllowed("[::ffff:192.168.0.1]", {}, lookup)).rejects.toBeInstanceOf(AddressNotAllowedError)
    await expect(resolveAllowed("8.8.8.8", {}, lookup)).resolves.toHaveLength(1)
    expect(lookup.calls).toEqual([])
  })

  it("lets everything through with allowPrivateNetworks", async () => {
    const lookup = stub({ localhost: ["127.0.0.1", "::1"] })
    await expect(resolveAllowed("localhost", { allowPrivateNetworks: true }, lookup)).resolves.toHaveLength(2)
    await expect(resolveAllowed("169.254.169.254", { allowPrivateNetworks: true }, lookup)).resolves.toHaveLength(1)
  })
})

describe("guardedConnector", () => {
  const served = countingLoopbackServer((_req, res) => res.end("{}"))

  async function get(url: string, connect: ReturnType<typeof guardedConnector>) {
    const agent = new Agent({ connect })
    try {
      const res = await request(url, { dispatcher: agent })
      await res.body.text()
      return res.statusCode
    } finally {
      await agent.close()
    }
  }

  it("refuses a loopback literal and a name resolving to loopback without opening a socket", async () => {
    served.accepted = 0
    const lookup: LookupFunction = (_h, _o, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }])
    await expect(get(`http://127.0.0.1:${served.port}/`, guardedConnector({}, { lookup }))).rejects.toMatchObject({ code: "address_not_allowed" })
    await expect(get(`http://catalog.test:${served.port}/`, guardedConnector({}, { lookup }))).rejects.toMatchObject({ code: "address_not_allowed" })
    await expect(get(`http://[::1]:${served.port}/`, guardedConnector({}, { lookup }))).rejects.toMatchObject({ code: "address_not_allowed" })
    expect(served.accepted).toBe(0)
  })

  it("connects to the checked address when the policy allows it", async () => {
    served.accepted = 0
    const lookup: LookupFunction = (_h, _o, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }])
    await expect(get(`http://catalog.test:${served.port}/`, guardedConnector({ allowPrivateNetworks: true }, { lookup }))).resolves.toBe(200)
    await expect(get(`http://127.0.0.1:${served.port}/`, guardedConnector({ allowPrivateNetworks: true }))).resolves.toBe(200)
    expect(served.accepted).toBe(2)
  })
})
