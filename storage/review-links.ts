// Review links (who reviews a scope, and how work reaches them), the assignment of a review to its
// reviewer agent, the reviewer's queue, and the attempts of webhook pushes.
import type { Executor } from './db.ts';

export type ReviewTransport = 'webhook' | 'sse' | 'websocket';

export type ReviewLinkRow = {
  org_id: string;
  project_id: string;
  id: string;
  inbox_id: string | null;
  reviewer_agent_id: string;
  transport: ReviewTransport;
  webhook_url: string | null;
  secret_sealed: Buffer | null;
  escalate_after_s: number;
  max_hops: number;
  review_deadline_s: number;
  active: boolean;
  consec_failures: number;
  created_at: Date;
  updated_at: Date;
};

/** A link with the address of its inbox (null for the project-wide scope), as the API shows it. */
export type ReviewLinkView = ReviewLinkRow & { inbox_address: string | null };

const VIEW = `SELECT l.*, i.address AS inbox_address
                FROM review_links l LEFT JOIN inboxes i ON i.org_id = l.org_id AND i.id = l.inbox_id`;

const SCOPE_TAKEN = 'review_links_scope';

/** Inserts a link; null when its scope already has one. */
export async function insertReviewLink(
  db: Executor,
  l: Omit<ReviewLinkRow, 'active' | 'consec_failures' | 'created_at' | 'updated_at'>,
): Promise<ReviewLinkRow | null> {
  try {
    const { rows } = await db.query<ReviewLinkRow>(
      `INSERT INTO review_links (org_id, project_id, id, inbox_id, reviewer_agent_id, transport, webhook_url, secret_sealed,
                                 escalate_after_s, max_hops, review_deadline_s)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
      [l.org_id, l.project_id, l.id, l.inbox_id, l.reviewer_agent_id, l.transport, l.webhook_url, l.secret_sealed,
        l.escalate_after_s, l.max_hops, l.review_deadline_s],
    );
    return rows[0]!;
  } catch (err) {
    if ((err as { constraint?: string }).constraint === SCOPE_TAKEN) return null;
    throw err;
  }
}

export async function findReviewLink(db: Executor, at: { org_id: string; project_id: string }, id: string): Promise<ReviewLinkView | null> {
  const { rows } = await db.query<ReviewLinkView>(`${VIEW} WHERE l.org_id = $1 AND l.project_id = $2 AND l.id = $3`, [at.org_id, at.project_id, id]);
  return rows[0] ?? null;
}

export type ReviewLinkCursor = { created_at: string; id: string };

export async function listReviewLinks(
  db: Executor,
  at: { org_id: string; project_id: string },
  page: { limit: number; after: ReviewLinkCursor | null },
): Promise<ReviewLinkView[]> {
  const { rows } = await db.query<ReviewLinkView>(
    `${VIEW} WHERE l.org_id = $1 AND l.project_id = $2
        AND ($3::timestamptz IS NULL OR (l.created_at, l.id) > ($3::timestamptz, $4::text))
      ORDER BY l.created_at, l.id LIMIT $5`,
    [at.org_id, at.project_id, page.after?.created_at ?? null, page.after?.id ?? null, page.limit],
  );
  return rows;
}

export type ReviewLinkChanges = Partial<
  Pick<ReviewLinkRow, 'inbox_id' | 'reviewer_agent_id' | 'transport' | 'webhook_url' | 'secret_sealed' | 'escalate_after_s' | 'max_hops' | 'review_deadline_s' | 'active'>
>;

/** Applies the changes; null when the link is gone, 'scope_taken' when the new scope has a link. */
export async function updateReviewLink(db: Executor, orgId: string, id: string, changes: ReviewLinkChanges): Promise<ReviewLinkRow | null | 'scope_taken'> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = entries.map(([k], i) => `${k} = $${i + 3}`);
  try {
    const { rows } = await db.query<ReviewLinkRow>(
      `UPDATE review_links SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE org_id = $1 AND id = $2 RETURNING *`,
      [orgId, id, ...entries.map(([, v]) => v)],
    );
    return rows[0] ?? null;
  } catch (err) {
    if ((err as { constraint?: string }).constraint === SCOPE_TAKEN) return 'scope_taken';
    throw err;
  }
}

export async function deleteReviewLink(db: Executor, at: { org_id: string; project_id: string }, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM review_links WHERE org_id = $1 AND project_id = $2 AND id = $3', [at.org_id, at.project_id, id]);
  return (rowCount ?? 0) > 0;
}

/** What routing reads of a link. */
export type RouteLink = Pick<ReviewLinkRow, 'id' | 'reviewer_agent_id' | 'max_hops' | 'escalate_after_s' | 'review_deadline_s' | 'consec_failures'>;

/**
 * The active link covering an inbox (its own link, else the project-wide one) as one json value
 * (RouteLink) or NULL, for an org, project and inbox given as SQL expressions: a send reads it
 * with its inbox.
 */
export function coveringLinkSql(org: string, project: string, inbox: string): string {
  return `(SELECT json_build_object('id', l.id, 'reviewer_agent_id', l.reviewer_agent_id, 'max_hops', l.max_hops,
                                    'escalate_after_s', l.escalate_after_s, 'review_deadline_s', l.review_deadline_s,
                                    'consec_failures', l.consec_failures)
             FROM review_links l
            WHERE l.org_id = ${org} AND l.project_id = ${project} AND l.active AND (l.inbox_id = ${inbox} OR l.inbox_id IS NULL)
            ORDER BY l.inbox_id IS NULL LIMIT 1)`;
}

export async function coveringLink(db: Executor, at: { org_id: string; project_id: string; inbox_id: string }): Promise<RouteLink | null> {
  const { rows } = await db.query<{ link: RouteLink | null }>({
    name: 'review-links-covering',
    text: `SELECT ${coveringLinkSql('$1', '$2', '$3')} AS link`,
    values: [at.org_id, at.project_id, at.inbox_id],
  });
  return rows[0]?.link ?? null;
}

export async function findLinkById(db: Executor, orgId: string, id: string): Promise<ReviewLinkRow | null> {
  const { rows } = await db.query<ReviewLinkRow>('SELECT * FROM review_links WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0] ?? null;
}

/** A delivery failed (+1) or succeeded, or the reviewer called (0). */
export async function setLinkFailures(db: Executor, orgId: string, id: string, failures: 'increment' | 'reset'): Promise<void> {
  const value = failures === 'reset' ? '0' : 'consec_failures + 1';
  await db.query(
    `UPDATE review_links SET consec_failures = ${value} WHERE org_id = $1 AND id = $2${failures === 'reset' ? ' AND consec_failures <> 0' : ''}`,
    [orgId, id],
  );
}

/** Every link of a reviewer agent is healthy again: it called in. */
export async function resetReviewerFailures(db: Executor, orgId: string, reviewerAgentId: string): Promise<void> {
  await db.query('UPDATE review_links SET consec_failures = 0 WHERE org_id = $1 AND reviewer_agent_id = $2 AND consec_failures <> 0', [orgId, reviewerAgentId]);
}

// ---- Assignments

export type Assignment = { org_id: string; project_id: string; review_id: string; link_id: string; reviewer_agent_id: string; routed_at: Date };

/**
 * Records that the review is routed to this reviewer. A fresh routing restarts its place in the
 * queue; a repeat notice to the same reviewer (a composer's chat line) keeps it.
 */
export async function assignReview(db: Executor, a: Omit<Assignment, 'routed_at'>, fresh: boolean): Promise<void> {
  await db.query(
    `INSERT INTO review_assignments (org_id, project_id, review_id, link_id, reviewer_agent_id)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (org_id, review_id) DO UPDATE
       SET link_id = EXCLUDED.link_id, reviewer_agent_id = EXCLUDED.reviewer_agent_id,
           routed_at = CASE WHEN $6 OR review_assignments.reviewer_agent_id <> EXCLUDED.reviewer_agent_id
                            THEN now() ELSE review_assignments.routed_at END`,
    [a.org_id, a.project_id, a.review_id, a.link_id, a.reviewer_agent_id, fresh],
  );
}

export async function unassignReview(db: Executor, orgId: string, reviewId: string): Promise<void> {
  await db.query('DELETE FROM review_assignments WHERE org_id = $1 AND review_id = $2', [orgId, reviewId]);
}

export async function findAssignment(db: Executor, orgId: string, reviewId: string): Promise<Assignment | null> {
  const { rows } = await db.query<Assignment>('SELECT * FROM review_assignments WHERE org_id = $1 AND review_id = $2', [orgId, reviewId]);
  return rows[0] ?? null;
}

/** States in which a review waits on its reviewer. */
export const REVIEWER_STATES = ['needs_review', 'in_review', 'chatting'];

export type QueueCursor = { routed_us: number; review_id: string };
export type QueueEntry = Assignment & { routed_us: number };

/** The reviews routed to this reviewer agent and waiting on it, oldest routing first. */
export async function reviewerQueue(
  db: Executor,
  who: { org_id: string; reviewer_agent_id: string },
  page: { limit: number; after: QueueCursor | null },
): Promise<QueueEntry[]> {
  const { rows } = await db.query<QueueEntry>(
    `SELECT a.*, (extract(epoch FROM a.routed_at) * 1000000)::bigint::float8 AS routed_us
       FROM review_assignments a
       JOIN machine_instances m ON m.org_id = a.org_id AND m.kind = 'review' AND m.id = a.review_id
      WHERE a.org_id = $1 AND a.reviewer_agent_id = $2 AND m.state = ANY($3)
        AND m.snapshot -> 'context' ->> 'route' = 'reviewer_agent'
        AND ($4::float8 IS NULL OR (extract(epoch FROM a.routed_at) * 1000000)::bigint > $4::bigint
             OR ((extract(epoch FROM a.routed_at) * 1000000)::bigint = $4::bigint AND a.review_id > $5))
      ORDER BY a.routed_at, a.review_id LIMIT $6`,
    [who.org_id, who.reviewer_agent_id, REVIEWER_STATES, page.after?.routed_us ?? null, page.after?.review_id ?? null, page.limit],
  );
  return rows;
}

// ---- Webhook pushes

export type LinkDeliveryRow = {
  org_id: string;
  project_id: string;
  id: string;
  link_id: string;
  review_id: string;
  revision: number;
  reason: string;
  status: 'pending' | 'succeeded' | 'failed' | 'skipped';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  completed_at: Date | null;
};

export async function insertLinkDelivery(
  db: Executor,
  d: Pick<LinkDeliveryRow, 'org_id' | 'project_id' | 'id' | 'link_id' | 'review_id' | 'revision' | 'reason'>,
): Promise<void> {
  await db.query(
    `INSERT INTO review_link_deliveries (org_id, project_id, id, link_id, review_id, revision, reason) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [d.org_id, d.project_id, d.id, d.link_id, d.review_id, d.revision, d.reason],
  );
}

export async function findLinkDelivery(db: Executor, orgId: string, id: string): Promise<LinkDeliveryRow | null> {
  const { rows } = await db.query<LinkDeliveryRow>('SELECT * FROM review_link_deliveries WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0] ?? null;
}

export async function listLinkDeliveries(db: Executor, orgId: string, linkId: string): Promise<LinkDeliveryRow[]> {
  const { rows } = await db.query<LinkDeliveryRow>(
    'SELECT * FROM review_link_deliveries WHERE org_id = $1 AND link_id = $2 ORDER BY created_at, id',
    [orgId, linkId],
  );
  return rows;
}

/** Records attempt `attempt` once (a job that runs twice records nothing the second time). */
export async function recordLinkAttempt(
  db: Executor,
  a: {
    org_id: string;
    delivery_id: string;
    attempt: number;
    started_at: Date;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
    next_retry_at: Date | null;
    outcome: 'pending' | 'succeeded' | 'failed';
  },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE review_link_deliveries SET attempts = $3, last_status_code = $4, last_error = $5, status = $6,
            completed_at = CASE WHEN $6 = 'pending' THEN NULL ELSE now() END
      WHERE org_id = $1 AND id = $2 AND attempts = $3 - 1 AND status = 'pending'`,
    [a.org_id, a.delivery_id, a.attempt, a.status_code, a.error, a.outcome],
  );
  if (!rowCount) return false;
  await db.query(
    `INSERT INTO review_link_attempts (org_id, delivery_id, attempt, started_at, duration_ms, status_code, error, next_retry_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [a.org_id, a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code, a.error, a.next_retry_at],
  );
  return true;
}

/** Ends a pending push without an attempt: the review moved on, or the link changed. */
export async function skipLinkDelivery(db: Executor, orgId: string, id: string, why: string): Promise<void> {
  await db.query(
    `UPDATE review_link_deliveries SET status = 'skipped', last_error = $3, completed_at = now() WHERE org_id = $1 AND id = $2 AND status = 'pending'`,
    [orgId, id, why],
  );
}

/** Whether the agent holds a live key granting `permission`. */
export async function agentHoldsPermission(db: Executor, orgId: string, agentId: string, permission: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM api_keys WHERE org_id = $1 AND agent_id = $2 AND revoked_at IS NULL
        AND (expires_at IS NULL OR expires_at > now()) AND $3 = ANY(permissions) LIMIT 1`,
    [orgId, agentId, permission],
  );
  return rows.length > 0;
}

/** A thread message as a reviewer's work item carries it. */
export type WorkThreadMessage = {
  id: string;
  direction: string;
  from_name: string | null;
  from_email: string | null;
  to_addrs: Array<{ name: string; email: string }>;
  subject: string;
  text: string | null;
  extracted_text: string | null;
  received_at: Date;
};

/** The last `limit` messages of a thread, oldest first. */
export async function lastThreadMessages(db: Executor, at: { org_id: string; inbox_id: string }, threadId: string, limit: number) {
  const { rows } = await db.query<WorkThreadMessage>(
    `SELECT * FROM (SELECT id, seq, direction, from_name, from_email, to_addrs, subject, text, extracted_text, received_at
                      FROM messages WHERE org_id = $1 AND inbox_id = $2 AND thread_id = $3 ORDER BY seq DESC LIMIT $4) last
      ORDER BY seq`,
    [at.org_id, at.inbox_id, threadId, limit],
  );
  return rows;
}

export type ArmedTimer = { queue: string; start_after: Date; epoch: number | null };

/** A review's timer jobs that have not run yet (pg-boss keeps its jobs in the `pgboss` schema). */
export async function armedTimers(db: Executor, reviewId: string, queues: string[]): Promise<ArmedTimer[]> {
  const { rows } = await db.query<ArmedTimer>(
    `SELECT name AS queue, start_after, (data->>'epoch')::int AS epoch FROM pgboss.job
      WHERE name = ANY($1) AND data->>'review_id' = $2 AND state IN ('created', 'retry')
      ORDER BY start_after`,
    [queues, reviewId],
  );
  return rows;
}
