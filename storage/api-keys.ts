import type { Executor, Pool } from './db.ts';
import { RATE_WINDOW_SQL, type WindowCounts } from './rate-limit.ts';

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

/**
 * Locks the agent's row (so two issuers cannot both take the last free slot) and counts its keys
 * that still work at `now`: not revoked, not expired.
 */
export async function lockLiveKeyCount(db: Executor, orgId: string, agentId: string, now: Date): Promise<number> {
  await db.query('SELECT 1 FROM agents WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, agentId]);
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM api_keys
      WHERE org_id = $1 AND agent_id = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $3)`,
    [orgId, agentId, now],
  );
  return rows[0]!.n;
}

/**
 * The key by id alone (the credential itself names the tenant), and, in the same statement, one
 * request counted in its current rate window when the presented digest is the key's and the key
 * is usable at `now`. `window` is null when nothing was counted.
 */
export async function findApiKeyForAuth(
  db: Pool,
  id: string,
  presented: { digest: Buffer; now: Date },
): Promise<(ApiKeyWithAgent & { window: WindowCounts | null }) | null> {
  const { rows } = await db.query<ApiKeyWithAgent & { current: number | null; previous: number; elapsed: number }>({
    name: 'api-keys-for-auth',
    text: `WITH k AS (
             SELECT k.*, a.status AS agent_status
               FROM api_keys k JOIN agents a ON a.org_id = k.org_id AND a.id = k.agent_id
              WHERE k.id = $1),
           ${RATE_WINDOW_SQL},
           hit AS (
             INSERT INTO rate_limit_windows (key_id, window_start, hits)
             SELECT k.id, win.w, 1 FROM k, win
              WHERE k.key_hash = $2 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $3)
                AND k.agent_status = 'active'
             ON CONFLICT (key_id, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
             RETURNING hits)
           SELECT k.*, (SELECT hits FROM hit) AS current,
                  coalesce((SELECT hits FROM rate_limit_windows r, win WHERE r.key_id = $1 AND r.window_start = win.w - 1), 0) AS previous,
                  (SELECT elapsed FROM win)::float8 AS elapsed
             FROM k`,
    values: [id, presented.digest, presented.now],
  });
  const r = rows[0];
  if (!r) return null;
  const { current, previous, elapsed, ...key } = r;
  return { ...key, window: current === null ? null : { current, previous, elapsed } };
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
