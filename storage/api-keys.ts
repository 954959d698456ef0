import type { Executor } from './db.ts';

export type Ceiling = 'org' | 'project' | 'inbox';

export type ApiKeyRow = {
  org_id: string;
  project_id: string | null;
  id: string;
  agent_id: string;
  ceiling: Ceiling;
  inbox_id: string | null;
  kind: 'agent' | 'temporary';
  prefix: string;
  key_hash: Buffer;
  permissions: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
};

export type ApiKeyWithAgent = ApiKeyRow & { agent_status: 'active' | 'disabled' };

export async function insertApiKey(db: Executor, k: Omit<ApiKeyRow, 'revoked_at' | 'created_at'>): Promise<ApiKeyRow> {
  const { rows } = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (org_id, project_id, id, agent_id, ceiling, inbox_id, kind, prefix, key_hash, permissions, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
    [k.org_id, k.project_id, k.id, k.agent_id, k.ceiling, k.inbox_id, k.kind, k.prefix, k.key_hash, k.permissions, k.expires_at],
  );
  return rows[0]!;
}

/** Looked up by id alone: the credential itself names the tenant. */
export async function findApiKeyForAuth(db: Executor, id: string): Promise<ApiKeyWithAgent | null> {
  const { rows } = await db.query<ApiKeyWithAgent>({
    name: 'api-keys-for-auth',
    text: `SELECT k.*, a.status AS agent_status
             FROM api_keys k JOIN agents a ON a.org_id = k.org_id AND a.id = k.agent_id
            WHERE k.id = $1`,
    values: [id],
  });
  return rows[0] ?? null;
}

export async function listApiKeys(db: Executor, orgId: string, agentId: string): Promise<ApiKeyRow[]> {
  const { rows } = await db.query<ApiKeyRow>(
    'SELECT * FROM api_keys WHERE org_id = $1 AND agent_id = $2 ORDER BY created_at, id',
    [orgId, agentId],
  );
  return rows;
}

export async function revokeApiKey(db: Executor, orgId: string, agentId: string, id: string): Promise<ApiKeyRow | null> {
  const { rows } = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
      WHERE org_id = $1 AND agent_id = $2 AND id = $3 RETURNING *`,
    [orgId, agentId, id],
  );
  return rows[0] ?? null;
}
