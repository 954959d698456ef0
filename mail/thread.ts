// Threading helpers. Storage does the lookups; these only say what to compare and look up.

export interface ThreadHeaders {
  message_id: string | null;
  in_reply_to: string | null;
  references: string[];
}

// Reply and forward prefixes as mail clients write them, in several languages:
// Re, Fw, Fwd (English), AW, WG (German), SV, VS (Nordic), Antw (Dutch), TR (French),
// RIF (Italian), Odp (Polish), YNT (Turkish), 回复/答复/转发 (Chinese). "Re[2]:" and "Re(2):" count too.
// Sticky, and applied from a moving position, so a subject of thousands of "Re: " is read once.
const PREFIX = /(?:re|fwd?|aw|wg|sv|vs|antw|tr|rif|odp|ynt|回复|答复|转发)(?:\[\d{1,4}\]|\(\d{1,4}\))?\s?[:：]\s*/iy;
const LIST_TAG = /\[[^\][]{1,64}\]\s*/y;

// A References header can list hundreds of ids; the newest few are enough to find the thread.
const MAX_LOOKUP_KEYS = 50;
// A Message-ID fits on one header line (998 octets, RFC 5322); a longer one is not a real id, and
// as a thread key it would pass the size of a btree entry (about 2.7 KB) and fail the insert.
const MAX_KEY_BYTES = 998;

/** Whether a normalized Message-ID can serve as a thread key. */
export const usableThreadKey = (key: string): boolean => key !== '' && Buffer.byteLength(key) <= MAX_KEY_BYTES;

/** Subject for grouping: reply/forward prefixes and [list] tags removed, whitespace collapsed, lower-cased. */
export function normalizeSubject(subject: string): string {
  const text = subject.normalize('NFC').replace(/\s+/g, ' ').trim();
  let position = 0;
  for (;;) {
    const next = stickyMatchEnd(PREFIX, text, position) ?? stickyMatchEnd(LIST_TAG, text, position);
    if (next === null) break;
    position = next;
  }
  return text.slice(position).toLowerCase();
}

function stickyMatchEnd(pattern: RegExp, text: string, position: number): number | null {
  pattern.lastIndex = position;
  return pattern.test(text) ? pattern.lastIndex : null;
}

/** Canonical `<id>` form, so that `<A@b>`, `A@b` and ` <A@b> ` compare equal. '' when there is no id. */
export function normalizeMessageId(id: string): string {
  let start = 0;
  let end = id.length;
  while (start < end && (id[start] === '<' || /\s/.test(id[start]!))) start++;
  while (end > start && (id[end - 1] === '>' || /\s/.test(id[end - 1]!))) end--;
  return start < end ? `<${id.slice(start, end)}>` : '';
}

function idsIn(value: string): string[] {
  const bracketed = value.match(/<[^<>]{1,998}>/g);
  if (bracketed) return bracketed;
  return value.split(/\s+/).filter((token) => token.includes('@'));
}

/**
 * The Message-IDs to look up to place a message in a thread, best first: In-Reply-To,
 * then References from newest (last) to oldest. Normalized, without duplicates or the
 * message's own id.
 */
export function threadLookupKeys(headers: ThreadHeaders): string[] {
  const own = headers.message_id ? normalizeMessageId(headers.message_id) : '';
  const candidates = [
    ...(headers.in_reply_to ? idsIn(headers.in_reply_to) : []),
    ...headers.references.slice(-MAX_LOOKUP_KEYS).reverse(),
  ];
  const keys: string[] = [];
  for (const candidate of candidates) {
    const key = normalizeMessageId(candidate);
    if (usableThreadKey(key) && key !== own && !keys.includes(key)) keys.push(key);
    if (keys.length === MAX_LOOKUP_KEYS) break;
  }
  return keys;
}
