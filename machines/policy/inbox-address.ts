// Local parts of inbox addresses: which a caller may choose, and the one generated when none is given.

const LOCAL_PART = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;
// Role addresses RFC 2142 expects a domain's operator to answer, never an agent.
const RESERVED = new Set(['postmaster', 'abuse', 'mailer-daemon', 'hostmaster', 'webmaster', 'root', 'security']);

export type UsernameCheck = { ok: true; local: string } | { ok: false; reason: string };

export function checkUsername(username: string): UsernameCheck {
  const local = username.trim().toLowerCase();
  if (!LOCAL_PART.test(local) || local.includes('..')) {
    return { ok: false, reason: 'use 1-64 of a-z, 0-9, ".", "_" and "-", starting and ending with a letter or digit' };
  }
  if (RESERVED.has(local)) return { ok: false, reason: `"${local}" is reserved for the domain's operator` };
  return { ok: true, local };
}

/**
 * A local part for an inbox created without a username: the display name as a slug (when it
 * has one) and a random suffix, so addresses read well and are not guessable.
 */
export function generatedLocalPart(displayName: string | null | undefined, suffix: string): string {
  const slug = (displayName ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return `${slug || 'agent'}-${suffix}`;
}

export function addressOf(local: string, domain: string): string {
  return `${local}@${domain.toLowerCase()}`;
}
