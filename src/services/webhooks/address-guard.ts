import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Server-side request forgery guard. A webhook endpoint is chosen by an organization manager, and
 * the service calls it from inside its own network: without this guard a webhook could reach the
 * database, a cloud metadata service (169.254.169.254) or an admin page on localhost. At
 * configuration only what needs no DNS is checked (checkEndpointHost: IP addresses and obviously
 * local names), so an endpoint can be configured where DNS is unavailable or not yet set up.
 * Before each delivery every address the host resolves to is checked (DNS answers change), and
 * the connection is made to the address that was checked, so a second, different DNS answer
 * cannot slip in between check and connect.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", including the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.168.0.0', 16], // private
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Loopback, private, link-local, unspecified, CGNAT, multicast or reserved. */
export function isNonPublicAddress(address: string): boolean {
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) reaches the IPv4 host.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class EndpointRefusedError extends Error {
  constructor(
    message: string,
    /** UNRESOLVABLE: the host has no address; NON_PUBLIC: an address is not public. */
    readonly reason: 'UNRESOLVABLE' | 'NON_PUBLIC',
  ) {
    super(message);
  }
}

/**
 * Names that reach this machine or its own network whatever DNS says: localhost and its
 * subdomains (RFC 6761), multicast DNS (.local), the private-use .internal (cloud metadata
 * services live at metadata.google.internal) and .home.arpa, and .localdomain.
 */
const LOCAL_NAME = /(^|\.)(localhost|local|localdomain|internal|home\.arpa)$/;

/**
 * The check at configuration, without DNS: an IP address must be public, a name must not be
 * obviously local (above, or a single label such as `intranet`, which the local resolver
 * completes with its own search domains). Names under .invalid never resolve (RFC 6761) and are
 * refused whatever WEBHOOK_ALLOW_PRIVATE says.
 */
export function checkEndpointHost(endpoint: URL, allowNonPublic: boolean): void {
  const host = endpoint.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  if (isIP(host)) {
    if (!allowNonPublic && isNonPublicAddress(host)) {
      throw new EndpointRefusedError(`${host} is a loopback, private, link-local or other non-public address`, 'NON_PUBLIC');
    }
    return;
  }
  if (/(^|\.)invalid$/.test(host)) throw new EndpointRefusedError(`the host '${host}' does not resolve: .invalid names never do`, 'UNRESOLVABLE');
  if (!allowNonPublic && (!host.includes('.') || LOCAL_NAME.test(host))) {
    throw new EndpointRefusedError(`the host '${host}' is a local name, which reaches loopback, private or other non-public addresses`, 'NON_PUBLIC');
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of the endpoint's host, refused when one of them is not public (unless allowed); at delivery. */
export async function resolveEndpoint(endpoint: URL, allowNonPublic: boolean): Promise<ResolvedAddress[]> {
  const host = endpoint.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new EndpointRefusedError(`the host '${host}' does not resolve`, 'UNRESOLVABLE');
  }
  if (addresses.length === 0) throw new EndpointRefusedError(`the host '${host}' does not resolve`, 'UNRESOLVABLE');
  const bad = allowNonPublic ? undefined : addresses.find((a) => isNonPublicAddress(a.address));
  if (bad) {
    throw new EndpointRefusedError(
      `the host '${host}' resolves to ${bad.address}, a loopback, private, link-local or other non-public address`,
      'NON_PUBLIC',
    );
  }
  return addresses;
}

/** A `lookup` for node:http that answers with the addresses already checked, and nothing else. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}
