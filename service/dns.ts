// DNS lookups for custom-domain checks and inbound verdicts: DNS_SERVERS when set (tests point it
// at a server on loopback), else the system's. Every query is bounded, so a server that never
// answers costs a known time, not the resolver's default of several retries.
import { Resolver } from 'node:dns/promises';
import type { Lookup } from '../machines/policy/domain-records.ts';
import type { Config } from './config.ts';

/** The signature of `dns.promises.resolve`, which mailauth's `resolver` option takes. */
export type ResolveFn = (name: string, rrtype: string) => Promise<any[]>;

// Codes node:dns gives when the name or the record type does not exist: a definite answer.
const NONE = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

export function dnsResolver(config: Pick<Config, 'dnsServers'>, timeoutMs = 1_000): ResolveFn {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (config.dnsServers.length > 0) resolver.setServers(config.dnsServers);
  return (name, rrtype) => resolver.resolve(name, rrtype as 'TXT') as Promise<any[]>;
}

/**
 * Answers kept for a short while, for inbound verdicts: a burst of mail from one domain asks the
 * same SPF, DKIM and DMARC names for every message, and concurrent asks share one query. A
 * definite "no such record" is kept like an answer (as resolvers cache NXDOMAIN); a timeout or
 * server failure is not, so the next message asks again. Names are forgotten oldest first past
 * `maxEntries`. node:dns gives no TTL for TXT answers, so every answer is kept for `ttlMs`, below
 * the TTL most zones publish.
 */
export function cachingResolver(resolve: ResolveFn, opts: { ttlMs?: number; maxEntries?: number } = {}): ResolveFn {
  const ttlMs = opts.ttlMs ?? 60_000;
  const maxEntries = opts.maxEntries ?? 10_000;
  const cache = new Map<string, { until: number; answer: Promise<any[]> }>();
  return (name, rrtype) => {
    const key = `${rrtype} ${name.toLowerCase()}`;
    let entry = cache.get(key);
    if (!entry || entry.until <= Date.now()) {
      cache.delete(key);
      // Shared while the query is out; kept for ttlMs from its answer.
      const kept = { until: Infinity, answer: resolve(name, rrtype) };
      entry = kept;
      cache.set(key, kept);
      if (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      const keep = () => {
        kept.until = Date.now() + ttlMs;
      };
      kept.answer.then(keep, (err) => {
        if (isNoRecord(err)) keep();
        else if (cache.get(key) === kept) cache.delete(key);
      });
    }
    // Each caller gets its own array: an answer shared between messages is never changed by one.
    return entry.answer.then((answers) => answers.slice());
  };
}

export const isNoRecord = (err: unknown): boolean => NONE.has((err as NodeJS.ErrnoException).code ?? '');

/** TXT (strings of a record joined, as RFC 7208 and 6376 read them) or MX (`priority host`). */
export async function lookupRecords(resolve: ResolveFn, name: string, type: 'TXT' | 'MX'): Promise<Lookup> {
  try {
    const answers = await resolve(name, type);
    return {
      ok: true,
      answers: type === 'TXT' ? answers.map((parts: string[]) => parts.join('')) : answers.map((mx: { priority: number; exchange: string }) => `${mx.priority} ${mx.exchange}`),
    };
  } catch (err) {
    return { ok: false, error: isNoRecord(err) ? 'none' : 'temporary', detail: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
  }
}
