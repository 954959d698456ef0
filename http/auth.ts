// Authentication for both planes. The agent plane's tenant comes from the key alone; the
// console plane's authority from the caller's membership in the org and project of the path.
import { canonicalAgentKey, ceilingOfPresented, parseAgentKey } from '../actors/credentials.ts';
import { effectiveRole, orgWideRole, roleAllows, type ConsoleNeed, type Role } from '../machines/policy/console-roles.ts';
import { grantsAny } from '../machines/policy/permissions.ts';
import { findApiKeyForAuth, type Ceiling } from '../storage/api-keys.ts';
import type { Executor, Pool } from '../storage/db.ts';
import type { WindowCounts } from '../storage/rate-limit.ts';
import { sha256, matchesHash } from '../storage/secrets.ts';
import { findProject, membershipsOf } from '../storage/tenancy.ts';
import { InvalidSessionError, type ConsoleIdentity, type IdentityProvider } from '../service/identity.ts';
import { Problem } from '../machines/problems.ts';

export type AgentAuth = {
  org_id: string;
  /** null only for an org-ceiling key. */
  project_id: string | null;
  agent_id: string;
  key_id: string;
  ceiling: Ceiling;
  inbox_id: string | null;
  kind: 'agent' | 'temporary';
  permissions: string[];
  expires_at: Date | null;
  /** A temporary sign-up key already revoked or expired, let through to the verify call only. */
  spent?: { revoked: boolean; expired: boolean };
};

export type ConsoleAuth = ConsoleIdentity & {
  org_id: string | null;
  project_id: string | null;
  /** The role that applies to the path's project (or org). */
  role: Role | null;
  /** The role of the caller's membership of the whole org; null for a project-only member. */
  org_role: Role | null;
};

const unauthorized = (detail: string) =>
  new Problem('unauthorized', { detail, headers: { 'WWW-Authenticate': 'Bearer realm="agent-inbox"' } });

export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1]! : null;
}

// Digest compared when the key id is unknown, so a miss costs the same as a wrong secret.
const DECOY = sha256('decoy');

/** The key's authority, and its requests in the current rate window (this one counted). */
export async function authenticateAgent(
  db: Pool,
  header: string | undefined,
  now: Date,
  opts: { spentSignupKey?: boolean } = {},
): Promise<{ auth: AgentAuth; window: WindowCounts }> {
  const raw = bearerToken(header);
  if (!raw) throw unauthorized('Send the agent key as "Authorization: Bearer pk_agent_...".');
  if (raw.startsWith('pk_enroll_')) {
    throw unauthorized('An enrollment token is not an agent key; redeem it at POST /v1/enroll.');
  }
  const presented = parseAgentKey(raw);
  const claimed = presented ? canonicalAgentKey(presented, ceilingOfPresented(presented)) : null;
  const row = presented && claimed ? await findApiKeyForAuth(db, presented.id, { digest: sha256(claimed), now }) : null;
  const canonical = row && presented ? canonicalAgentKey(presented, row.ceiling) : null;
  const matches = matchesHash(canonical ?? raw, row && canonical ? row.key_hash : DECOY);
  if (!row || !canonical || !matches) throw unauthorized('The agent key is not valid.');
  const revoked = row.revoked_at !== null;
  const expired = row.expires_at !== null && row.expires_at <= now;
  // The verify call answers a spent temporary key itself: a replay of the verification that
  // spent it, or why it no longer works (expired, locked).
  const spentAllowed = opts.spentSignupKey === true && row.kind === 'temporary';
  if (revoked && !spentAllowed) throw unauthorized('The agent key was revoked.');
  if (expired && !spentAllowed) throw unauthorized('The agent key has expired.');
  if (row.agent_status !== 'active') throw unauthorized('The agent of this key is disabled.');
  const auth: AgentAuth = {
    org_id: row.org_id,
    project_id: row.project_id,
    agent_id: row.agent_id,
    key_id: row.id,
    ceiling: row.ceiling,
    inbox_id: row.inbox_id,
    kind: row.kind,
    permissions: row.permissions,
    expires_at: row.expires_at,
    ...(revoked || expired ? { spent: { revoked, expired } } : {}),
  };
  return { auth, window: row.window ?? { current: 1, previous: 0, elapsed: 0 } };
}

export function requirePermission(auth: AgentAuth, accepted: string[]): void {
  // A temporary sign-up key verifies its code and nothing else, even where any key would do.
  if (auth.kind === 'temporary' && !accepted.includes('signup:verify')) {
    throw new Problem('forbidden_scope', {
      detail: 'A temporary sign-up key may only verify its code (POST /v1/agent/verify); use the agent key that verification returns.',
      errors: [{ field: 'permission', code: 'missing', detail: accepted.join(' or ') || 'an agent key' }],
    });
  }
  if (!grantsAny(auth.permissions, accepted)) {
    throw new Problem('forbidden_scope', {
      detail: `This call needs the permission ${accepted.join(' or ')}, which the key does not hold.`,
      errors: [{ field: 'permission', code: 'missing', detail: accepted.join(' or ') }],
    });
  }
}

/** A project id the client asserts must be the key's own project. */
export function checkProjectAssertion(auth: AgentAuth, asserted: unknown): void {
  if (asserted === undefined || asserted === null || asserted === '') return;
  if (auth.project_id !== null && asserted !== auth.project_id) {
    throw new Problem('forbidden_scope', {
      detail: 'The asserted project_id is not the project this key is bound to.',
      errors: [{ field: 'project_id', code: 'mismatch', detail: 'must equal the key\'s project' }],
    });
  }
}

/**
 * A bearer token, or else the web console's session cookie (HttpOnly, SameSite=Strict, so no
 * other site's page can send it).
 */
export async function authenticateConsole(identity: IdentityProvider, header: string | undefined, cookie?: string): Promise<ConsoleIdentity> {
  const token = bearerToken(header) ?? (cookie || null);
  if (!token) throw unauthorized('Send the console session token as "Authorization: Bearer <token>", or sign in to the console.');
  try {
    return await identity.verify(token);
  } catch (err) {
    if (err instanceof InvalidSessionError) throw unauthorized(`The session token is not valid: ${err.message}.`);
    throw err;
  }
}

/**
 * The caller's role for the org and project of the path. An org or project the caller has no
 * membership in is 404, as if it did not exist; a role too weak for the operation is 403. The
 * need comes from the one table of console operations (machines/policy/console-operations.ts);
 * `org_admin` counts the org-wide membership only, `staff` the support staff list.
 */
export async function authorizeConsole(
  db: Executor,
  who: ConsoleIdentity,
  orgId: string | null,
  projectId: string | null,
  need: ConsoleNeed,
  staff: readonly string[] = [],
): Promise<ConsoleAuth> {
  if (need === 'staff' && !staff.includes(who.email.toLowerCase())) {
    throw new Problem('forbidden_scope', { detail: 'Only support staff (SUPPORT_STAFF_EMAILS) may use the staff surface.' });
  }
  if (orgId === null) return { ...who, org_id: null, project_id: null, role: null, org_role: null };
  const memberships = await membershipsOf(db, who.email, orgId);
  const role = effectiveRole(memberships, projectId);
  if (role === null) throw new Problem('not_found', { detail: 'No such org or project.' });
  if (projectId !== null && !(await findProject(db, orgId, projectId))) {
    throw new Problem('not_found', { detail: 'No such org or project.' });
  }
  const org_role = orgWideRole(memberships);
  const counted = need === 'org_admin' ? org_role : role;
  if (counted === null || !roleAllows(counted, need)) {
    const whose = need === 'org_admin' ? `The org-wide role ${counted ?? '(none, a project membership only)'}` : `The role ${role}`;
    throw new Problem('forbidden_scope', { detail: `${whose} may not do this; it needs ${need} access.` });
  }
  return { ...who, org_id: orgId, project_id: projectId, role, org_role };
}
