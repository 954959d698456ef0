// Per-inbox contact lists: allow and block entries, enforced on sends (direction `send`).
import type { Executor } from './db.ts';

export type ContactRow = {
  org_id: string;
  project_id: string;
  inbox_id: string;
  id: string;
  kind: 'allow' | 'block';
  pattern: string;
  direction: 'send' | 'receive';
  created_at: Date;
};

/** Inserts the entry; the existing one (and `created: false`) when the same entry is already listed. */
export async function addContact(tx: Executor, c: Omit<ContactRow, 'created_at'>): Promise<{ row: ContactRow; created: boolean }> {
  const { rows } = await tx.query<ContactRow>(
    `INSERT INTO contacts (org_id, project_id, inbox_id, id, kind, pattern, direction)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (org_id, inbox_id, kind, direction, pattern) DO NOTHING RETURNING *`,
    [c.org_id, c.project_id, c.inbox_id, c.id, c.kind, c.pattern, c.direction],
  );
  if (rows[0]) return { row: rows[0], created: true };
  const existing = await tx.query<ContactRow>(
    'SELECT * FROM contacts WHERE org_id = $1 AND inbox_id = $2 AND kind = $3 AND direction = $4 AND pattern = $5',
    [c.org_id, c.inbox_id, c.kind, c.direction, c.pattern],
  );
  return { row: existing.rows[0]!, created: false };
}

export type ContactCursor = { created_us: number; id: string };

export async function listContacts(
  db: Executor,
  at: { org_id: string; inbox_id: string },
  page: { limit: number; after: ContactCursor | null },
): Promise<Array<ContactRow & { created_us: number }>> {
  const { rows } = await db.query<ContactRow & { created_us: number }>(
    `SELECT *, (extract(epoch FROM created_at) * 1000000)::bigint AS created_us FROM contacts
      WHERE org_id = $1 AND inbox_id = $2
        AND ($3::bigint IS NULL OR (created_at, id) > (timestamptz 'epoch' + $3 * interval '1 microsecond', $4))
      ORDER BY created_at, id LIMIT $5`,
    [at.org_id, at.inbox_id, page.after?.created_us ?? null, page.after?.id ?? null, page.limit],
  );
  return rows;
}

export async function findContact(db: Executor, orgId: string, id: string): Promise<ContactRow | null> {
  const { rows } = await db.query<ContactRow>('SELECT * FROM contacts WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0] ?? null;
}

export async function deleteContact(db: Executor, orgId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM contacts WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rowCount === 1;
}
