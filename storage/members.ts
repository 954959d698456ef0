// Org members (memberships with their users' emails) and invitations into an org.
import type { Executor } from './db.ts';
import type { Role } from '../machines/policy/console-roles.ts';

export type MemberRow = { user_id: string; email: string; project_id: string | null; role: Role; created_at: Date };

export async function listMembers(db: Executor, orgId: string): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    `SELECT m.user_id, u.email, m.project_id, m.role, m.created_at
       FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.org_id = $1 ORDER BY m.created_at, u.email, m.project_id NULLS FIRST`,
    [orgId],
  );
  return rows;
}

/** Emails of the org's owners and admins: org-wide, or of `projectId`. */
export async function orgAdminEmails(db: Executor, orgId: string, projectId: string): Promise<string[]> {
  const { rows } = await db.query<{ email: string }>(
    `SELECT DISTINCT u.email FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.org_id = $1 AND (m.project_id IS NULL OR m.project_id = $2) AND m.role IN ('owner', 'admin')
      ORDER BY u.email`,
    [orgId, projectId],
  );
  return rows.map((r) => r.email);
}

/** The org row, locked: changes to who owns the org run one at a time, so the last owner stays. */
export async function lockOrgMembers(db: Executor, orgId: string): Promise<void> {
  await db.query('SELECT 1 FROM orgs WHERE id = $1 FOR UPDATE', [orgId]);
}

/** The user's org-wide role (the membership with no project), or null. */
export async function orgWideRole(db: Executor, orgId: string, userId: string): Promise<Role | null> {
  const { rows } = await db.query<{ role: Role }>('SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2 AND project_id IS NULL', [orgId, userId]);
  return rows[0]?.role ?? null;
}

export async function countOwners(db: Executor, orgId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memberships WHERE org_id = $1 AND project_id IS NULL AND role = 'owner'", [orgId]);
  return rows[0]!.n;
}

export async function setOrgWideRole(db: Executor, orgId: string, userId: string, role: Role): Promise<void> {
  await db.query('UPDATE memberships SET role = $3 WHERE org_id = $1 AND user_id = $2 AND project_id IS NULL', [orgId, userId, role]);
}

/** Removes every membership of the user in the org; how many there were. */
export async function deleteMemberships(db: Executor, orgId: string, userId: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
  return rowCount ?? 0;
}

export type InvitationRow = {
  org_id: string;
  id: string;
  email: string;
  role: Role;
  token_hash: Buffer;
  expires_at: Date;
  invited_by: string;
  accepted_at: Date | null;
  accepted_by: string | null;
  revoked_at: Date | null;
  created_at: Date;
};

export async function insertInvitation(db: Executor, i: Omit<InvitationRow, 'accepted_at' | 'accepted_by' | 'revoked_at' | 'created_at'>): Promise<InvitationRow> {
  const { rows } = await db.query<InvitationRow>(
    `INSERT INTO invitations (org_id, id, email, role, token_hash, expires_at, invited_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [i.org_id, i.id, i.email, i.role, i.token_hash, i.expires_at, i.invited_by],
  );
  return rows[0]!;
}

export async function listInvitations(db: Executor, orgId: string): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationRow>('SELECT * FROM invitations WHERE org_id = $1 ORDER BY created_at DESC, id DESC', [orgId]);
  return rows;
}

export async function lockInvitation(db: Executor, id: string): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>('SELECT * FROM invitations WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ?? null;
}

export async function markInvitationAccepted(db: Executor, orgId: string, id: string, userId: string): Promise<InvitationRow> {
  const { rows } = await db.query<InvitationRow>(
    'UPDATE invitations SET accepted_at = now(), accepted_by = $3 WHERE org_id = $1 AND id = $2 RETURNING *',
    [orgId, id, userId],
  );
  return rows[0]!;
}

/** Revokes an invitation not accepted yet; false when there is none such. */
export async function revokeInvitation(db: Executor, orgId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE invitations SET revoked_at = coalesce(revoked_at, now()) WHERE org_id = $1 AND id = $2 AND accepted_at IS NULL',
    [orgId, id],
  );
  return (rowCount ?? 0) > 0;
}

/** A fresh token and expiry for an invitation not accepted or revoked; the old token stops working. */
export async function reissueInvitation(db: Executor, orgId: string, id: string, tokenHash: Buffer, expiresAt: Date): Promise<InvitationRow> {
  const { rows } = await db.query<InvitationRow>(
    'UPDATE invitations SET token_hash = $3, expires_at = $4 WHERE org_id = $1 AND id = $2 RETURNING *',
    [orgId, id, tokenHash, expiresAt],
  );
  return rows[0]!;
}
