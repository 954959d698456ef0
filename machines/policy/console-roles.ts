// What a console member may do, by role. Pure: the caller passes the memberships it loaded.

/** A member's role in an org or one of its projects. */
export type Role = 'owner' | 'admin' | 'member' | 'viewer' | 'billing';

export type ConsoleNeed = 'any' | 'read' | 'write' | 'admin' | 'billing';

const ALLOWED: Record<Exclude<ConsoleNeed, 'any'>, readonly Role[]> = {
  read: ['owner', 'admin', 'member', 'viewer'],
  write: ['owner', 'admin', 'member'],
  admin: ['owner', 'admin'],
  billing: ['owner', 'admin', 'billing'],
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
