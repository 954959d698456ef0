// The return path (envelope MAIL FROM) of a sent mail: a VERP-style address on the sending
// inbox's domain that names the review and carries an HMAC only this service can make, so a
// bounce or a complaint sent back to it is tied to its send without trusting anything the
// report itself says. `bounce+<review id>.<mac>@<domain>`: 47 characters of local part, under
// RFC 5321's 64, lower case only (some MTAs lower-case local parts), and no `=`, which some
// relays rewrite in VERP addresses of their own.
//
// One address a send, not one a recipient: a send goes to the relay as one SMTP transaction, so
// the relay's exactly-once bookkeeping (actors/delivery.ts) stays as it is; the recipient is read
// from the report and must be one the review sent to.
import crypto from 'node:crypto';
import type { Config } from '../../service/config.ts';
import { encryptionKey } from '../../service/encryption.ts';

const LOCAL = /^bounce\+(rr_[0-9a-z]{20})\.([0-9a-f]{16})$/;

/** A key for this one purpose, derived from the service's encryption key. */
export function returnPathKey(master: Buffer): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', master, Buffer.alloc(0), 'agent-inbox return path v1', 32));
}

const mac = (key: Buffer, reviewId: string, domain: string) =>
  crypto.createHmac('sha256', key).update(`${reviewId}@${domain.toLowerCase()}`).digest('hex').slice(0, 16);

export function returnPathOf(key: Buffer, reviewId: string, domain: string): string {
  return `bounce+${reviewId}.${mac(key, reviewId, domain)}@${domain.toLowerCase()}`;
}

/** Whether an address has the return path's shape, before any key is at hand (cheap, for RCPT TO). */
export const looksLikeReturnPath = (address: string): boolean => address.toLowerCase().startsWith('bounce+');

/** The review a return path names, when this service signed it; null for anything else. */
export function verifyReturnPath(key: Buffer, address: string): { review_id: string; domain: string } | null {
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase();
  const m = LOCAL.exec(local);
  if (!m) return null;
  const expected = Buffer.from(mac(key, m[1]!, domain));
  const given = Buffer.from(m[2]!);
  if (!crypto.timingSafeEqual(expected, given)) return null;
  return { review_id: m[1]!, domain };
}

const keys = new WeakMap<Config, Buffer>();
/** The key signing return paths (mail/outbound/return-path.ts), derived once per config. */
export function returnPathKeyOf(config: Config): Buffer {
  let key = keys.get(config);
  if (!key) keys.set(config, (key = returnPathKey(encryptionKey(config))));
  return key;
}
