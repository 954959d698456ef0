// Where a webhook may post: http or https, and never to an address inside the deployment's own
// network (loopback, private, link-local and cloud metadata, CGNAT, unique-local, multicast, or an
// IPv6 form carrying one of those; see network-address.ts), since a registered URL is a request the
// server makes on the caller's behalf.
import net from 'node:net';
import { embeddedIPv4, nonPublicReason } from './network-address.ts';

/** Why an IP address may not be a webhook target, or null when it is a public address. */
export const blockedAddressReason = nonPublicReason;

export { embeddedIPv4 };

/** The URL's host as an IP literal (brackets removed), or null for a host name. */
export function literalHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) ? host : null;
}

// A receiver on loopback or a private network is usual in development and on one's own network:
// the refusal says how to allow it, rather than leave the operator to find the setting.
const PRIVATE_HINT = ' unless the service runs with WEBHOOK_ALLOW_PRIVATE=true';

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
    return reason ? `points at a ${reason} address (${literal}), which webhooks may not reach${PRIVATE_HINT}` : null;
  }
  return null;
}

/** Problems with the addresses a host name resolved to: every one must be public. */
export function resolvedProblem(host: string, addresses: string[]): string | null {
  if (addresses.length === 0) return `host ${host} does not resolve`;
  for (const ip of addresses) {
    const reason = blockedAddressReason(ip);
    if (reason) return `host ${host} resolves to a ${reason} address (${ip}), which webhooks may not reach${PRIVATE_HINT}`;
  }
  return null;
}
