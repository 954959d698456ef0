// The send, reply and forward body beyond what the schema checks: the deprecated `body` alias of
// `text`, recipients given as a string or a list, and their limits.
import addressparser from 'nodemailer/lib/addressparser';

export type Recipient = { name: string; email: string };

/** To plus cc of one send (decisions.md, numbers). */
export const MAX_RECIPIENTS = 50;

const EMAIL = /^[^\s@<>()",;:\\[\]]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

export type TextAlias = { ok: true; text: string | undefined } | { ok: false; detail: string };

/** `body` is the deprecated spelling of `text`; both with different content is `conflicting_alias`. */
export function resolveTextAlias(input: { text?: string; body?: string }): TextAlias {
  if (input.text !== undefined && input.body !== undefined && input.text !== input.body) {
    return { ok: false, detail: 'text and body (its deprecated alias) were both given with different content; send only text.' };
  }
  return { ok: true, text: input.text ?? input.body };
}

export type ParsedRecipients = { recipients: Recipient[]; invalid: string[] };

/**
 * Recipients as the caller may write them: one string (`a@x, "B" <b@y>`), a list of such
 * strings, or a list of `{email, name?}`. Each address once (first spelling kept), lower-cased.
 */
export function parseRecipients(value: unknown): ParsedRecipients {
  const entries = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  const recipients: Recipient[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  const add = (name: string, email: string, raw: string) => {
    const normalized = email.trim().toLowerCase();
    if (!isEmail(normalized)) {
      invalid.push(raw);
      return;
    }
    if (seen.has(normalized)) return;
    seen.add(normalized);
    recipients.push({ name: name.trim(), email: normalized });
  };
  for (const entry of entries) {
    if (typeof entry === 'string') {
      const parsed = addressparser(entry, { flatten: true });
      if (parsed.length === 0 && entry.trim() !== '') invalid.push(entry);
      for (const a of parsed) add(a.name ?? '', a.address ?? '', a.address || a.name || entry);
    } else if (entry && typeof entry === 'object' && typeof (entry as Recipient).email === 'string') {
      const r = entry as { email: string; name?: unknown };
      add(typeof r.name === 'string' ? r.name : '', r.email, r.email);
    } else {
      invalid.push(JSON.stringify(entry));
    }
  }
  return { recipients, invalid };
}
