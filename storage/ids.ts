import crypto from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/** Random base32 text; 5 bits of entropy per character. */
export function randomToken(length: number): string {
  const bytes = crypto.randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! & 31];
  return out;
}

/** An opaque typed id such as `agt_…`; clients must not parse it. */
export function newId(prefix: string): string {
  return `${prefix}_${randomToken(20)}`;
}
