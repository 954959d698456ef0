import type { Executor, Pool } from './db.ts';
import { RATE_WINDOW_SQL, type WindowCounts } from './rate-limit.ts';

export type EnrollmentTokenRow = {
  org_id: string;
  project_id: string;
  id: string;
  label: string | null;
  secret_hash: Buffer;
  prefix: string;
  scopes: string[] | null;
  allowed_domains: string[] | null;
  max_mailboxes: number | null;
  mailboxes_created: number;
  daily_send_limit: number | null;
  reusable: boolean;
  redemptions: number;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_by: string | null;
  created_at: Date;
};

export async function insertEnrollmentToken(
  db: Executor,
  t: Omit<EnrollmentTokenRow, 'mailboxes_created' | 'redemptions' | 'revoked_at' | 'created_at'>,
): Promise<EnrollmentTokenRow> {
  const { rows } = await db.query<EnrollmentTokenRow>(
    `INSERT INTO enrollment_tokens
       (org_id, project_id, id, label, secret_hash, prefix, scopes, allowed_domains, max_mailboxes, daily_send_limit, reusable, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
    [t.org_id, t.project_id, t.id, t.label, t.secret_hash, t.prefix, t.scopes, t.allowed_domains, t.max_mailboxes,
      t.daily_send_limit, t.reusable, t.expires_at, t.created_by],
  );
  return rows[0]!;
}

/** Locks the token row for a redemption, so single-use tokens redeem once under concurrency. */
export async function lockEnrollmentToken(db: Executor, id: string): Promise<EnrollmentTokenRow | null> {
  const { rows } = await db.query<EnrollmentTokenRow>('SELECT * FROM enrollment_tokens WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ?? null;
}

export async function findEnrollmentToken(db: Executor, orgId: string, id: string): Promise<EnrollmentTokenRow | null> {
  const { rows } = await db.query<EnrollmentTokenRow>('SELECT * FROM enrollment_tokens WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0] ?? null;
}

export async function countRedemption(db: Executor, orgId: string, id: string): Promise<void> {
  await db.query('UPDATE enrollment_tokens SET redemptions = redemptions + 1 WHERE org_id = $1 AND id = $2', [orgId, id]);
}

export async function listEnrollmentTokens(db: Executor, orgId: string, projectId: string): Promise<EnrollmentTokenRow[]> {
  const { rows } = await db.query<EnrollmentTokenRow>(
    'SELECT * FROM enrollment_tokens WHERE org_id = $1 AND project_id = $2 ORDER BY created_at, id',
    [orgId, projectId],
  );
  return rows;
}

export async function revokeEnrollmentToken(db: Executor, orgId: string, projectId: string, id: string): Promise<EnrollmentTokenRow | null> {
  const { rows } = await db.query<EnrollmentTokenRow>(
    `UPDATE enrollment_tokens SET revoked_at = coalesce(revoked_at, now())
      WHERE org_id = $1 AND project_id = $2 AND id = $3 RETURNING *`,
    [orgId, projectId, id],
  );
  return rows[0] ?? null;
}

export async function findEnrollmentTokenById(db: Executor, id: string): Promise<EnrollmentTokenRow | null> {
  const { rows } = await db.query<EnrollmentTokenRow>('SELECT * FROM enrollment_tokens WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** Counts one inbox created under the token's lifetime allowance (call with the row locked). */
export async function countMailboxCreated(db: Executor, orgId: string, id: string): Promise<void> {
  await db.query('UPDATE enrollment_tokens SET mailboxes_created = mailboxes_created + 1 WHERE org_id = $1 AND id = $2', [orgId, id]);
}

/**
 * Counts one redemption attempt of the token in its current one-minute window (beside the agent
 * keys' windows, under `enroll:<id>`), committed at once so refused attempts count too.
 */
export async function countRedemptionAttempt(db: Pool, id: string): Promise<WindowCounts> {
  const { rows } = await db.query<WindowCounts>(
    `WITH ${RATE_WINDOW_SQL},
           hit AS (
             INSERT INTO rate_limit_windows (key_id, window_start, hits)
             SELECT $1, win.w, 1 FROM win
             ON CONFLICT (key_id, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
             RETURNING hits)
     SELECT (SELECT hits FROM hit) AS current,
            coalesce((SELECT hits FROM rate_limit_windows r, win WHERE r.key_id = $1 AND r.window_start = win.w - 1), 0) AS previous,
            (SELECT elapsed FROM win)::float8 AS elapsed`,
    [`enroll:${id}`],
  );
  return rows[0]!;
}
