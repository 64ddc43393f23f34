// Which addresses the client may connect to. By default only public unicast addresses: no
// loopback, private, link-local (cloud metadata lives there), carrier-grade NAT, multicast,
// broadcast or reserved ranges, so a base URL typed in the admin cannot be used to probe the
// shop's own network. The check runs on the resolved IP inside the connector, i.e. on the very
// address the socket then connects to (no gap between check and connect for a DNS answer to
// change), and on IP literals before any socket exists. `allowPrivateNetworks` lifts it for
// self-hosted catalogs, the sandbox and tests.
import dns from "node:dns"
import net from "node:net"
import { buildConnector, type Dispatcher } from "undici"
import { CatalogApiError } from "./errors"

/** Thrown (and given to undici's connect callback) for an address the policy refuses. */
export class AddressNotAllowedError extends CatalogApiError {
  /** The refused IP (for the server log; never shown to the admin). */
  readonly address: string
  readonly range: string

  constructor(hostname: string, address: string, range: string) {
    super(
      `Refusing to connect to ${hostname}${address !== hostname ? ` (${address})` : ""}: ${range} addresses are not allowed (set allowPrivateNetworks for a self-hosted catalog)`,
      { code: "address_not_allowed", status: null, requestId: null }
    )
    this.address = address
    this.range = range
  }
}

type Range = { name: string; bytes: number[]; prefix: number }

function v4(cidr: string, name: string): Range {
  const [ip, prefix] = cidr.split("/")
  return { name, bytes: ip.split(".").map(Number), prefix: Number(prefix) }
}

function v6(cidr: string, name: string): Range {
  const [ip, prefix] = cidr.split("/")
  return { name, bytes: parseIPv6(ip)!, prefix: Number(prefix) }
}

const IPV4_RANGES: Range[] = [
  v4("0.0.0.0/8", "unspecified"),
  v4("10.0.0.0/8", "private"),
  v4("100.64.0.0/10", "carrier-grade NAT"),
  v4("127.0.0.0/8", "loopback"),
  v4("169.254.0.0/16", "link-local"),
  v4("172.16.0.0/12", "private"),
  v4("192.0.0.0/24", "reserved"),
  v4("192.0.2.0/24", "documentation"),
  v4("192.88.99.0/24", "reserved"),
  v4("192.168.0.0/16", "private"),
  v4("198.18.0.0/15", "reserved"),
  v4("198.51.100.0/24", "documentation"),
  v4("203.0.113.0/24", "documentation"),
  v4("224.0.0.0/4", "multicast"),
  v4("240.0.0.0/4", "reserved"), // includes the broadcast 255.255.255.255
]

const IPV6_RANGES: Range[] = [
  v6("::/128", "unspecified"),
  v6("::1/128", "loopback"),
  v6("100::/64", "reserved"),
  v6("64:ff9b:1::/48", "reserved"), // local-use NAT64 (RFC 8215): the site's own IPv4 behind a translator
  v6("2001:db8::/32", "documentation"),
  v6("fc00::/7", "private"), // unique local; AWS metadata fd00:ec2::254 is here
  v6("fe80::/10", "link-local"),
  v6("fec0::/10", "site-local"),
  v6("ff00::/8", "multicast"),
]

function inRange(bytes: number[], range: Range): boolean {
  let bits = range.prefix
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff
    if ((bytes[i] & mask) !== (range.bytes[i] & mask)) return false
  }
  return true
}

/** 16 bytes of an IPv6 address (with or without an embedded dotted quad), or null. */
export function parseIPv6(text: string): number[] | null {
  let ip = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text
  const zone = ip.indexOf("%")
  if (zone !== -1) ip = ip.slice(0, zone)
  if (!net.isIPv6(ip)) return null
  const lastColon = ip.lastIndexOf(":")
  const last = ip.slice(lastColon + 1)
  if (last.includes(".")) {
    // An embedded dotted quad ("::ffff:10.0.0.1") becomes its two hex groups.
    const q = last.split(".").map(Number)
    ip = `${ip.slice(0, lastColon + 1)}${((q[0] << 8) | q[1]).toString(16)}:${((q[2] << 8) | q[3]).toString(16)}`
  }
  const [head, rest] = ip.includes("::") ? ip.split("::") : [ip, null]
  const parse = (part: string) =>
    part
      ? part
          .split(":")
          .filter((g) => g !== "")
          .map((g) => parseInt(g, 16))
      : []
  const left = parse(head)
  const right = rest === null ? [] : parse(rest)
  const fill = 8 - left.length - right.length
  if (fill < 0 || (rest === null && fill !== 0)) return null
  const groups = [...left, ...new Array(fill).fill(0), ...right]
  return groups.flatMap((g) => [(g >> 8) & 0xff, g & 0xff])
}

/** Why this IP may not be connected to by default ("loopback", "private", …), or null when public. */
export function forbiddenRange(address: string): string | null {
  if (net.isIPv4(address)) {
    const bytes = address.split(".").map(Number)
    return IPV4_RANGES.find((r) => inRange(bytes, r))?.name ?? null
  }
  const bytes = parseIPv6(address)
  if (!bytes) return "invalid"
  const named = IPV6_RANGES.find((r) => inRange(bytes, r))?.name
  if (named) return named
  // An IPv4 address inside IPv6 is judged as that IPv4 address: mapped (::ffff:a.b.c.d),
  // translated (::ffff:0:a.b.c.d), compatible (::a.b.c.d, deprecated), NAT64
  // (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0)
  let embedded: number[] | null = null
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) embedded = bytes.slice(12)
  else if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) embedded = bytes.slice(12)
  else if (zeros(0, 12)) embedded = bytes.slice(12)
  else if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) embedded = bytes.slice(12)
  else if (bytes[0] === 0x20 && bytes[1] === 0x02) embedded = bytes.slice(2, 6)
  return embedded ? forbiddenRange(embedded.join(".")) : null
}

export interface AddressPolicy {
  /** Allow loopback, private, link-local and other non-public addresses. Default false. */
  allowPrivateNetworks?: boolean
}

type LookupAddress = { address: string; family: number }
export type LookupFunction = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void
) => void

const systemLookup: LookupFunction = (hostname, options, callback) => dns.lookup(hostname, options, callback)

/** Throws AddressNotAllowedError when an IP literal (or a resolved IP) is outside the policy. */
export function assertAddressAllowed(hostname: string, address: string, policy: AddressPolicy): void {
  if (policy.allowPrivateNetworks) return
  const range = forbiddenRange(address)
  if (range) throw new AddressNotAllowedError(hostname, address, range)
}

/**
 * Resolves a hostname and checks every address it resolves to (one forbidden address refuses
 * the name: a mixed answer is how DNS rebinding hides). IP literals are checked as they are.
 */
export async function resolveAllowed(hostname: string, policy: AddressPolicy, lookup: LookupFunction = systemLookup): Promise<LookupAddress[]> {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  if (net.isIP(bare)) {
    assertAddressAllowed(bare, bare, policy)
    return [{ address: bare, family: net.isIP(bare) }]
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) => lookup(bare, { all: true }, (err, found) => (err ? reject(err) : resolve(found))))
  for (const { address } of addresses) assertAddressAllowed(bare, address, policy)
  return addresses
}

/**
 * A `lookup` for net/tls.connect that resolves, checks every address, then hands the checked
 * addresses to the socket, which connects to exactly those.
 */
export function guardedLookup(policy: AddressPolicy, lookup: LookupFunction = systemLookup) {
  return (
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void
  ): void => {
    const { all, ...rest } = options ?? {}
    resolveAllowed(hostname, policy, (h, o, cb) => lookup(h, { ...rest, ...o, all: true }, cb)).then(
      (addresses) => {
        if (addresses.length === 0) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }), "")
        if (all) callback(null, addresses)
        else callback(null, addresses[0].address, addresses[0].family)
      },
      (error) => callback(error, "")
    )
  }
}

/**
 * An undici connector enforcing the policy: IP literals are checked before the socket is
 * made; names go through guardedLookup. TLS keeps the original name for SNI and certificate
 * checks (undici derives servername from the Host, not from the address).
 */
export function guardedConnector(policy: AddressPolicy, options: { timeoutMs?: number; lookup?: LookupFunction } = {}): buildConnector.connector {
  const base = buildConnector({
    timeout: options.timeoutMs ?? 10_000,
    lookup: guardedLookup(policy, options.lookup),
  } as buildConnector.BuildOptions)
  return (connectOptions, callback) => {
    if (!policy.allowPrivateNetworks && net.isIP(connectOptions.hostname)) {
      try {
        assertAddressAllowed(connectOptions.hostname, connectOptions.hostname, policy)
      } catch (error) {
        // Asynchronously, as undici expects of a connector.
        queueMicrotask(() => callback(error as Error, null))
        return
      }
    }
    return base(connectOptions, callback)
  }
}

export type { Dispatcher }
