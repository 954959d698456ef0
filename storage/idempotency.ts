import type { Executor } from './db.ts';

export type StoredResponse = { status: number; body: unknown; headers: Record<string, string> };
export type IdempotencyRecord = { request_hash: string; response: StoredResponse | null };

export type IdempotencyScope = { org_id: string; scope: string; key: string };

/** Claims the key for this request; false when a record for it already exists. */
export async function claimIdempotencyKey(db: Executor, s: IdempotencyScope, requestHash: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO idempotency_keys (org_id, scope, key, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (org_id, scope, key) DO NOTHING`,
    [s.org_id, s.scope, s.key, requestHash],
  );
  return rowCount === 1;
}

/** Seals and opens stored response bodies (see service/encryption.ts). */
export type Sealer = { seal(plaintext: string): Buffer; open(sealed: Buffer): string };

export async function readIdempotencyKey(db: Executor, s: IdempotencyScope, sealer: Sealer): Promise<IdempotencyRecord | null> {
  const { rows } = await db.query<{
    request_hash: string;
    status: number | null;
    body: unknown;
    body_sealed: Buffer | null;
    headers: Record<string, string> | null;
  }>('SELECT request_hash, status, body, body_sealed, headers FROM idempotency_keys WHERE org_id = $1 AND scope = $2 AND key = $3', [
    s.org_id,
    s.scope,
    s.key,
  ]);
  const row = rows[0];
  if (!row) return null;
  const body = row.body_sealed ? JSON.parse(sealer.open(row.body_sealed)) : row.body;
  return {
    request_hash: row.request_hash,
    response: row.status === null ? null : { status: row.status, body, headers: row.headers ?? {} },
  };
}

/** Stores the response to replay, its body sealed: it may hold a secret shown only once. */
export async function completeIdempotencyKey(db: Executor, s: IdempotencyScope, r: StoredResponse, sealer: Sealer): Promise<void> {
  await db.query(
    'UPDATE idempotency_keys SET status = $4, body_sealed = $5, headers = $6 WHERE org_id = $1 AND scope = $2 AND key = $3',
    [s.org_id, s.scope, s.key, r.status, sealer.seal(JSON.stringify(r.body ?? null)), JSON.stringify(r.headers)],
  );
}

/** Releases a claim whose request failed in a way the client should be able to retry. */
export async function releaseIdempotencyKey(db: Executor, s: IdempotencyScope): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE org_id = $1 AND scope = $2 AND key = $3 AND status IS NULL', [s.org_id, s.scope, s.key]);
}

export async function pruneIdempotencyKeys(db: Executor, olderThanHours: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`,
    [olderThanHours],
  );
  return rowCount ?? 0;
}
