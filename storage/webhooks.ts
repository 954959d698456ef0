import type { Scope } from '../machines/policy/inbox-scope.ts';
import { readAhead, takeRead, type Executor, type PreparedStatement } from './db.ts';

export type WebhookRow = {
  org_id: string;
  project_id: string;
  id: string;
  agent_id: string;
  url: string;
  events: string[];
  inbox_id: string | null;
  secret_sealed: Buffer;
  secret_prefix: string;
  previous_secret_sealed: Buffer | null;
  previous_expires_at: Date | null;
  active: boolean;
  consec_failures: number;
  deactivated_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** A webhook with its inbox's address, as the API shows it. */
export type WebhookView = WebhookRow & { inbox_address: string | null };

export type DeliveryRow = {
  org_id: string;
  project_id: string;
  id: string;
  seq: number;
  webhook_id: string;
  event_id: number;
  event_type: string;
  redelivery_of: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
  completed_at: Date | null;
};

export type AttemptRow = {
  org_id: string;
  delivery_id: string;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  next_retry_at: Date | null;
};

const VIEW = `SELECT w.*, i.address AS inbox_address
                FROM webhooks w LEFT JOIN inboxes i ON i.org_id = w.org_id AND i.id = w.inbox_id`;

// Each null member of the scope leaves that column unconstrained.
const IN_SCOPE = `w.org_id = $1 AND ($2::text IS NULL OR w.project_id = $2)
                  AND ($3::text IS NULL OR w.agent_id = $3) AND ($4::text IS NULL OR w.inbox_id = $4)`;
const scopeValues = (s: Scope) => [s.org_id, s.project_id, s.agent_id, s.inbox_id];

export async function insertWebhook(
  db: Executor,
  w: Pick<WebhookRow, 'org_id' | 'project_id' | 'id' | 'agent_id' | 'url' | 'events' | 'inbox_id' | 'secret_sealed' | 'secret_prefix'>,
): Promise<WebhookRow> {
  const { rows } = await db.query<WebhookRow>(
    `INSERT INTO webhooks (org_id, project_id, id, agent_id, url, events, inbox_id, secret_sealed, secret_prefix)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [w.org_id, w.project_id, w.id, w.agent_id, w.url, w.events, w.inbox_id, w.secret_sealed, w.secret_prefix],
  );
  return rows[0]!;
}

export async function findWebhook(db: Executor, scope: Scope, id: string): Promise<WebhookView | null> {
  const { rows } = await db.query<WebhookView>(`${VIEW} WHERE ${IN_SCOPE} AND w.id = $5`, [...scopeValues(scope), id]);
  return rows[0] ?? null;
}

export async function listWebhooks(db: Executor, scope: Scope): Promise<WebhookView[]> {
  const { rows } = await db.query<WebhookView>(`${VIEW} WHERE ${IN_SCOPE} ORDER BY w.created_at, w.id`, scopeValues(scope));
  return rows;
}

export type WebhookChanges = Partial<Pick<WebhookRow, 'url' | 'events' | 'inbox_id' | 'active'>>;

/** Applies the given changes; reactivating clears the failure count. */
export async function updateWebhook(db: Executor, orgId: string, id: string, c: WebhookChanges): Promise<WebhookRow | null> {
  const { rows } = await db.query<WebhookRow>(
    `UPDATE webhooks SET
        url = CASE WHEN $3 THEN $4 ELSE url END,
        events = CASE WHEN $5 THEN $6::text[] ELSE events END,
        inbox_id = CASE WHEN $7 THEN $8 ELSE inbox_id END,
        active = coalesce($9, active),
        consec_failures = CASE WHEN $9 AND NOT active THEN 0 ELSE consec_failures END,
        deactivated_at = CASE WHEN $9 THEN NULL WHEN $9 = false AND active THEN now() ELSE deactivated_at END,
        updated_at = now()
      WHERE org_id = $1 AND id = $2 RETURNING *`,
    [orgId, id, c.url !== undefined, c.url ?? null, c.events !== undefined, c.events ?? null, c.inbox_id !== undefined, c.inbox_id ?? null, c.active ?? null],
  );
  return rows[0] ?? null;
}

export async function deleteWebhook(db: Executor, scope: Scope, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM webhooks w WHERE ${IN_SCOPE} AND w.id = $5`, [...scopeValues(scope), id]);
  return (rowCount ?? 0) > 0;
}

/** The new secret signs from now on; the current one keeps signing until `previousExpiresAt`. */
export async function rotateWebhookSecret(
  db: Executor,
  orgId: string,
  id: string,
  next: { sealed: Buffer; prefix: string; previousExpiresAt: Date },
): Promise<WebhookRow | null> {
  const { rows } = await db.query<WebhookRow>(
    `UPDATE webhooks SET previous_secret_sealed = secret_sealed, previous_expires_at = $5,
            secret_sealed = $3, secret_prefix = $4, updated_at = now()
      WHERE org_id = $1 AND id = $2 RETURNING *`,
    [orgId, id, next.sealed, next.prefix, next.previousExpiresAt],
  );
  return rows[0] ?? null;
}

export type SubscribedWebhook = Pick<WebhookRow, 'org_id' | 'project_id' | 'id'>;

/**
 * The condition on webhooks `w` subscribed to an event about an inbox: active, naming the event's
 * type, and naming the inbox or, naming none, owned by the inbox's agent. The event's org, type
 * and inbox are SQL expressions.
 */
export const subscribedTo = (org: string, type: string, inbox: string): string =>
  `w.org_id = ${org} AND w.active AND ${type} = ANY (w.events)
   AND (w.inbox_id = ${inbox}
        OR (w.inbox_id IS NULL AND w.agent_id = (SELECT agent_id FROM inboxes WHERE org_id = ${org} AND id = ${inbox})))`;

type EventAbout = { org_id: string; type: string; inbox_id: string };

const subscribedStatement = (e: EventAbout): PreparedStatement => ({
  name: 'webhooks-subscribed',
  text: `SELECT w.org_id, w.project_id, w.id FROM webhooks w WHERE ${subscribedTo('$1', '$2', '$3')}`,
  values: [e.org_id, e.type, e.inbox_id],
});

/** The active webhooks subscribed to an event about an inbox (see subscribedTo); read with an earlier statement when readSubscribedWebhooksAhead started it. */
export async function subscribedWebhooks(db: Executor, e: EventAbout): Promise<SubscribedWebhook[]> {
  const { rows } = await takeRead<SubscribedWebhook>(db, subscribedStatement(e));
  return rows;
}

/** Sends subscribedWebhooks' read with the transaction's next statement (readAhead). */
export function readSubscribedWebhooksAhead(tx: Executor, e: EventAbout): void {
  readAhead(tx, subscribedStatement(e));
}

export async function insertDelivery(
  db: Executor,
  d: Pick<DeliveryRow, 'org_id' | 'project_id' | 'id' | 'webhook_id' | 'event_id' | 'event_type' | 'redelivery_of'>,
): Promise<DeliveryRow> {
  const { rows } = await db.query<DeliveryRow>(
    `INSERT INTO webhook_deliveries (org_id, project_id, id, webhook_id, event_id, event_type, redelivery_of)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [d.org_id, d.project_id, d.id, d.webhook_id, d.event_id, d.event_type, d.redelivery_of],
  );
  return rows[0]!;
}

export async function findDelivery(db: Executor, orgId: string, webhookId: string, id: string): Promise<DeliveryRow | null> {
  const { rows } = await db.query<DeliveryRow>(
    'SELECT * FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 AND id = $3',
    [orgId, webhookId, id],
  );
  return rows[0] ?? null;
}

export type DeliveryWithAttempts = DeliveryRow & { attempt_log: AttemptRow[] };

/** Newest first; `beforeSeq` pages on. */
export async function listDeliveries(
  db: Executor,
  orgId: string,
  webhookId: string,
  page: { limit: number; beforeSeq: number | null },
): Promise<DeliveryWithAttempts[]> {
  const { rows } = await db.query<DeliveryWithAttempts>(
    `SELECT d.*, coalesce(
              (SELECT json_agg(a ORDER BY a.attempt) FROM webhook_attempts a WHERE a.org_id = d.org_id AND a.delivery_id = d.id),
              '[]') AS attempt_log
       FROM webhook_deliveries d
      WHERE d.org_id = $1 AND d.webhook_id = $2 AND ($3::bigint IS NULL OR d.seq < $3)
      ORDER BY d.seq DESC LIMIT $4`,
    [orgId, webhookId, page.beforeSeq, page.limit],
  );
  return rows;
}

/** What one attempt needs, read in one round trip: the delivery, its webhook and its event. */
export type DeliveryWork = {
  delivery: DeliveryRow;
  webhook: Pick<WebhookRow, 'id' | 'url' | 'active' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_expires_at'>;
  event: { id: number; type: string; inbox_id: string | null; payload: Record<string, unknown>; created_at: Date };
};

export async function loadDeliveryWork(db: Executor, orgId: string, deliveryId: string): Promise<DeliveryWork | null> {
  const { rows } = await db.query(
    `SELECT d.*, w.url AS w_url, w.active AS w_active, w.secret_sealed AS w_secret_sealed,
            w.previous_secret_sealed AS w_previous_secret_sealed, w.previous_expires_at AS w_previous_expires_at,
            e.type AS e_type, e.inbox_id AS e_inbox_id, e.payload AS e_payload, e.created_at AS e_created_at
       FROM webhook_deliveries d
       JOIN webhooks w ON w.org_id = d.org_id AND w.id = d.webhook_id
       JOIN events e ON e.org_id = d.org_id AND e.id = d.event_id
      WHERE d.org_id = $1 AND d.id = $2`,
    [orgId, deliveryId],
  );
  const r = rows[0];
  if (!r) return null;
  const { w_url, w_active, w_secret_sealed, w_previous_secret_sealed, w_previous_expires_at, e_type, e_inbox_id, e_payload, e_created_at, ...delivery } = r;
  return {
    delivery: delivery as DeliveryRow,
    webhook: {
      id: r.webhook_id,
      url: w_url,
      active: w_active,
      secret_sealed: w_secret_sealed,
      previous_secret_sealed: w_previous_secret_sealed,
      previous_expires_at: w_previous_expires_at,
    },
    event: { id: r.event_id, type: e_type, inbox_id: e_inbox_id, payload: e_payload, created_at: e_created_at },
  };
}

/**
 * Records an attempt exactly once: false when this attempt number was recorded already (a job
 * that ran twice), in which case nothing changes.
 */
export async function recordAttempt(
  db: Executor,
  a: Omit<AttemptRow, 'org_id'> & { org_id: string; outcome: 'pending' | 'succeeded' | 'failed' },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE webhook_deliveries SET attempts = $3, last_status_code = $4, last_error = $5, next_attempt_at = $6,
            status = $7, completed_at = CASE WHEN $7 = 'pending' THEN NULL ELSE now() END
      WHERE org_id = $1 AND id = $2 AND attempts = $3 - 1 AND status = 'pending'`,
    [a.org_id, a.delivery_id, a.attempt, a.status_code, a.error, a.next_retry_at, a.outcome],
  );
  if (!rowCount) return false;
  await db.query(
    `INSERT INTO webhook_attempts (org_id, delivery_id, attempt, started_at, duration_ms, status_code, error, next_retry_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [a.org_id, a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code, a.error, a.next_retry_at],
  );
  return true;
}

/** Ends a pending delivery without an attempt (its webhook was deactivated meanwhile). */
export async function abandonDelivery(db: Executor, orgId: string, id: string, error: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'failed', last_error = $3, next_attempt_at = NULL, completed_at = now()
      WHERE org_id = $1 AND id = $2 AND status = 'pending'`,
    [orgId, id, error],
  );
}

/** The webhook's consecutive failure count, its row locked until the transaction ends; null when gone. */
export async function lockWebhookFailures(tx: Executor, orgId: string, id: string): Promise<number | null> {
  const { rows } = await tx.query<{ consec_failures: number }>(
    'SELECT consec_failures FROM webhooks WHERE org_id = $1 AND id = $2 FOR UPDATE',
    [orgId, id],
  );
  return rows[0]?.consec_failures ?? null;
}

export async function setWebhookFailures(tx: Executor, orgId: string, id: string, count: number, deactivate: boolean): Promise<void> {
  await tx.query(
    `UPDATE webhooks SET consec_failures = $3,
            active = active AND NOT $4,
            deactivated_at = CASE WHEN $4 AND active THEN now() ELSE deactivated_at END,
            updated_at = CASE WHEN $4 AND active THEN now() ELSE updated_at END
      WHERE org_id = $1 AND id = $2`,
    [orgId, id, count, deactivate],
  );
}

/** Webhooks registered in the org, active or not: what the plan's webhook limit counts. */
export async function countWebhooksOfOrg(db: Executor, orgId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1', [orgId]);
  return rows[0]!.n;
}
