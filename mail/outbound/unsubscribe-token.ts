// Signed unsubscribe tokens for List-Unsubscribe links: they name a sent review, and only this
// service can make one (HMAC-SHA256 with a key derived from the service's encryption key).
import crypto from 'node:crypto';

export type UnsubscribeClaim = { org_id: string; review_id: string };

/** A key for this one purpose, so a token can never be confused with another use of the master key. */
export function unsubscribeKey(master: Buffer): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', master, Buffer.alloc(0), 'agent-inbox unsubscribe token v1', 32));
}

const mac = (key: Buffer, payload: string) => crypto.createHmac('sha256', key).update(payload).digest('base64url');

export function signUnsubscribeToken(key: Buffer, claim: UnsubscribeClaim): string {
  const payload = Buffer.from(JSON.stringify({ o: claim.org_id, r: claim.review_id })).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/** The claim of a token this service signed; null for anything else. */
export function verifyUnsubscribeToken(key: Buffer, token: string): UnsubscribeClaim | null {
  const m = /^([A-Za-z0-9_-]{1,512})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expected = Buffer.from(mac(key, m[1]!));
  const given = Buffer.from(m[2]!);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  try {
    const v = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
    if (typeof v?.o === 'string' && typeof v?.r === 'string') return { org_id: v.o, review_id: v.r };
  } catch {
    // not ours
  }
  return null;
}
