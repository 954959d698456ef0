// Where a webhook may post: http or https, and never to an address inside the deployment's own
// network (loopback, private, link-local and cloud metadata, CGNAT, unique-local, multicast), since a
// registered URL is a request the server makes on the caller's behalf.
import net from 'node:net';

type Range = { base: string; prefix: number; family: 'ipv4' | 'ipv6'; reason: string };

const RANGES: Range[] = [
  { base: '0.0.0.0', prefix: 8, family: 'ipv4', reason: 'unspecified' },
  { base: '10.0.0.0', prefix: 8, family: 'ipv4', reason: 'private' },
  { base: '100.64.0.0', prefix: 10, family: 'ipv4', reason: 'shared (CGNAT)' },
  { base: '127.0.0.0', prefix: 8, family: 'ipv4', reason: 'loopback' },
  { base: '169.254.0.0', prefix: 16, family: 'ipv4', reason: 'link-local (cloud metadata)' },
  { base: '172.16.0.0', prefix: 12, family: 'ipv4', reason: 'private' },
  { base: '192.0.0.0', prefix: 24, family: 'ipv4', reason: 'protocol assignments' },
  { base: '192.0.2.0', prefix: 24, family: 'ipv4', reason: 'documentation' },
  { base: '192.168.0.0', prefix: 16, family: 'ipv4', reason: 'private' },
  { base: '198.18.0.0', prefix: 15, family: 'ipv4', reason: 'benchmarking' },
  { base: '198.51.100.0', prefix: 24, family: 'ipv4', reason: 'documentation' },
  { base: '203.0.113.0', prefix: 24, family: 'ipv4', reason: 'documentation' },
  { base: '224.0.0.0', prefix: 4, family: 'ipv4', reason: 'multicast' },
  { base: '240.0.0.0', prefix: 4, family: 'ipv4', reason: 'reserved' },
  { base: '::', prefix: 128, family: 'ipv6', reason: 'unspecified' },
  { base: '::1', prefix: 128, family: 'ipv6', reason: 'loopback' },
  { base: '64:ff9b:1::', prefix: 48, family: 'ipv6', reason: 'local NAT64' },
  { base: '100::', prefix: 64, family: 'ipv6', reason: 'discard' },
  { base: '2001:db8::', prefix: 32, family: 'ipv6', reason: 'documentation' },
  { base: 'fc00::', prefix: 7, family: 'ipv6', reason: 'unique-local' },
  { base: 'fe80::', prefix: 10, family: 'ipv6', reason: 'link-local' },
  { base: 'fec0::', prefix: 10, family: 'ipv6', reason: 'site-local' },
  { base: 'ff00::', prefix: 8, family: 'ipv6', reason: 'multicast' },
];

const LISTS = RANGES.map((r) => {
  const list = new net.BlockList();
  list.addSubnet(r.base, r.prefix, r.family);
  return { list, range: r };
});

/** The IPv4 address an IPv6 address carries (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`), or null. */
export function embeddedIPv4(ip: string): string | null {
  if (net.isIP(ip) !== 6) return null;
  const words = expandIPv6(ip);
  const isMapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  const isCompatible = words.slice(0, 6).every((w) => w === 0) && (words[6]! !== 0 || words[7]! > 1);
  const isNat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (!isMapped && !isCompatible && !isNat64) return null;
  return [words[6]! >> 8, words[6]! & 0xff, words[7]! >> 8, words[7]! & 0xff].join('.');
}

function expandIPv6(ip: string): number[] {
  let text = ip.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':').filter(Boolean) : [];
  const right = tail ? tail.split(':').filter(Boolean) : [];
  const fill = tail === null ? [] : new Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((w) => parseInt(w, 16));
}

/** Why an IP address may not be a webhook target, or null when it is a public address. */
export function blockedAddressReason(ip: string): string | null {
  const family = net.isIP(ip);
  if (family === 0) return 'not an IP address';
  const v4 = family === 6 ? embeddedIPv4(ip) : null;
  if (v4) return blockedAddressReason(v4);
  const kind = family === 4 ? 'ipv4' : 'ipv6';
  for (const { list, range } of LISTS) {
    if (range.family === kind && list.check(ip.split('%')[0]!, kind)) return range.reason;
  }
  return null;
}

/** The URL's host as an IP literal (brackets removed), or null for a host name. */
export function literalHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) ? host : null;
}

/** Problems with a URL before any name is resolved: scheme, host, and a literal address. */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (!url.hostname) return 'has no host';
  if (url.username || url.password) return 'must not carry credentials; use the signature to authenticate deliveries';
  if (allowPrivate) return null;
  const literal = literalHost(url);
  if (literal) {
    const reason = blockedAddressReason(literal);
    return reason ? `points at a ${reason} address (${literal}), which webhooks may not reach` : null;
  }
  return null;
}

/** Problems with the addresses a host name resolved to: every one must be public. */
export function resolvedProblem(host: string, addresses: string[]): string | null {
  if (addresses.length === 0) return `host ${host} does not resolve`;
  for (const ip of addresses) {
    const reason = blockedAddressReason(ip);
    if (reason) return `host ${host} resolves to a ${reason} address (${ip}), which webhooks may not reach`;
  }
  return null;
}
