import type { Executor } from './db.ts';

export type StoredResponse = { status: number; body: unknown; headers: Record<string, string> };
export type IdempotencyRecord = { request_hash: string; response: StoredResponse | null };

export type IdempotencyScope = { org_id: string; scope: string; key: string };

/** Who holds a claim, and for how long without renewing it. */
export type Claim = { owner: string; leaseSeconds: number };

/**
 * Claims the key for this request, or takes over a claim with the same request whose lease lapsed
 * (its process died mid-request, before storing a response); false when another holds it or a
 * response is stored.
 */
export async function claimIdempotencyKey(db: Executor, s: IdempotencyScope, requestHash: string, claim: Claim): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO idempotency_keys (org_id, scope, key, request_hash, owner, lease_until)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
     ON CONFLICT (org_id, scope, key) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
     WHERE idempotency_keys.status IS NULL AND idempotency_keys.request_hash = excluded.request_hash
       AND (idempotency_keys.lease_until IS NULL OR idempotency_keys.lease_until < now())`,
    [s.org_id, s.scope, s.key, requestHash, claim.owner, claim.leaseSeconds],
  );
  return rowCount === 1;
}

/** Extends a held claim's lease; false when the claim is no longer this owner's. */
export async function renewIdempotencyKey(db: Executor, s: IdempotencyScope, claim: Claim): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE idempotency_keys SET lease_until = now() + make_interval(secs => $5)
     WHERE org_id = $1 AND scope = $2 AND key = $3 AND owner = $4 AND status IS NULL`,
    [s.org_id, s.scope, s.key, claim.owner, claim.leaseSeconds],
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

/**
 * Stores the response to replay, its body sealed: it may hold a secret shown only once. False when
 * the claim is no longer this owner's (its lease lapsed and a retry took it over).
 */
export async function completeIdempotencyKey(db: Executor, s: IdempotencyScope, r: StoredResponse, sealer: Sealer, owner: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE idempotency_keys SET status = $4, body_sealed = $5, headers = $6, lease_until = NULL
     WHERE org_id = $1 AND scope = $2 AND key = $3 AND owner = $7 AND status IS NULL`,
    [s.org_id, s.scope, s.key, r.status, sealer.seal(JSON.stringify(r.body ?? null)), JSON.stringify(r.headers), owner],
  );
  return rowCount === 1;
}

/** Releases a claim whose request failed in a way the client should be able to retry. */
export async function releaseIdempotencyKey(db: Executor, s: IdempotencyScope, owner: string): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE org_id = $1 AND scope = $2 AND key = $3 AND owner = $4 AND status IS NULL', [
    s.org_id,
    s.scope,
    s.key,
    owner,
  ]);
}

export async function pruneIdempotencyKeys(db: Executor, olderThanHours: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`,
    [olderThanHours],
  );
  return rowCount ?? 0;
}
