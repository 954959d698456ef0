import type { Executor } from './db.ts';

export type InboxRow = {
  org_id: string;
  project_id: string;
  id: string;
  agent_id: string;
  address: string;
  domain: string;
  display_name: string | null;
  review_policy: 'require_review' | 'allow_direct' | null;
  recipient_limit_24h: number;
  webhook_url: string | null;
  created_by: 'agent' | 'console';
  enrollment_token_id: string | null;
  /** `pending`: a self-signup inbox whose code is not verified yet. */
  status: 'active' | 'pending';
  created_at: Date;
};

/** An inbox with its org's account default, from which the effective review policy is resolved. */
export type InboxWithPolicy = InboxRow & { default_review_policy: 'require_review' | 'allow_direct' };

/**
 * What a caller may see: one org, optionally narrowed to a project, an agent and one inbox.
 * Null narrows nothing.
 */
export type InboxScope = { org_id: string; project_id: string | null; agent_id: string | null; inbox_id: string | null };

export async function findInbox(db: Executor, orgId: string, projectId: string, id: string): Promise<InboxRow | null> {
  const { rows } = await db.query<InboxRow>('SELECT * FROM inboxes WHERE org_id = $1 AND project_id = $2 AND id = $3', [orgId, projectId, id]);
  return rows[0] ?? null;
}

export const WITH_POLICY = `SELECT i.*, o.default_review_policy FROM inboxes i JOIN orgs o ON o.id = i.org_id`;

export const scopeFilter = (first: number) =>
  `i.org_id = $${first}
   AND ($${first + 1}::text IS NULL OR i.project_id = $${first + 1})
   AND ($${first + 2}::text IS NULL OR i.agent_id = $${first + 2})
   AND ($${first + 3}::text IS NULL OR i.id = $${first + 3})`;

export const scopeValues = (s: InboxScope) => [s.org_id, s.project_id, s.agent_id, s.inbox_id];

/**
 * The query for the inbox with this id, or this address (the alias), inside a scope: its text
 * (parameters $1 to $5), values and a name that tells the two shapes apart.
 */
export function inboxInScopeQuery(scope: InboxScope, idOrAddress: string): { name: string; text: string; values: unknown[] } {
  const byAddress = idOrAddress.includes('@');
  return {
    name: byAddress ? 'by-address' : 'by-id',
    text: `${WITH_POLICY} WHERE ${scopeFilter(1)} AND ${byAddress ? 'i.address = lower($5)' : 'i.id = $5'}`,
    values: [...scopeValues(scope), idOrAddress],
  };
}

/** The inbox with this id, or this address (the alias), inside the scope; null when outside it. */
export async function findInboxInScope(db: Executor, scope: InboxScope, idOrAddress: string): Promise<InboxWithPolicy | null> {
  const q = inboxInScopeQuery(scope, idOrAddress);
  const { rows } = await db.query<InboxWithPolicy>({ ...q, name: `inboxes-in-scope-${q.name}` });
  return rows[0] ?? null;
}

/** A position in the list: creation time in whole microseconds (a Date would lose them), and id. */
export type InboxCursor = { created_us: number; id: string };

/** Oldest first. */
export async function listInboxes(
  db: Executor,
  scope: InboxScope,
  page: { limit: number; after: InboxCursor | null },
): Promise<Array<InboxWithPolicy & { created_us: number }>> {
  const { rows } = await db.query<InboxWithPolicy & { created_us: number }>(
    `SELECT i.*, o.default_review_policy, (extract(epoch FROM i.created_at) * 1000000)::bigint AS created_us
       FROM inboxes i JOIN orgs o ON o.id = i.org_id
      WHERE ${scopeFilter(1)}
        AND ($5::bigint IS NULL OR (i.created_at, i.id) > (timestamptz 'epoch' + $5 * interval '1 microsecond', $6))
      ORDER BY i.created_at, i.id LIMIT $7`,
    [...scopeValues(scope), page.after?.created_us ?? null, page.after?.id ?? null, page.limit],
  );
  return rows;
}

/** An inbox row read as JSON (`to_jsonb(i)`), its time a Date as pg gives it. */
export function inboxFromJson(json: Omit<InboxRow, 'created_at'> & { created_at: string }): InboxRow {
  return { ...json, created_at: new Date(json.created_at) };
}

/**
 * Inboxes by address, across every tenant: the SMTP server's recipient lookup, run for every
 * message received, so prepared once per connection. Its columns are named: a prepared `*` would
 * fail once a migration adds a column while this process runs.
 */
export async function findInboxesByAddress(db: Executor, addresses: string[]): Promise<InboxRow[]> {
  const { rows } = await db.query<InboxRow>({
    name: 'inboxes-by-address',
    text: `SELECT org_id, project_id, id, agent_id, address, domain, display_name, review_policy, recipient_limit_24h, webhook_url,
                  created_by, enrollment_token_id, status, created_at
             FROM inboxes WHERE address = ANY($1::text[])`,
    values: [addresses.map((a) => a.toLowerCase())],
  });
  return rows;
}

/**
 * Locks the org row for an inbox creation: creations in one org then run one at a time, so
 * counting the inboxes and inserting one cannot interleave with another creation.
 */
export async function lockOrgForInboxes(
  tx: Executor,
  orgId: string,
): Promise<{ plan_tier: string; default_review_policy: 'require_review' | 'allow_direct'; default_domain: string | null } | null> {
  const { rows } = await tx.query("SELECT plan_tier, default_review_policy, settings->>'default_domain' AS default_domain FROM orgs WHERE id = $1 FOR UPDATE", [orgId]);
  return rows[0] ?? null;
}

export async function countInboxesOfOrg(db: Executor, orgId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM inboxes WHERE org_id = $1', [orgId]);
  return rows[0]!.n;
}

export type NewInbox = Pick<
  InboxRow,
  'org_id' | 'project_id' | 'id' | 'agent_id' | 'address' | 'domain' | 'display_name' | 'webhook_url' | 'created_by' | 'enrollment_token_id'
> & { status?: 'active' | 'pending' };

/**
 * Inserts the inbox; null when its address is taken. An id that a deleted inbox had is never
 * inserted again (its tombstone keeps it 404); ids are random, so in practice this never refuses.
 */
export async function insertInbox(tx: Executor, i: NewInbox): Promise<InboxRow | null> {
  const { rows } = await tx.query<InboxRow>(
    `INSERT INTO inboxes (org_id, project_id, id, agent_id, address, domain, display_name, webhook_url, created_by, enrollment_token_id, status)
     SELECT $1, $2, $3, $4, lower($5), lower($6), $7, $8, $9, $10, $11
      WHERE NOT EXISTS (SELECT 1 FROM inbox_tombstones t WHERE t.id = $3)
     ON CONFLICT (address) DO NOTHING RETURNING *`,
    [i.org_id, i.project_id, i.id, i.agent_id, i.address, i.domain, i.display_name, i.webhook_url, i.created_by, i.enrollment_token_id, i.status ?? 'active'],
  );
  return rows[0] ?? null;
}

export async function activateInbox(db: Executor, orgId: string, id: string): Promise<void> {
  await db.query("UPDATE inboxes SET status = 'active' WHERE org_id = $1 AND id = $2", [orgId, id]);
}

// Tables holding an inbox's mailbox, deleted with it. Reviews, machine snapshots and the event log
// stay: they are the project's record of what was sent and decided.
const MAILBOX_TABLES = ['attachments', 'message_sources', 'message_search', 'messages', 'thread_keys', 'threads', 'inbound_receipts',
  'contacts', 'recipient_usage', 'webhooks', 'review_links'];

/** Deletes inboxes with their mail, threads, contacts and inbox-bound webhooks; revokes their inbox keys. */
export async function deleteInboxes(tx: Executor, orgId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  for (const table of MAILBOX_TABLES) {
    // inbound_receipts is keyed by inbox alone; $1 still binds so every statement has one shape.
    const org = table === 'inbound_receipts' ? '$1::text IS NOT NULL' : 'org_id = $1';
    await tx.query(`DELETE FROM ${table} WHERE ${org} AND inbox_id = ANY($2::text[])`, [orgId, ids]);
  }
  await tx.query(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE org_id = $1 AND inbox_id = ANY($2::text[])`, [orgId, ids]);
  await tx.query('DELETE FROM inboxes WHERE org_id = $1 AND id = ANY($2::text[])', [orgId, ids]);
}

/** The address of an inbox of the org. */
export async function inboxAddress(db: Executor, orgId: string, id: string): Promise<string | null> {
  const { rows } = await db.query<{ address: string }>('SELECT address FROM inboxes WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0]?.address ?? null;
}

/** The id of the org's inbox at an address. */
export async function inboxIdByAddress(db: Executor, orgId: string, address: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM inboxes WHERE org_id = $1 AND address = $2', [orgId, address]);
  return rows[0]?.id ?? null;
}

/** The address of an agent's oldest active inbox in a project, where mail for the agent goes. */
export async function firstActiveInboxAddress(db: Executor, who: { org_id: string; project_id: string; agent_id: string }): Promise<string | null> {
  const { rows } = await db.query<{ address: string }>(
    `SELECT address FROM inboxes WHERE org_id = $1 AND project_id = $2 AND agent_id = $3 AND status = 'active' ORDER BY created_at LIMIT 1`,
    [who.org_id, who.project_id, who.agent_id],
  );
  return rows[0]?.address ?? null;
}
