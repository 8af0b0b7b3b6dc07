// Where the console's proxy follows a hub's redirect: to the hub's own origin, or to a host whose every
// address is public (the real hub's CDN). Never to loopback, link-local, private or other special
// ranges, so a hub cannot make the console's server fetch from the machine or the network it runs on.
// The address is checked where the connection is made (the lookup), so a name that resolves to
// 127.0.0.1, or resolves differently the second time, is refused too. See docs/hub-proxy.md.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Ranges that are not the public internet (IANA special-purpose registries, IPv4 and IPv6). */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 of IPv4 (the embedded address may be private)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

/** Whether `address` (an IPv4 or IPv6 literal) is on the public internet. IPv4-mapped IPv6 is judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A redirect the proxy will not follow; its message names the origin and the address, never the query. */
export class RedirectRefused extends Error {
  constructor(origin: string, address: string) {
    super(`it redirected to ${origin}, which is at ${address}, not a public address`);
  }
}

/** The address of a URL hostname when it is a literal (`[::1]` without brackets), else undefined. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/**
 * A `lookup` for http(s).request that resolves as usual and fails with RedirectRefused unless every
 * address the name has is allowed (a name with one public and one loopback address is refused).
 */
export function allowedOnlyLookup(origin: string, allowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => !allowed(a.address));
      const first = addresses[0];
      if (refused || !first) {
        const e = new RedirectRefused(origin, refused?.address ?? 'no address');
        return callback(e as NodeJS.ErrnoException, '', 0);
      }
      // Node asks for every address (`all`) when it tries the families in turn, else for one.
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}
