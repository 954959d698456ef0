// Whether an IP address is on the public internet, for every request the server makes to an
// address a caller chose (webhook targets now, reviewer-link delivery targets next). The special
// ranges come from ipaddr.js, which tracks the IANA registries, rather than a hand-kept table: a
// hand-kept one missed IPv6 forms that carry an IPv4 address (IPv4-translated, 6to4, Teredo), so
// `[2002:7f00:1::]` reached 127.0.0.1. Pure: parsing and comparing only.
import net from 'node:net';
import ipaddr from 'ipaddr.js';

// ipaddr.js range names, as a person reads them in an error. Anything but `unicast` is refused.
const REASONS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'shared (CGNAT)',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  rfc6052: 'local NAT64',
  discard: 'discard',
};

function reasonOf(range: string, kind: 'ipv4' | 'ipv6'): string {
  if (range === 'linkLocal') return kind === 'ipv4' ? 'link-local (cloud metadata)' : 'link-local';
  return REASONS[range] ?? range.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

const v4 = (bytes: number[]): ipaddr.IPv4 => new ipaddr.IPv4(bytes);

/**
 * The IPv4 addresses an IPv6 address carries, for the forms that deliver to them: mapped
 * (`::ffff:a.b.c.d`), translated (`::ffff:0:a.b.c.d`), compatible (`::a.b.c.d`), NAT64
 * (`64:ff9b::/96`), 6to4 (`2002:AABB:CCDD::`) and Teredo (the client, inverted, then the server).
 */
function carriedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4[] {
  const b = addr.toByteArray();
  const last = b.slice(12, 16);
  const range = addr.range();
  const zeroPrefix = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [v4(last)];
  if (range === 'rfc6052' && addr.match(ipaddr.IPv6.parse('64:ff9b::'), 96)) return [v4(last)];
  if (range === '6to4') return [v4(b.slice(2, 6))];
  if (range === 'teredo') return [v4(last.map((x) => x ^ 0xff)), v4(b.slice(4, 8))];
  if (range === 'unicast' && zeroPrefix(12)) return [v4(last)];
  return [];
}

/** The first IPv4 address an IPv6 address carries (see carriedIPv4), or null. */
export function embeddedIPv4(ip: string): string | null {
  if (net.isIP(ip) !== 6) return null;
  return carriedIPv4(ipaddr.IPv6.parse(ip)).map((a) => a.toString()).find((a) => a !== '0.0.0.0') ?? null;
}

function ipv4Reason(addr: ipaddr.IPv4): string | null {
  const range = addr.range();
  return range === 'unicast' ? null : reasonOf(range, 'ipv4');
}

/** Why an IP address is not a public one a server may be sent to, or null when it is. */
export function nonPublicReason(ip: string): string | null {
  const bare = ip.split('%')[0]!;
  const family = net.isIP(bare);
  if (family === 0) return 'not an IP address';
  if (family === 4) return ipv4Reason(ipaddr.IPv4.parse(bare));
  const addr = ipaddr.IPv6.parse(bare);
  const carried = carriedIPv4(addr);
  // A form that carries IPv4 is as public as what it carries (every part, for Teredo).
  if (carried.length > 0) return carried.map(ipv4Reason).find((r) => r !== null) ?? null;
  const range = addr.range();
  return range === 'unicast' ? null : reasonOf(range, 'ipv6');
}
