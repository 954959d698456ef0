// The durable review event queue: an append-only list of review events per review (seq 1, 2, ...),
// drained by the composing agent in global order and acknowledged per review.
import { notifyOnCommit, writeBeforeCommit, type Executor, type PreparedStatement } from './db.ts';
import { notifyEventOnCommit, type EventKey } from './events.ts';

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
): Promise<{ item: ReviewEventRow; logged: EventKey }> {
  // Only what the database drew comes back: the rest is what was written.
  const { rows } = await tx.query<{ id: number; seq: number; created_at: Date; event_id: number }>(appendStatement(e, logPayload));
  const { id, seq, created_at, event_id } = rows[0]!;
  const item: ReviewEventRow = { ...e, extra: e.extra ?? {}, id, seq, created_at };
  const logged: EventKey = { id: event_id, org_id: e.org_id, project_id: e.project_id, inbox_id: e.inbox_id, type: e.type };
  await notifyAppended(tx, e, logged);
  return { item, logged };
}

/**
 * appendReviewEvent for a caller that reads nothing back (no webhook takes the event): the append
 * goes with the transaction's next statement (writeBeforeCommit).
 */
export async function appendReviewEventAtCommit(tx: Executor, e: NewReviewEvent, logPayload: Record<string, unknown>): Promise<void> {
  await writeBeforeCommit(tx, appendStatement(e, logPayload));
  await notifyAppended(tx, e, { org_id: e.org_id, project_id: e.project_id, inbox_id: e.inbox_id, type: e.type });
}

async function notifyAppended(tx: Executor, e: NewReviewEvent, logged: Omit<EventKey, 'id'> & { id?: number }): Promise<void> {
  await notifyOnCommit(tx, REVIEW_EVENTS_CHANNEL, `${e.org_id} ${e.agent_id}`);
  await notifyEventOnCommit(tx, logged);
}

function appendStatement(e: NewReviewEvent, logPayload: Record<string, unknown>): PreparedStatement {
  return {
    name: 'review-events-append',
    text: `WITH item AS (
             INSERT INTO review_events (org_id, project_id, review_id, seq, agent_id, inbox_id, type, state, from_state, category_id,
                                        revision, effective_mode, extra)
             SELECT $1, $2, $3, coalesce(max(seq), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12
               FROM review_events WHERE org_id = $1 AND review_id = $3
             RETURNING id, seq, created_at, org_id, project_id, inbox_id, agent_id, type),
           logged AS (
             INSERT INTO events (org_id, project_id, inbox_id, agent_id, type, payload)
             SELECT org_id, project_id, inbox_id, agent_id, type, $13::jsonb || jsonb_build_object('seq', seq) FROM item
             RETURNING id)
           SELECT item.id, item.seq, item.created_at, logged.id AS event_id FROM item, logged`,
    values: [e.org_id, e.project_id, e.review_id, e.agent_id, e.inbox_id, e.type, e.state, e.from_state, e.category_id, e.revision,
      e.effective_mode, JSON.stringify(e.extra ?? {}), JSON.stringify(logPayload)],
  };
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

export type RuleChange = {
  org_id: string;
  /** '' for an org-layer rule: every project of the org. */
  project_id: string;
  rule_id: string;
  scope_agent_id: string | null;
  category_id: string | null;
  broadcast_id: string;
};

/**
 * Appends one `review.rule_changed` item to every live draft the changed rule applies to, in one
 * statement however many drafts there are. The drafts' machine rows are locked first, so each
 * item takes the next sequence of its review exactly as a transition would. Each item carries the
 * draft's project's new rules high-water. Answers the agents to wake.
 */
export async function broadcastRuleChange(tx: Executor, c: RuleChange): Promise<string[]> {
  const { rows } = await tx.query<{ agent_id: string }>({
    name: 'review-events-rule-changed',
    text: `WITH drafts AS (
             SELECT m.org_id, m.project_id, m.id, m.agent_id, m.inbox_id, m.state, m.snapshot->'context' AS ctx
               FROM machine_instances m
              WHERE m.org_id = $1 AND m.kind = 'review' AND ($2 = '' OR m.project_id = $2)
                AND m.state IN ('needs_review', 'in_review', 'chatting', 'rejected')
                AND ($3::text IS NULL OR m.agent_id = $3)
                AND ($4::text IS NULL OR m.snapshot->'context'->>'category_id' = $4)
              ORDER BY m.id
              FOR UPDATE),
           items AS (
             INSERT INTO review_events (org_id, project_id, review_id, seq, agent_id, inbox_id, type, state, from_state, category_id,
                                        revision, effective_mode, extra, broadcast_id)
             SELECT d.org_id, d.project_id, d.id,
                    coalesce((SELECT max(e.seq) FROM review_events e WHERE e.org_id = d.org_id AND e.review_id = d.id), 0) + 1,
                    d.agent_id, d.inbox_id, 'review.rule_changed', d.state, d.state, d.ctx->>'category_id',
                    (d.ctx->>'revision')::int, d.ctx->>'effective_mode',
                    jsonb_build_object('broadcast_id', $6::text, 'rule_id', $5::text,
                                       'rules_version', coalesce(h.version, 0), 'draft_rules_version', (d.ctx->>'rules_version')::int),
                    $6
               FROM drafts d LEFT JOIN rules_high_water h ON h.org_id = d.org_id AND h.project_id = d.project_id
             RETURNING agent_id)
           SELECT DISTINCT agent_id FROM items`,
    values: [c.org_id, c.project_id, c.scope_agent_id, c.category_id, c.rule_id, c.broadcast_id],
  });
  const agents = rows.map((r) => r.agent_id);
  for (const agent of agents) await notifyOnCommit(tx, REVIEW_EVENTS_CHANNEL, `${c.org_id} ${agent}`);
  return agents;
}

/** Acknowledges the agent's broadcast items by broadcast id; unknown ids change nothing. */
export async function ackBroadcasts(tx: Executor, orgId: string, agentId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    'UPDATE review_events SET acked = true WHERE org_id = $1 AND agent_id = $2 AND broadcast_id = ANY($3::text[]) AND NOT acked',
    [orgId, agentId, ids],
  );
}
