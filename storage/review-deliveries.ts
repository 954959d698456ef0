// Delivery attempts of reviews (one per review revision, Message-ID fixed before any relay is
// contacted) and the local outbox kept when no relay is configured.
import type pg from 'pg';
import { queryAfter, writeBeforeCommit, type Executor } from './db.ts';
import { reviewWithInboxOf, reviewWithInboxStatement, type ReviewWithInbox } from './reviews.ts';
import { inboxFromJson, type InboxRow } from './inboxes.ts';

export type DeliveryPhase = 'connecting' | 'data' | 'deferred' | 'sent' | 'failed';

export type DeliveryRow = {
  org_id: string;
  project_id: string;
  review_id: string;
  revision: number;
  message_id: string;
  phase: DeliveryPhase;
  tries: number;
  route: string | null;
  last_error: string | null;
  relay_response: string | null;
  created_at: Date;
  updated_at: Date;
};

/**
 * The attempt of this revision, created in phase `connecting` when there is none yet, with the
 * inboxes hosted here among `recipients` (lower-case addresses), read in the same round trip.
 */
export async function openDelivery(
  db: Executor,
  d: { org_id: string; project_id: string; review_id: string; revision: number; message_id: string },
  recipients: string[],
): Promise<{ attempt: DeliveryRow; hosted: InboxRow[] }> {
  const { rows } = await db.query<DeliveryRow & { hosted: Array<Parameters<typeof inboxFromJson>[0]> }>({
    name: 'review-deliveries-open',
    text: `WITH ins AS (
       INSERT INTO review_deliveries (org_id, project_id, review_id, revision, message_id, phase)
       VALUES ($1, $2, $3, $4, $5, 'connecting') ON CONFLICT (org_id, review_id, revision) DO NOTHING RETURNING *),
     attempt AS (
       SELECT * FROM ins
       UNION ALL
       SELECT * FROM review_deliveries WHERE org_id = $1 AND review_id = $3 AND revision = $4 AND NOT EXISTS (SELECT 1 FROM ins))
     SELECT a.*, (SELECT coalesce(jsonb_agg(to_jsonb(h)), '[]'::jsonb) FROM inboxes h WHERE h.address = ANY($6::text[])) AS hosted
       FROM attempt a`,
    values: [d.org_id, d.project_id, d.review_id, d.revision, d.message_id, recipients],
  });
  const { hosted, ...attempt } = rows[0]!;
  return { attempt, hosted: hosted.map(inboxFromJson) };
}

export async function findDelivery(db: Executor, orgId: string, reviewId: string, revision: number): Promise<DeliveryRow | null> {
  const { rows } = await db.query<DeliveryRow>(
    'SELECT * FROM review_deliveries WHERE org_id = $1 AND review_id = $2 AND revision = $3',
    [orgId, reviewId, revision],
  );
  return rows[0] ?? null;
}

/** Records a phase; committed at once by a caller outside any transaction, else with the transaction's next statement (writeBeforeCommit). */
export async function setDeliveryPhase(
  db: Executor,
  key: { org_id: string; review_id: string; revision: number },
  phase: DeliveryPhase,
  info: { route?: string | null; last_error?: string | null; relay_response?: string | null; countTry?: boolean } = {},
): Promise<void> {
  await writeBeforeCommit(db, {
    name: 'review-deliveries-set-phase',
    text: `UPDATE review_deliveries
        SET phase = $4, route = coalesce($5, route), last_error = coalesce($6, last_error),
            relay_response = coalesce($7, relay_response), tries = tries + $8, updated_at = now()
      WHERE org_id = $1 AND review_id = $2 AND revision = $3`,
    values: [key.org_id, key.review_id, key.revision, phase, info.route ?? null, info.last_error ?? null, info.relay_response ?? null,
      info.countTry ? 1 : 0],
  });
}

/**
 * Takes the review's delivery lock for this database session, if no other holds it, and then reads
 * the review with its sending inbox: in one round trip, the read after the lock, so that it sees
 * what the lock's previous holder committed. While one worker delivers, no other may, and the lock
 * is gone the moment that worker's connection is (a killed process included). Should it throw,
 * the lock may be held: the caller gives the connection up.
 */
export async function lockDeliveryAndReadReview(conn: pg.ClientBase, orgId: string, reviewId: string): Promise<{ locked: boolean; found: ReviewWithInbox | null }> {
  const [lock, read] = await queryAfter(conn, `SELECT pg_try_advisory_lock(${deliveryLockKey(conn, reviewId)}) AS ok`, reviewWithInboxStatement(orgId, reviewId));
  return { locked: (lock.rows[0] as { ok: boolean }).ok, found: reviewWithInboxOf(read) };
}

export async function unlockDelivery(db: pg.ClientBase, reviewId: string): Promise<void> {
  await db.query(unlockDeliveryStatement(db, reviewId));
}

/** unlockDelivery as a statement of its own, to travel with a COMMIT (transactionOn's afterCommit). */
export function unlockDeliveryStatement(db: pg.ClientBase, reviewId: string): string {
  return `SELECT pg_advisory_unlock(${deliveryLockKey(db, reviewId)})`;
}

const deliveryLockKey = (db: pg.ClientBase, reviewId: string) => `hashtextextended(${db.escapeLiteral(`review-delivery ${reviewId}`)}, 0)`;

export type ParkedDelivery = { org_id: string; project_id: string; id: string; state: string; parked_since: Date; to: string[]; subject: string };

/**
 * Reviews parked with an unknown delivery outcome (the relay took DATA and its answer was never
 * recorded), oldest first, across every tenant: what `agent-inbox reconcile` resolves.
 */
export async function parkedDeliveries(db: Executor, limit = 1000): Promise<ParkedDelivery[]> {
  const { rows } = await db.query<ParkedDelivery>(
    `SELECT org_id, project_id, id, state, updated_at AS parked_since,
            ARRAY(SELECT coalesce(e->>'email', e #>> '{}') FROM jsonb_array_elements(coalesce(snapshot->'context'->'draft'->'to', '[]')) e) AS to,
            coalesce(snapshot->'context'->'draft'->>'subject', '') AS subject
       FROM machine_instances
      WHERE kind = 'review' AND coalesce((snapshot->'context'->>'reconciliation_needed')::boolean, false)
      ORDER BY updated_at, id LIMIT $1`,
    [limit],
  );
  return rows;
}

/** Reviews whose delivery is in flight (not parked) and last moved before `olderThan`. */
export async function reviewsAwaitingDelivery(db: Executor, olderThan: Date, limit: number): Promise<Array<{ org_id: string; id: string }>> {
  const { rows } = await db.query<{ org_id: string; id: string }>(
    `SELECT org_id, id FROM machine_instances
      WHERE kind = 'review' AND state IN ('approved', 'edited', 'sending_auto') AND updated_at < $1
        AND coalesce((snapshot->'context'->>'reconciliation_needed')::boolean, false) = false
      ORDER BY updated_at LIMIT $2`,
    [olderThan, limit],
  );
  return rows;
}

// ---- Local outbox

export type OutboxRow = {
  org_id: string;
  project_id: string;
  id: string;
  /** null for system mail (a sign-up code), which no review sent. */
  review_id: string | null;
  /** Null for system mail sent for an org (an invitation). */
  inbox_id: string | null;
  message_id: string;
  envelope_from: string;
  envelope_to: string[];
  subject: string;
  raw: Buffer;
  created_at: Date;
};

export async function insertOutbox(tx: Executor, o: Omit<OutboxRow, 'created_at'>): Promise<void> {
  await tx.query(
    `INSERT INTO outbound_outbox (org_id, project_id, id, review_id, inbox_id, message_id, envelope_from, envelope_to, subject, raw)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (message_id) DO NOTHING`,
    [o.org_id, o.project_id, o.id, o.review_id, o.inbox_id, o.message_id, o.envelope_from, o.envelope_to, o.subject, o.raw],
  );
}

/** Newest first, without the raw message. */
export async function listOutbox(db: Executor, q: { org_id: string | null; limit: number }): Promise<Array<Omit<OutboxRow, 'raw'> & { size: number }>> {
  const { rows } = await db.query(
    `SELECT org_id, project_id, id, review_id, inbox_id, message_id, envelope_from, envelope_to, subject, octet_length(raw) AS size, created_at
       FROM outbound_outbox WHERE ($1::text IS NULL OR org_id = $1) ORDER BY created_at DESC, id DESC LIMIT $2`,
    [q.org_id, q.limit],
  );
  return rows;
}

export async function findOutbox(db: Executor, id: string): Promise<OutboxRow | null> {
  const { rows } = await db.query<OutboxRow>('SELECT * FROM outbound_outbox WHERE id = $1 OR message_id = $1', [id]);
  return rows[0] ?? null;
}
