import type { Executor } from './db.ts';
import type { Role } from '../machines/policy/console-roles.ts';

export type Org = {
  id: string;
  name: string;
  plan_tier: string;
  default_review_policy: 'require_review' | 'allow_direct';
  settings: Record<string, unknown>;
  created_at: Date;
};
export type Project = { org_id: string; id: string; name: string; created_at: Date };
export type Membership = { org_id: string; user_id: string; project_id: string | null; role: Role };

export async function insertOrg(db: Executor, org: { id: string; name: string; plan_tier: string }): Promise<Org> {
  const { rows } = await db.query<Org>(
    'INSERT INTO orgs (id, name, plan_tier) VALUES ($1, $2, $3) RETURNING *',
    [org.id, org.name, org.plan_tier],
  );
  return rows[0]!;
}

export async function findOrg(db: Executor, id: string): Promise<Org | null> {
  const { rows } = await db.query<Org>('SELECT * FROM orgs WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function insertProject(db: Executor, p: { org_id: string; id: string; name: string }): Promise<Project> {
  const { rows } = await db.query<Project>(
    'INSERT INTO projects (org_id, id, name) VALUES ($1, $2, $3) RETURNING *',
    [p.org_id, p.id, p.name],
  );
  return rows[0]!;
}

export async function findProject(db: Executor, orgId: string, id: string): Promise<Project | null> {
  const { rows } = await db.query<Project>('SELECT * FROM projects WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0] ?? null;
}

export async function listProjects(db: Executor, orgId: string): Promise<Project[]> {
  const { rows } = await db.query<Project>('SELECT * FROM projects WHERE org_id = $1 ORDER BY created_at, id', [orgId]);
  return rows;
}

/** The user with this email, created on first sight. Emails are compared lower-cased. */
export async function upsertUser(db: Executor, id: string, email: string): Promise<{ id: string; email: string }> {
  const { rows } = await db.query<{ id: string; email: string }>(
    `INSERT INTO users (id, email) VALUES ($1, lower($2))
     ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
     RETURNING id, email`,
    [id, email],
  );
  return rows[0]!;
}

export async function insertMembership(db: Executor, m: Membership): Promise<void> {
  await db.query(
    `INSERT INTO memberships (org_id, user_id, project_id, role) VALUES ($1, $2, $3, $4)
     ON CONFLICT (org_id, user_id, coalesce(project_id, '')) DO UPDATE SET role = EXCLUDED.role`,
    [m.org_id, m.user_id, m.project_id, m.role],
  );
}

/** Memberships of the user with this email in one org (org-wide and per-project rows). */
export async function membershipsOf(db: Executor, email: string, orgId: string): Promise<Membership[]> {
  const { rows } = await db.query<Membership>(
    `SELECT m.org_id, m.user_id, m.project_id, m.role
       FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE u.email = lower($1) AND m.org_id = $2`,
    [email, orgId],
  );
  return rows;
}

/** Sets the org's name and merges the other settings fields given; the updated org. */
export async function updateOrgSettings(db: Executor, orgId: string, name: string | undefined, settings: Record<string, unknown>): Promise<Org | null> {
  const { rows } = await db.query<Org>(
    'UPDATE orgs SET name = coalesce($2, name), settings = settings || $3::jsonb WHERE id = $1 RETURNING *',
    [orgId, name ?? null, JSON.stringify(settings)],
  );
  return rows[0] ?? null;
}

/** The email addresses of the org's owners. */
export async function ownerEmails(db: Executor, orgId: string): Promise<string[]> {
  const { rows } = await db.query<{ email: string }>(
    `SELECT DISTINCT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND m.role = 'owner' ORDER BY u.email`,
    [orgId],
  );
  return rows.map((r) => r.email);
}

/** Changes the org's plan tier; false when there is no such org. */
export async function setPlanTier(db: Executor, orgId: string, tier: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE orgs SET plan_tier = $2 WHERE id = $1', [orgId, tier]);
  return rowCount === 1;
}

/** The org's first project (events about the org as a whole are filed under it). */
export async function firstProjectOf(db: Executor, orgId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM projects WHERE org_id = $1 ORDER BY created_at, id LIMIT 1', [orgId]);
  return rows[0]?.id ?? null;
}

/** People with any membership in the org: what the plan's member limit counts. */
export async function countMembersOfOrg(db: Executor, orgId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(DISTINCT user_id)::int AS n FROM memberships WHERE org_id = $1', [orgId]);
  return rows[0]!.n;
}

/** Every membership of the user with this email, with its org's name, for the console's org picker. */
export async function membershipsByEmail(db: Executor, email: string): Promise<Array<Membership & { org_name: string }>> {
  const { rows } = await db.query<Membership & { org_name: string }>(
    `SELECT m.org_id, m.user_id, m.project_id, m.role, o.name AS org_name
       FROM memberships m JOIN users u ON u.id = m.user_id JOIN orgs o ON o.id = m.org_id
      WHERE u.email = lower($1)
      ORDER BY o.created_at, o.id`,
    [email],
  );
  return rows;
}
