// The reviewer work log (migration 0025): what was routed to a reviewer agent over a live link,
// in the order its streams and WebSockets replay and follow it.
import { notifyOnCommit, type Executor } from './db.ts';
import { LOG_START, type EventPosition } from './events.ts';

export const REVIEWER_WORK_CHANNEL = 'agent_inbox_reviewer_work';

export type LiveTransport = 'sse' | 'websocket';

export type ReviewerWorkRow = {
  org_id: string;
  id: number;
  tx: string;
  project_id: string;
  reviewer_agent_id: string;
  link_id: string;
  transport: LiveTransport;
  review_id: string;
  revision: number;
  reason: string;
  created_at: Date;
};

/** Whose log a stream reads: one reviewer agent's work over one transport. */
export type WorkScope = { org_id: string; reviewer_agent_id: string; transport: LiveTransport };

/** Appends a work row in the routing transaction; its streams wake when that transaction commits. */
export async function appendReviewerWork(
  tx: Executor,
  w: Pick<ReviewerWorkRow, 'org_id' | 'project_id' | 'reviewer_agent_id' | 'link_id' | 'transport' | 'review_id' | 'revision' | 'reason'>,
): Promise<void> {
  await tx.query(
    `INSERT INTO reviewer_work_log (org_id, project_id, reviewer_agent_id, link_id, transport, review_id, revision, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [w.org_id, w.project_id, w.reviewer_agent_id, w.link_id, w.transport, w.review_id, w.revision, w.reason],
  );
  await notifyOnCommit(tx, REVIEWER_WORK_CHANNEL, JSON.stringify({ org_id: w.org_id, reviewer_agent_id: w.reviewer_agent_id }));
}

/**
 * The scope's rows after `after`, in log order. `held` is true when committed rows follow that
 * cannot be read yet because an older transaction is still running (as eventsAfter).
 */
export async function reviewerWorkAfter(db: Executor, who: WorkScope, after: EventPosition, limit: number): Promise<{ rows: ReviewerWorkRow[]; held: boolean }> {
  const { rows } = await db.query<ReviewerWorkRow & { settled: boolean }>({
    name: 'reviewer-work-after',
    text: `WITH horizon AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
           SELECT w.org_id, w.id::float8 AS id, w.tx::text AS tx, w.project_id, w.reviewer_agent_id, w.link_id, w.transport,
                  w.review_id, w.revision, w.reason, w.created_at, w.tx < horizon.xmin AS settled
             FROM horizon, reviewer_work_log w
            WHERE w.org_id = $1 AND w.reviewer_agent_id = $2 AND w.transport = $3 AND (w.tx, w.id) > ($4::xid8, $5::bigint)
            ORDER BY w.tx, w.id LIMIT $6`,
    values: [who.org_id, who.reviewer_agent_id, who.transport, after.tx, after.id, limit],
  });
  const open = rows.findIndex((r) => !r.settled);
  const readable = open < 0 ? rows : rows.slice(0, open);
  return { rows: readable.map(({ settled: _, ...row }) => row), held: open >= 0 };
}

/**
 * Where a stream without a resume id starts: before the oldest row of a review still assigned to
 * this reviewer, so the work already waiting is sent first; and never after a transaction still
 * running (the horizon), whose routing would otherwise commit behind the start and be lost. Both
 * are read in one statement, so in one snapshot.
 */
export async function workStartPosition(db: Executor, who: WorkScope): Promise<EventPosition> {
  const { rows } = await db.query<{ horizon: string; tx: string | null; id: number | null }>(
    `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon, oldest.tx, oldest.id
       FROM (SELECT 1) one LEFT JOIN LATERAL (
         SELECT w.tx::text AS tx, w.id::float8 AS id
           FROM reviewer_work_log w
           JOIN review_assignments a ON a.org_id = w.org_id AND a.review_id = w.review_id AND a.reviewer_agent_id = w.reviewer_agent_id
          WHERE w.org_id = $1 AND w.reviewer_agent_id = $2 AND w.transport = $3
          ORDER BY w.tx, w.id LIMIT 1) oldest ON true`,
    [who.org_id, who.reviewer_agent_id, who.transport],
  );
  const r = rows[0]!;
  // Every row of a transaction at or past the horizon is after (horizon, 0): ids start at 1.
  const horizon: EventPosition = { tx: r.horizon, id: 0 };
  if (r.tx === null || r.id === null) return horizon;
  const oldest: EventPosition = { tx: r.tx, id: r.id - 1 };
  return BigInt(oldest.tx) < BigInt(horizon.tx) ? oldest : horizon;
}

/** The position of the row a client last received; an unknown id resumes after the nearest older row of the org. */
export async function positionOfWork(db: Executor, orgId: string, id: number): Promise<EventPosition> {
  const { rows } = await db.query<EventPosition>(
    'SELECT w.tx::text AS tx, w.id::float8 AS id FROM reviewer_work_log w WHERE w.org_id = $1 AND w.id <= $2 ORDER BY w.id DESC LIMIT 1',
    [orgId, id],
  );
  return rows[0] ?? LOG_START;
}

/** Drops rows a week old whose review no longer waits on that reviewer: nothing replays them. */
export async function pruneReviewerWork(db: Executor): Promise<void> {
  await db.query(
    `DELETE FROM reviewer_work_log w
      WHERE w.created_at < now() - interval '7 days'
        AND NOT EXISTS (SELECT 1 FROM review_assignments a
                         WHERE a.org_id = w.org_id AND a.review_id = w.review_id AND a.reviewer_agent_id = w.reviewer_agent_id)`,
  );
}
