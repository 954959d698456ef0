// The project-wide suppression list: addresses no send of the project may go to.
import type { Executor } from './db.ts';

/** `delivery`: added by the service itself, from a hard bounce, a complaint or soft bounces in a row (reason `bounced` or `complained`). */
export type SuppressionOrigin = 'agent' | 'unsubscribe' | 'delivery';

export type SuppressionRow = {
  org_id: string;
  project_id: string;
  email: string;
  origin: SuppressionOrigin;
  reason: string | null;
  created_at: Date;
};

type At = { org_id: string; project_id: string };

/**
 * Adds the address (lower-cased). An address already listed keeps its entry, except that the
 * recipient's own opt-out replaces an agent's entry (so no agent can lift it later).
 */
export async function suppress(
  db: Executor,
  at: At,
  s: { email: string; origin: SuppressionOrigin; reason: string | null },
): Promise<{ row: SuppressionRow; created: boolean }> {
  const { rows } = await db.query<SuppressionRow & { created: boolean }>(
    `INSERT INTO suppressions (org_id, project_id, email, origin, reason) VALUES ($1, $2, lower($3), $4, $5)
     ON CONFLICT (org_id, project_id, email) DO UPDATE SET origin = EXCLUDED.origin, reason = EXCLUDED.reason
       WHERE EXCLUDED.origin = 'unsubscribe' AND suppressions.origin <> 'unsubscribe'
     RETURNING *, (xmax = 0) AS created`,
    [at.org_id, at.project_id, s.email, s.origin, s.reason],
  );
  if (rows[0]) {
    const { created, ...row } = rows[0];
    return { row, created };
  }
  return { row: (await findSuppression(db, at, s.email))!, created: false };
}

export async function findSuppression(db: Executor, at: At, email: string): Promise<SuppressionRow | null> {
  const { rows } = await db.query<SuppressionRow>(
    'SELECT * FROM suppressions WHERE org_id = $1 AND project_id = $2 AND email = lower($3)',
    [at.org_id, at.project_id, email],
  );
  return rows[0] ?? null;
}

export type SuppressionCursor = { created_us: number; email: string };

export async function listSuppressions(
  db: Executor,
  at: At,
  page: { limit: number; after: SuppressionCursor | null },
): Promise<Array<SuppressionRow & { created_us: number }>> {
  const { rows } = await db.query<SuppressionRow & { created_us: number }>(
    `SELECT *, (extract(epoch FROM created_at) * 1000000)::bigint AS created_us FROM suppressions WHERE org_id = $1 AND project_id = $2
        AND ($3::bigint IS NULL OR (created_at, email) > (timestamptz 'epoch' + $3 * interval '1 microsecond', $4))
      ORDER BY created_at, email LIMIT $5`,
    [at.org_id, at.project_id, page.after?.created_us ?? null, page.after?.email ?? null, page.limit],
  );
  return rows;
}

export async function deleteSuppression(db: Executor, at: At, email: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM suppressions WHERE org_id = $1 AND project_id = $2 AND email = lower($3)', [
    at.org_id,
    at.project_id,
    email,
  ]);
  return rowCount === 1;
}
