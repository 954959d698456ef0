// Custom domains: the name rules, the DNS records a domain's owner publishes, how each record's
// lookup is judged, the status that follows. How many a plan includes is the plan's
// `custom_domain_limit`. Pure: the
// lookups themselves happen in actors/domains.ts.
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A fully qualified name of at least two labels, lower-cased and without a trailing dot; null when not one. */
export function normalizeDomainName(raw: string): string | null {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  if (name.length > 253) return null;
  const labels = name.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^[0-9]+$/.test(labels.at(-1)!)) return null;
  return name;
}

/** The service's own domains (and names under them) are not anyone's to onboard. */
export function isServiceDomain(name: string, serviceDomains: string[]): boolean {
  return serviceDomains.some((d) => name === d || name.endsWith(`.${d}`));
}

export type RecordKind = 'ownership' | 'mx' | 'spf' | 'dkim' | 'dmarc';
export const RECORD_KINDS: RecordKind[] = ['ownership', 'mx', 'spf', 'dkim', 'dmarc'];

export type DnsRecord = {
  kind: RecordKind;
  type: 'TXT' | 'MX';
  /** Fully qualified name the record is published at. */
  host: string;
  value: string;
  priority?: number;
  /** Required for `verified`; DMARC is a suggestion the owner may already have their own of. */
  required: boolean;
};

export type DomainKeys = { name: string; token: string; selector: string; publicKey: string; mxHost: string };

export const ownershipHost = (name: string) => `_agent-inbox.${name}`;
export const ownershipValue = (token: string) => `agent-inbox-verification=${token}`;

/** The records to publish, in the order a person adds them. */
export function expectedRecords(k: DomainKeys): DnsRecord[] {
  return [
    { kind: 'ownership', type: 'TXT', host: ownershipHost(k.name), value: ownershipValue(k.token), required: true },
    { kind: 'mx', type: 'MX', host: k.name, value: k.mxHost, priority: 10, required: true },
    { kind: 'spf', type: 'TXT', host: k.name, value: `v=spf1 mx a:${k.mxHost} ~all`, required: true },
    { kind: 'dkim', type: 'TXT', host: `${k.selector}._domainkey.${k.name}`, value: `v=DKIM1; k=rsa; p=${k.publicKey}`, required: true },
    { kind: 'dmarc', type: 'TXT', host: `_dmarc.${k.name}`, value: `v=DMARC1; p=quarantine; adkim=r; aspf=r; rua=mailto:postmaster@${k.name}`, required: false },
  ];
}

/** What a lookup answered: the records found, none (NXDOMAIN, no data), or no answer at all. */
export type Lookup = { ok: true; answers: string[] } | { ok: false; error: 'none' | 'temporary'; detail: string };

export type RecordStatus = 'pass' | 'fail' | 'temperror';
export type RecordCheck = { kind: RecordKind; status: RecordStatus; found: string[]; detail: string | null };

const sameHost = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

function tags(record: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of record.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, ''));
  }
  return out;
}

/** Whether one found record satisfies the expected one. MX answers arrive as `priority host`. */
function satisfies(expected: DnsRecord, found: string): boolean {
  switch (expected.kind) {
    case 'ownership':
      return found.trim() === expected.value;
    case 'mx':
      return sameHost(found.trim().split(/\s+/).at(-1) ?? '', expected.value);
    case 'spf': {
      // Any SPF record that lets the mail host send: `mx` (the MX record above) or `a:<MX_HOST>`.
      const terms = found.trim().toLowerCase().split(/\s+/);
      const host = expected.value.match(/a:(\S+)/)![1]!.toLowerCase();
      return terms[0] === 'v=spf1' && terms.some((t) => /^[+]?mx$/.test(t) || t === `a:${host}` || t === `+a:${host}`);
    }
    case 'dkim':
      return tags(found).get('p') === tags(expected.value).get('p');
    case 'dmarc':
      return /^v=dmarc1\s*(;|$)/i.test(found.trim());
  }
}

export function judgeRecord(expected: DnsRecord, lookup: Lookup): RecordCheck {
  if (!lookup.ok) {
    return lookup.error === 'temporary'
      ? { kind: expected.kind, status: 'temperror', found: [], detail: `the lookup did not complete (${lookup.detail}); it is tried again at the next check` }
      : { kind: expected.kind, status: 'fail', found: [], detail: `no ${expected.type} record at ${expected.host}` };
  }
  const pass = lookup.answers.some((a) => satisfies(expected, a));
  return {
    kind: expected.kind,
    status: pass ? 'pass' : 'fail',
    found: lookup.answers,
    detail: pass ? null : `no ${expected.type} record at ${expected.host} matches the value to publish`,
  };
}

export type DomainStatus = 'pending' | 'verified' | 'degraded';

/**
 * Every required record passing verifies the domain. Otherwise a domain that was verified is
 * degraded (its inboxes keep working while the owner fixes DNS) and one never verified stays pending.
 */
export function statusAfterCheck(previous: DomainStatus, expected: DnsRecord[], checks: RecordCheck[]): DomainStatus {
  const required = expected.filter((r) => r.required).map((r) => r.kind);
  const ok = required.every((kind) => checks.find((c) => c.kind === kind)?.status === 'pass');
  if (ok) return 'verified';
  return previous === 'pending' ? 'pending' : 'degraded';
}
