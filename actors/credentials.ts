// Raw credential formats. A raw secret exists only in the response that shows it once;
// storage keeps its SHA-256.
import { randomToken } from '../storage/ids.ts';
import { sha256 } from '../storage/secrets.ts';
import type { Ceiling } from '../storage/api-keys.ts';

const AGENT_PREFIX: Record<Ceiling, string> = { org: 'pk_agent_org_', project: 'pk_agent_', inbox: 'pk_agent_inbox_' };
// Longest first, so `pk_agent_org_…` is not read as a project key with id `org`.
const ACCEPTED_AGENT_PREFIXES = ['pk_agent_inbox_', 'pk_agent_proj_', 'pk_agent_org_', 'pk_agent_'];
const ENROLL_PREFIX = 'pk_enroll_';
const INVITE_PREFIX = 'pk_invite_';
const PART = /^[0-9a-z]+$/;

export type MintedSecret = { id: string; raw: string; prefix: string; hash: Buffer };

export function mintAgentKey(ceiling: Ceiling): MintedSecret {
  const idPart = randomToken(16);
  const prefix = `${AGENT_PREFIX[ceiling]}${idPart}`;
  const raw = `${prefix}_${randomToken(32)}`;
  return { id: `key_${idPart}`, raw, prefix, hash: sha256(raw) };
}

export function mintEnrollmentToken(): MintedSecret {
  const idPart = randomToken(16);
  const prefix = `${ENROLL_PREFIX}${idPart}`;
  const raw = `${prefix}_${randomToken(32)}`;
  return { id: `enr_${idPart}`, raw, prefix, hash: sha256(raw) };
}

/** A new invitation token, or a fresh secret for an existing invitation `inv_<id>` (a resend). */
export function mintInvitationToken(existingId?: string): MintedSecret {
  const idPart = existingId ? existingId.slice('inv_'.length) : randomToken(16);
  const prefix = `${INVITE_PREFIX}${idPart}`;
  const raw = `${prefix}_${randomToken(32)}`;
  return { id: `inv_${idPart}`, raw, prefix, hash: sha256(raw) };
}

/** The invitation id a presented token names, or null when it is not one at all. */
export function invitationTokenId(raw: string): string | null {
  if (!raw.startsWith(INVITE_PREFIX)) return null;
  const idPart = split(raw, INVITE_PREFIX);
  return idPart ? `inv_${idPart}` : null;
}

function split(raw: string, prefix: string): string | null {
  const rest = raw.slice(prefix.length);
  const [idPart, secret, ...extra] = rest.split('_');
  if (extra.length || !idPart || !secret || !PART.test(idPart) || !PART.test(secret)) return null;
  return idPart;
}

export type PresentedAgentKey = { id: string; prefix: string; idPart: string; secret: string };

/** Splits a presented agent key, or null when it is not one at all. */
export function parseAgentKey(raw: string): PresentedAgentKey | null {
  const prefix = ACCEPTED_AGENT_PREFIXES.find((p) => raw.startsWith(p));
  if (!prefix) return null;
  const idPart = split(raw, prefix);
  if (!idPart) return null;
  return { id: `key_${idPart}`, prefix, idPart, secret: raw.slice(prefix.length + idPart.length + 1) };
}

/** The ceiling a presented key's prefix names (`pk_agent_` and `pk_agent_proj_` are project keys). */
export function ceilingOfPresented(key: PresentedAgentKey): Ceiling {
  return key.prefix === AGENT_PREFIX.inbox ? 'inbox' : key.prefix === AGENT_PREFIX.org ? 'org' : 'project';
}

/**
 * The key as minted, whose digest is stored; null when the presented prefix does not belong to
 * the key's ceiling. `pk_agent_proj_` is the accepted compatibility form of a project key.
 */
export function canonicalAgentKey(key: PresentedAgentKey, ceiling: Ceiling): string | null {
  const fits = key.prefix === AGENT_PREFIX[ceiling] || (ceiling === 'project' && key.prefix === 'pk_agent_proj_');
  return fits ? `${AGENT_PREFIX[ceiling]}${key.idPart}_${key.secret}` : null;
}

export function enrollmentTokenId(raw: string): string | null {
  if (!raw.startsWith(ENROLL_PREFIX)) return null;
  const idPart = split(raw, ENROLL_PREFIX);
  return idPart ? `enr_${idPart}` : null;
}
