// What a console member may do, by role, and what keys that member may mint. Pure: the caller
// passes the memberships it loaded.
import { Problem } from '../problems.ts';
import type { Permission } from './permissions.ts';

/** A member's role in an org or one of its projects. */
export type Role = 'owner' | 'admin' | 'member' | 'viewer' | 'billing';
export const ROLES: readonly Role[] = ['owner', 'admin', 'member', 'viewer', 'billing'];

/**
 * What an operation asks of the caller. `any`: signed in, member or not. `org_admin`: an owner
 * or admin of the whole org (a project's admin is not enough). `staff`: support staff
 * (SUPPORT_STAFF_EMAILS), which no membership role grants.
 */
export type ConsoleNeed = 'any' | 'read' | 'write' | 'admin' | 'org_admin' | 'billing' | 'staff';
export const CONSOLE_NEEDS: readonly ConsoleNeed[] = ['any', 'read', 'write', 'admin', 'org_admin', 'billing', 'staff'];

/** The role table: the roles each need admits. */
const ALLOWED: Record<ConsoleNeed, readonly Role[]> = {
  any: ROLES,
  read: ['owner', 'admin', 'member', 'viewer'],
  write: ['owner', 'admin', 'member'],
  admin: ['owner', 'admin'],
  org_admin: ['owner', 'admin'],
  billing: ['owner', 'admin', 'billing'],
  staff: [],
};

const RANK: Record<Role, number> = { owner: 4, admin: 3, member: 2, viewer: 1, billing: 0 };

type MembershipLike = { project_id: string | null; role: Role };

/**
 * The role that applies to a project (or to the org itself when projectId is null): the
 * strongest of the org-wide membership and, for a project, a membership in that project.
 * A project-only member sees the org read-only. Null when the user has no reach there.
 */
export function effectiveRole(memberships: MembershipLike[], projectId: string | null): Role | null {
  const applicable = memberships.filter((m) => m.project_id === null || projectId === null || m.project_id === projectId);
  if (applicable.length === 0) return null;
  const best = applicable.reduce((a, b) => (RANK[b.role] > RANK[a.role] ? b : a));
  if (projectId === null && best.project_id !== null) return 'viewer';
  return best.role;
}

/** The role of the caller's membership of the whole org, or null when it has only project ones. */
export function orgWideRole(memberships: MembershipLike[]): Role | null {
  return memberships.find((m) => m.project_id === null)?.role ?? null;
}

/** The roles a need admits, as the OpenAPI document lists them (`x-console-roles`). */
export const rolesAdmitted = (need: ConsoleNeed): readonly Role[] => ALLOWED[need];

export function roleAllows(role: Role, need: ConsoleNeed): boolean {
  return need === 'any' || ALLOWED[need].includes(role);
}

/** The stronger of two roles: accepting an invitation never lowers a role the user already holds. */
export function strongerRole(a: Role, b: Role): Role {
  return RANK[b] > RANK[a] ? b : a;
}

/**
 * Whether a member with role `actor` may give or take `role` (an owner's, or the owner role
 * itself): only owners hand out or take away ownership; admins manage everyone else.
 */
export function mayManageRole(actor: Role, role: Role): boolean {
  if (role === 'owner') return actor === 'owner';
  return actor === 'owner' || actor === 'admin';
}

// ---- Minting: a key (or an enrollment token) never carries more than its minter may do.

/**
 * For each permission, the console need of the act it allows: a member mints a key with it only
 * when that member's role may do the same on the console. `console` names the console operation
 * doing the same act (its role in CONSOLE_OPERATIONS must equal `need`, a test checks); where
 * there is none, `why` says how the need was chosen. `null`: nobody grants it.
 */
export const PERMISSION_GRANTS: Readonly<Record<Permission, { need: ConsoleNeed | null; console: string | null; why?: string }>> = {
  'mailbox:create': { need: 'write', console: 'adminCreateInbox' },
  'mailbox:read': { need: 'read', console: 'adminListMessages' },
  'mailbox:send': { need: 'write', console: 'adminDecideReview' },
  'mailbox:delete': { need: 'admin', console: 'adminDeleteInbox' },
  'mailbox:credentials': {
    need: 'admin',
    console: null,
    why: 'exported IMAP and SMTP credentials read and send as the inbox outside every key, like the inbox settings only an admin changes',
  },
  'mailbox:quota': { need: 'admin', console: 'adminUpdateInbox' },
  'webhook:write': { need: 'write', console: 'adminRegisterWebhook' },
  'domain:manage': { need: 'write', console: 'adminCreateDomain' },
  'commerce:request': { need: 'write', console: null, why: 'a request only, approved by a billing role; the contract gives it to members' },
  'review:act': { need: 'write', console: 'adminDecideReview' },
  'signup:verify': { need: null, console: null, why: 'held by temporary sign-up keys only' },
  'domain:purchase': { need: 'write', console: null, why: 'the legacy form of commerce:request' },
  'support:submit': { need: 'write', console: null, why: 'filing feedback writes a record, as members do' },
  'support:read': { need: 'read', console: 'adminListSupportCases' },
  'support:write': { need: 'write', console: null, why: "replying on the project's cases writes, as members do" },
};

export type KeyCeiling = 'org' | 'project' | 'inbox';

/** What each ceiling asks of the minter: an org key reaches every project of the org. */
export const CEILING_GRANTS: Readonly<Record<KeyCeiling, ConsoleNeed>> = { org: 'org_admin', project: 'write', inbox: 'write' };

/** The minter: its role where the key is minted (the path's project) and its org-wide role. */
export type Minter = { role: Role; org_role: Role | null };

/** The owner who created the org minting for it (bootstrap, benches): every grant is within reach. */
export const ORG_OWNER: Minter = { role: 'owner', org_role: 'owner' };

export type MintRefusal = { field: 'ceiling' | 'permissions'; code: 'exceeds_role'; detail: string };

/**
 * Why this minter may not mint a credential of this ceiling with these permissions; empty when
 * it may. An org-ceiling key counts the minter's org-wide role, the others its role in the project.
 */
export function mintRefusals(minter: Minter, ceiling: KeyCeiling, permissions: readonly string[]): MintRefusal[] {
  const out: MintRefusal[] = [];
  const ceilingNeed = CEILING_GRANTS[ceiling];
  const counted = ceilingNeed === 'org_admin' ? minter.org_role : minter.role;
  if (counted === null || !roleAllows(counted, ceilingNeed)) {
    out.push({ field: 'ceiling', code: 'exceeds_role', detail: `a key at the ${ceiling} ceiling needs ${ceilingNeed} (${ALLOWED[ceilingNeed].join(', ')})` });
  }
  for (const p of permissions) {
    const need = (PERMISSION_GRANTS as Record<string, { need: ConsoleNeed | null }>)[p]?.need ?? null;
    if (need === null || counted === null || !roleAllows(counted, need)) {
      out.push({ field: 'permissions', code: 'exceeds_role', detail: need === null ? `${p} is granted by no one` : `${p} needs ${need} (${ALLOWED[need].join(', ')})` });
    }
  }
  return out;
}

/** Refuses (403 forbidden_scope, naming each excess) what {@link mintRefusals} finds. */
export function assertMayMint(minter: Minter, ceiling: KeyCeiling, permissions: readonly string[]): void {
  const refusals = mintRefusals(minter, ceiling, permissions);
  if (refusals.length === 0) return;
  throw new Problem('forbidden_scope', {
    detail: `Your role may not mint this: ${refusals.map((r) => r.detail).join('; ')}.`,
    errors: refusals,
  });
}

/** The roles that may mint a key holding the permission (the document's `x-granted-by`). */
export const grantedBy = (p: Permission): readonly Role[] => {
  const need = PERMISSION_GRANTS[p].need;
  return need === null ? [] : ALLOWED[need];
};
