import crypto from 'node:crypto';

export function sha256(value: string): Buffer {
  return crypto.createHash('sha256').update(value).digest();
}

/** Constant-time comparison of a presented secret with a stored SHA-256 digest. */
export function matchesHash(presented: string, stored: Buffer): boolean {
  const digest = sha256(presented);
  return digest.length === stored.length && crypto.timingSafeEqual(digest, stored);
}
