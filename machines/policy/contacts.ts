// The inbox's contact list and the project's suppression list, applied to the recipients of an
// outbound send. Checked before the intent gate: a blocked or suppressed recipient wins over
// intent_required. Order: block entries, then allowlist mode, then suppression.

export type ContactKind = 'allow' | 'block';
export type ContactDirection = 'send' | 'receive';

export interface ContactEntry {
  kind: ContactKind;
  /** A bare email address (matched in full) or a bare domain (every address in it). */
  pattern: string;
  /** Default `send`. Only `send` is enforced; `receive` is stored for forward compatibility. */
  direction?: ContactDirection;
}

export type RecipientRejection =
  | { code: 'recipient_blocked'; addresses: string[] }
  | { code: 'recipient_suppressed'; addresses: string[] };

const normalize = (value: string): string => value.trim().toLowerCase();

function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : address.slice(at + 1);
}

/**
 * A domain pattern compares the whole domain part, so `example.com` covers `a@example.com`
 * but neither `a@evil-example.com` nor `a@mail.example.com`.
 */
export function matchesPattern(address: string, pattern: string): boolean {
  const addr = normalize(address);
  const pat = normalize(pattern).replace(/^@/, '');
  if (pat === '') return false;
  return pat.includes('@') ? addr === pat : domainOf(addr) === pat;
}

/** Each offending address once, as the caller wrote it, in recipient order. */
function offending(recipients: readonly string[], isOffending: (address: string) => boolean): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const recipient of recipients) {
    const key = normalize(recipient);
    if (seen.has(key) || !isOffending(recipient)) continue;
    seen.add(key);
    out.push(recipient.trim());
  }
  return out;
}

export function checkRecipients(input: {
  recipients: readonly string[];
  contacts: readonly ContactEntry[];
  suppressed: Iterable<string>;
}): RecipientRejection | null {
  const enforced = input.contacts.filter((entry) => (entry.direction ?? 'send') === 'send');
  const blocks = enforced.filter((entry) => entry.kind === 'block');
  const allows = enforced.filter((entry) => entry.kind === 'allow');
  const matchesAny = (entries: readonly ContactEntry[]) => (address: string) =>
    entries.some((entry) => matchesPattern(address, entry.pattern));

  const blocked = offending(input.recipients, matchesAny(blocks));
  if (blocked.length > 0) return { code: 'recipient_blocked', addresses: blocked };

  // Allowlist mode: one allow entry restricts sends to recipients matching some allow entry.
  if (allows.length > 0) {
    const outside = offending(input.recipients, (address) => !matchesAny(allows)(address));
    if (outside.length > 0) return { code: 'recipient_blocked', addresses: outside };
  }

  // Name only the suppressed addresses, so the request can be retried without them.
  const suppressed = new Set([...input.suppressed].map(normalize));
  const optedOut = offending(input.recipients, (address) => suppressed.has(normalize(address)));
  if (optedOut.length > 0) return { code: 'recipient_suppressed', addresses: optedOut };

  return null;
}
