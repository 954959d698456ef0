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
  created_at: Date;
};

export async function findInbox(db: Executor, orgId: string, projectId: string, id: string): Promise<InboxRow | null> {
  const { rows } = await db.query<InboxRow>('SELECT * FROM inboxes WHERE org_id = $1 AND project_id = $2 AND id = $3', [orgId, projectId, id]);
  return rows[0] ?? null;
}
