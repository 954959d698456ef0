// Signed reply addresses: a review notification's Reply-To names one decision link (one review,
// one revision, one member) as `decide+<link>.<signature>@<INBOX_DOMAIN>`. Inbox local parts never
// hold a `+`, so no inbox can own such an address; one whose signature does not verify is unknown.
import crypto from 'node:crypto';
import type { ParsedMail } from '../parse.ts';
import type { Authentication } from './authentication.ts';

const PREFIX = 'decide+';

const signature = (key: Buffer, idPart: string) => crypto.createHmac('sha256', key).update(`reply:${idPart}`).digest('hex').slice(0, 24);

export function replyAddress(key: Buffer, domain: string, idPart: string): string {
  return `${PREFIX}${idPart}.${signature(key, idPart)}@${domain}`;
}

/** The link id part a reply address names, when it is one this service signed; else null. */
export function replyLinkPart(key: Buffer, domain: string, address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  const local = address.slice(0, at).toLowerCase();
  if (!local.startsWith(PREFIX)) return null;
  const [idPart, sig, ...rest] = local.slice(PREFIX.length).split('.');
  if (rest.length || !idPart || !sig || !/^[0-9a-z]+$/.test(idPart)) return null;
  const expected = Buffer.from(signature(key, idPart));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? idPart : null;
}

/** A message to signed reply addresses, with the verdicts inbound SMTP computed for it. */
export type ReplyMessage = {
  raw: Buffer;
  parsed: ParsedMail;
  /** The reply addresses among its recipients. */
  to: string[];
  envelope_from: string | null;
  authentication: Authentication | null;
};

/** Takes replies instead of an inbox: wired in by the process that runs inbound SMTP. */
export type ReplyHandler = {
  accepts(address: string): boolean;
  take(m: ReplyMessage): Promise<void>;
};
