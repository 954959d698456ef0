// The durable review event queue: an append-only list of review events per review (seq 1, 2, ...),
// drained by the composing agent in global order and acknowledged per review.
import { notifyOnCommit, type Executor } from './db.ts';
import { notifyEventOnCommit, type EventRow } from './events.ts';

/** Wakes long polls; the payload is `<org_id> <agent_id>` of the composing agent. */
export const REVIEW_EVENTS_CHANNEL = 'agent_inbox_review_events';

export type ReviewEventRow = {
  id: number;
  org_id: string;
  project_id: string;
  review_id: string;
  seq: number;
  agent_id: string;
  inbox_id: string;
  type: string;
  state: string;
  from_state: string | null;
  category_id: string | null;
  revision: number;
  effective_mode: string;
  extra: Record<string, unknown>;
  created_at: Date;
};

export type NewReviewEvent = Omit<ReviewEventRow, 'id' | 'seq' | 'created_at' | 'extra'> & { extra?: Record<string, unknown> };

/**
 * Appends the next event of a review to the durable queue and, in the same statement, to the event
 * log with `logPayload` (its `seq` set to the item's). NOTIFYs the composer and the event streams on
 * commit. The caller holds the review's machine row lock, so the next sequence cannot be taken twice.
 */
export async function appendReviewEvent(
  tx: Executor,
  e: NewReviewEvent,
  logPayload: Record<string, unknown>,
): Promise<{ item: ReviewEventRow; logged: EventRow }> {
  const { rows } = await tx.query<ReviewEventRow & { logged: EventRow }>({
    name: 'review-events-append',
    text: `WITH item AS (
             INSERT INTO review_events (org_id, project_id, review_id, seq, agent_id, inbox_id, type, state, from_state, category_id,
                                        revision, effective_mode, extra)
             SELECT $1, $2, $3, coalesce(max(seq), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12
               FROM review_events WHERE org_id = $1 AND review_id = $3
             RETURNING *),
           logged AS (
             INSERT INTO events (org_id, project_id, inbox_id, agent_id, type, payload)
             SELECT org_id, project_id, inbox_id, agent_id, type, $13::jsonb || jsonb_build_object('seq', seq) FROM item
             RETURNING id, org_id, project_id, inbox_id, agent_id, type, payload, created_at)
           SELECT item.*, to_json(logged) AS logged FROM item, logged`,
    values: [e.org_id, e.project_id, e.review_id, e.agent_id, e.inbox_id, e.type, e.state, e.from_state, e.category_id, e.revision,
      e.effective_mode, JSON.stringify(e.extra ?? {}), JSON.stringify(logPayload)],
  });
  const { logged, ...item } = rows[0]!;
  const event: EventRow = { ...logged, created_at: new Date(logged.created_at) };
  await notifyOnCommit(tx, REVIEW_EVENTS_CHANNEL, `${e.org_id} ${e.agent_id}`);
  await notifyEventOnCommit(tx, event);
  return { item, logged: event };
}

export type DrainFilter = {
  org_id: string;
  agent_id: string;
  inbox_id: string | null;
  review_id: string | null;
  /** Global position after which to read (paging within one drain). */
  after_id: number;
  limit: number;
};

/** Unacknowledged events of the agent's reviews, oldest first. */
export async function pendingReviewEvents(db: Executor, f: DrainFilter): Promise<ReviewEventRow[]> {
  const { rows } = await db.query<ReviewEventRow>(
    `SELECT * FROM review_events
      WHERE org_id = $1 AND agent_id = $2 AND NOT acked AND id > $3
        AND ($4::text IS NULL OR inbox_id = $4) AND ($5::text IS NULL OR review_id = $5)
      ORDER BY id LIMIT $6`,
    [f.org_id, f.agent_id, f.after_id, f.inbox_id, f.review_id, f.limit],
  );
  return rows;
}

export type Cursor = { review_id: string; through_seq: number };

/**
 * Moves the agent's cursor of each review forward to `through_seq` (never back, never past the
 * review's last event) and marks the covered events acknowledged. Returns the cursors as stored.
 */
export async function ackReviewEvents(tx: Executor, orgId: string, agentId: string, acks: Cursor[]): Promise<Cursor[]> {
  if (acks.length === 0) return [];
  const { rows } = await tx.query<Cursor>(
    `WITH wanted AS (
       SELECT a.review_id, max(a.through_seq) AS through_seq
         FROM unnest($3::text[], $4::int[]) AS a(review_id, through_seq) GROUP BY a.review_id),
     clamped AS (
       SELECT w.review_id, least(w.through_seq, coalesce((SELECT max(e.seq) FROM review_events e
                WHERE e.org_id = $1 AND e.review_id = w.review_id), 0)) AS through_seq
         FROM wanted w),
     moved AS (
       INSERT INTO review_event_cursors (org_id, agent_id, review_id, through_seq)
       SELECT $1, $2, review_id, through_seq FROM clamped
       ON CONFLICT (org_id, agent_id, review_id) DO UPDATE
         SET through_seq = greatest(review_event_cursors.through_seq, EXCLUDED.through_seq),
             updated_at = CASE WHEN EXCLUDED.through_seq > review_event_cursors.through_seq THEN now()
                               ELSE review_event_cursors.updated_at END
       RETURNING review_id, through_seq),
     marked AS (
       UPDATE review_events e SET acked = true FROM moved
        WHERE e.org_id = $1 AND e.review_id = moved.review_id AND e.seq <= moved.through_seq AND NOT e.acked)
     SELECT review_id, through_seq FROM moved ORDER BY review_id`,
    [orgId, agentId, acks.map((a) => a.review_id), acks.map((a) => a.through_seq)],
  );
  return rows;
}
