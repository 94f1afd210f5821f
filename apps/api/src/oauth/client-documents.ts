import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a client metadata document (CIMD) may be fetched from: a public address only. The
 * authorization server fetches a URL a stranger names, so private, loopback, link-local and
 * other special-use addresses are refused (server-side request forgery). oidc-provider
 * checks the connected socket's address again, which catches a name that resolves
 * differently on the second lookup.
 */
const SPECIAL_USE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  SPECIAL_USE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (embeds IPv4)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  SPECIAL_USE.addSubnet(network, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return match ? match[1]! : address;
}

/**
 * Whether a client metadata document may be fetched from `address`: public addresses only;
 * loopback too when `allowLoopback` (OAUTH_CIMD_ALLOW_LOOPBACK, development and tests).
 */
export function isFetchableAddress(address: string, allowLoopback = false): boolean {
  const ip = unmapped(address.replace(/^\[|\]$/g, ''));
  const family = isIP(ip);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && LOOPBACK.check(ip, type)) return true;
  if (type === 'ipv6' && /^::ffff:/i.test(ip)) return false; // Mapped forms not written with dots.
  return !SPECIAL_USE.check(ip, type);
}

/**
 * Whether every address the document's host names is fetchable (an IP literal is judged
 * as it is). A name that does not resolve is not fetchable.
 */
export async function isFetchableHost(hostname: string, allowLoopback: boolean): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isFetchableAddress(host, allowLoopback);
  try {
    const addresses = await lookup(host, { all: true, verbatim: true });
    return addresses.length > 0 && addresses.every(({ address }) => isFetchableAddress(address, allowLoopback));
  } catch {
    return false;
  }
}
