// Self-signup rows (the code's hash, the keys, the clock), the sign-up request counts behind the
// limits, and the operator's signup gate.
import type { Executor } from './db.ts';

export type SignupRow = {
  org_id: string;
  project_id: string;
  id: string;
  email: string;
  agent_id: string;
  inbox_id: string;
  temporary_key_id: string;
  code_hash: Buffer;
  code_expires_at: Date;
  durable_key_id: string | null;
  verified_response: Buffer | null;
  verified_at: Date | null;
  created_at: Date;
};

export async function insertSignup(db: Executor, s: Omit<SignupRow, 'durable_key_id' | 'verified_response' | 'verified_at' | 'created_at'>): Promise<SignupRow> {
  const { rows } = await db.query<SignupRow>(
    `INSERT INTO signups (org_id, project_id, id, email, agent_id, inbox_id, temporary_key_id, code_hash, code_expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [s.org_id, s.project_id, s.id, s.email, s.agent_id, s.inbox_id, s.temporary_key_id, s.code_hash, s.code_expires_at],
  );
  return rows[0]!;
}

/** The unverified sign-up of this normalized address, locked for a rotation. */
export async function lockOpenSignupByEmail(db: Executor, email: string): Promise<SignupRow | null> {
  const { rows } = await db.query<SignupRow>('SELECT * FROM signups WHERE email = $1 AND verified_at IS NULL FOR UPDATE', [email]);
  return rows[0] ?? null;
}

export async function lockSignupByTemporaryKey(db: Executor, orgId: string, keyId: string): Promise<SignupRow | null> {
  const { rows } = await db.query<SignupRow>('SELECT * FROM signups WHERE org_id = $1 AND temporary_key_id = $2 FOR UPDATE', [orgId, keyId]);
  return rows[0] ?? null;
}

export async function rotateSignupCode(
  db: Executor,
  s: { org_id: string; id: string; temporary_key_id: string; code_hash: Buffer; code_expires_at: Date },
): Promise<void> {
  await db.query(
    'UPDATE signups SET temporary_key_id = $3, code_hash = $4, code_expires_at = $5 WHERE org_id = $1 AND id = $2',
    [s.org_id, s.id, s.temporary_key_id, s.code_hash, s.code_expires_at],
  );
}

export async function markSignupVerified(db: Executor, s: { org_id: string; id: string; durable_key_id: string; verified_response: Buffer }): Promise<void> {
  await db.query(
    'UPDATE signups SET durable_key_id = $3, verified_response = $4, verified_at = now() WHERE org_id = $1 AND id = $2',
    [s.org_id, s.id, s.durable_key_id, s.verified_response],
  );
}

/** The temporary key a sign-up was given, to revoke with it. */
export async function temporaryKeyOfSignup(db: Executor, orgId: string, id: string): Promise<string | null> {
  const { rows } = await db.query<{ temporary_key_id: string }>('SELECT temporary_key_id FROM signups WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0]?.temporary_key_id ?? null;
}

/** Revokes a temporary key (a no-op when it already is). */
export async function revokeTemporaryKey(db: Executor, orgId: string, keyId: string): Promise<void> {
  await db.query("UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE org_id = $1 AND id = $2 AND kind = 'temporary'", [orgId, keyId]);
}

/** Records a sign-up request and returns how many this address and this client made in the last hour (this one included). */
export async function countSignupRequest(db: Executor, email: string, clientIp: string): Promise<{ email: number; ip: number }> {
  const { rows } = await db.query<{ email: number; ip: number }>(
    `WITH ins AS (INSERT INTO signup_requests (email, client_ip) VALUES ($1, $2))
     SELECT (SELECT count(*)::int + 1 FROM signup_requests WHERE email = $1 AND created_at > now() - interval '1 hour') AS email,
            (SELECT count(*)::int + 1 FROM signup_requests WHERE client_ip = $2 AND created_at > now() - interval '1 hour') AS ip`,
    [email, clientIp],
  );
  return rows[0]!;
}

export async function pruneSignupRequests(db: Executor): Promise<void> {
  await db.query("DELETE FROM signup_requests WHERE created_at < now() - interval '2 hours'");
}

const GATE = 'signup_enabled';

/** The gate as the operator set it, or null when never set (the configured default applies). */
export async function readSignupGate(db: Executor): Promise<boolean | null> {
  const { rows } = await db.query<{ value: unknown }>('SELECT value FROM service_settings WHERE name = $1', [GATE]);
  return rows[0] ? rows[0].value === true : null;
}

export async function writeSignupGate(db: Executor, enabled: boolean): Promise<void> {
  await db.query(
    `INSERT INTO service_settings (name, value) VALUES ($1, $2::jsonb)
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [GATE, JSON.stringify(enabled)],
  );
}

/** A verified, unclaimed sign-up offered to the person with its email, with its agent and inbox. */
export type ClaimableSignup = {
  id: string;
  org_id: string;
  project_id: string;
  agent_id: string;
  agent_handle: string;
  inbox_id: string;
  inbox_address: string;
  verified_at: Date;
  created_at: Date;
};

const CLAIMABLE = `SELECT s.id, s.org_id, s.project_id, s.agent_id, a.handle AS agent_handle, s.inbox_id,
                          i.address AS inbox_address, s.verified_at, s.created_at
                     FROM signups s
                     JOIN agents a ON a.org_id = s.org_id AND a.id = s.agent_id
                     JOIN inboxes i ON i.org_id = s.org_id AND i.id = s.inbox_id`;

export async function listClaimableSignups(db: Executor, email: string): Promise<ClaimableSignup[]> {
  const { rows } = await db.query<ClaimableSignup>(
    `${CLAIMABLE} WHERE s.email = lower($1) AND s.verified_at IS NOT NULL AND s.claimed_at IS NULL ORDER BY s.created_at, s.id`,
    [email],
  );
  return rows;
}

export type ClaimRow = ClaimableSignup & { email: string; verified_at: Date | null; claimed_at: Date | null; claimed_by: string | null };

/** One sign-up by id, locked for a claim. */
export async function lockSignupForClaim(db: Executor, id: string): Promise<ClaimRow | null> {
  const { rows } = await db.query<ClaimRow>(
    `${CLAIMABLE.replace('SELECT ', 'SELECT s.email, s.claimed_at, s.claimed_by, ')} WHERE s.id = $1 FOR UPDATE OF s`,
    [id],
  );
  return rows[0] ?? null;
}

export async function markSignupClaimed(db: Executor, orgId: string, id: string, userId: string): Promise<Date> {
  const { rows } = await db.query<{ claimed_at: Date }>(
    'UPDATE signups SET claimed_at = now(), claimed_by = $3 WHERE org_id = $1 AND id = $2 RETURNING claimed_at',
    [orgId, id, userId],
  );
  return rows[0]!.claimed_at;
}
