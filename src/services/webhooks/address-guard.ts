import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Server-side request forgery guard. A webhook endpoint is chosen by an organization manager, and
 * the service calls it from inside its own network: without this guard a webhook could reach the
 * database, a cloud metadata service (169.254.169.254) or an admin page on localhost. Every address
 * a host name resolves to is checked, at configuration and again before each delivery (DNS answers
 * change), and the connection is then made to the address that was checked, so a second, different
 * DNS answer cannot slip in between check and connect.
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

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of the endpoint's host, refused when one of them is not public (unless allowed). */
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
