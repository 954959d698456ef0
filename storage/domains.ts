import type { DomainStatus, RecordCheck } from '../machines/policy/domain-records.ts';
import type { Executor } from './db.ts';

export type DomainRow = {
  org_id: string;
  project_id: string;
  id: string;
  name: string;
  status: DomainStatus;
  verification_token: string;
  dkim_selector: string;
  dkim_public_key: string;
  dkim_private_key: Buffer;
  checks: RecordCheck[];
  checked_at: Date | null;
  verified_at: Date | null;
  created_at: Date;
};

export type DomainWithUse = DomainRow & { inbox_count: number };

const WITH_USE = `SELECT d.*, (SELECT count(*)::int FROM inboxes i WHERE i.org_id = d.org_id AND i.project_id = d.project_id AND i.domain = d.name) AS inbox_count
                    FROM domains d`;

export async function listDomains(db: Executor, orgId: string, projectId: string): Promise<DomainWithUse[]> {
  const { rows } = await db.query<DomainWithUse>(`${WITH_USE} WHERE d.org_id = $1 AND d.project_id = $2 ORDER BY d.created_at, d.id`, [orgId, projectId]);
  return rows;
}

/** By name or by id (`dom_...`), within the project. */
export async function findDomain(db: Executor, orgId: string, projectId: string, nameOrId: string, lock = false): Promise<DomainWithUse | null> {
  const { rows } = await db.query<DomainWithUse>(
    `${WITH_USE} WHERE d.org_id = $1 AND d.project_id = $2 AND (d.name = lower($3) OR d.id = $3)${lock ? ' FOR UPDATE OF d' : ''}`,
    [orgId, projectId, nameOrId],
  );
  return rows[0] ?? null;
}

/** A verified (or degraded) holder of the name outside this project, if any. */
export async function verifiedElsewhere(db: Executor, name: string, orgId: string, projectId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM domains WHERE name = $1 AND status IN ('verified', 'degraded') AND NOT (org_id = $2 AND project_id = $3)`,
    [name, orgId, projectId],
  );
  return rows.length > 0;
}

export async function countDomainsOfOrg(db: Executor, orgId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM domains WHERE org_id = $1', [orgId]);
  return rows[0]!.n;
}

export type NewDomain = Pick<DomainRow, 'org_id' | 'project_id' | 'id' | 'name' | 'verification_token' | 'dkim_selector' | 'dkim_public_key' | 'dkim_private_key'>;

/** Null when the project already has the name. */
export async function insertDomain(tx: Executor, d: NewDomain): Promise<DomainRow | null> {
  const { rows } = await tx.query<DomainRow>(
    `INSERT INTO domains (org_id, project_id, id, name, verification_token, dkim_selector, dkim_public_key, dkim_private_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (org_id, project_id, name) DO NOTHING RETURNING *`,
    [d.org_id, d.project_id, d.id, d.name, d.verification_token, d.dkim_selector, d.dkim_public_key, d.dkim_private_key],
  );
  return rows[0] ?? null;
}

export async function saveCheck(tx: Executor, d: { org_id: string; id: string; status: DomainStatus; checks: RecordCheck[]; at: Date }): Promise<DomainRow> {
  const { rows } = await tx.query<DomainRow>(
    `UPDATE domains SET status = $3, checks = $4, checked_at = $5,
            verified_at = CASE WHEN $3 = 'verified' THEN coalesce(verified_at, $5) ELSE verified_at END
      WHERE org_id = $1 AND id = $2 RETURNING *`,
    [d.org_id, d.id, d.status, JSON.stringify(d.checks), d.at],
  );
  return rows[0]!;
}

export async function deleteDomain(tx: Executor, orgId: string, id: string): Promise<void> {
  await tx.query('DELETE FROM domains WHERE org_id = $1 AND id = $2', [orgId, id]);
}

/** Verified and degraded domains last checked before `before`: the daily re-verification's work. */
export async function domainsToRecheck(db: Executor, before: Date, limit: number): Promise<DomainRow[]> {
  const { rows } = await db.query<DomainRow>(
    `SELECT * FROM domains WHERE status IN ('verified', 'degraded') AND (checked_at IS NULL OR checked_at < $1)
      ORDER BY checked_at NULLS FIRST LIMIT $2`,
    [before, limit],
  );
  return rows;
}

/** The signing key of a domain an inbox sends from, when the domain is onboarded and was verified. */
export async function signingKeyOf(db: Executor, orgId: string, projectId: string, name: string): Promise<Pick<DomainRow, 'name' | 'dkim_selector' | 'dkim_private_key'> | null> {
  const { rows } = await db.query(
    `SELECT name, dkim_selector, dkim_private_key FROM domains
      WHERE org_id = $1 AND project_id = $2 AND name = $3 AND status IN ('verified', 'degraded')`,
    [orgId, projectId, name],
  );
  return rows[0] ?? null;
}

/** Inboxes of the project on the domain (ids), locked for their deletion. */
export async function inboxesOnDomain(tx: Executor, orgId: string, projectId: string, name: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>('SELECT id FROM inboxes WHERE org_id = $1 AND project_id = $2 AND domain = $3 FOR UPDATE', [orgId, projectId, name]);
  return rows.map((r) => r.id);
}
