import type { Executor } from './db.ts';

export const EVENTS_CHANNEL = 'agent_inbox_events';

export type EventRow = {
  id: number;
  org_id: string;
  project_id: string;
  inbox_id: string | null;
  agent_id: string | null;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
};

export type NewEvent = Omit<EventRow, 'id' | 'created_at' | 'inbox_id' | 'agent_id'> & { inbox_id?: string | null; agent_id?: string | null };

/** The public id of an event: `evt_<sequence>`. */
export const publicEventId = (id: number): string => `evt_${id}`;

/** The sequence named by a public event id (or a bare number, as SSE clients may send). */
export function eventSequence(value: string): number | null {
  const m = /^(?:evt_)?(\d{1,18})$/.exec(value.trim());
  return m ? Number(m[1]) : null;
}

/**
 * Appends an event inside the caller's transaction. The NOTIFY is delivered when that
 * transaction commits, so listeners never see an event that was rolled back.
 *
 * Within an org, ids are taken in commit order: the transaction holds the org's event lock from
 * here to its commit. Without it a transaction could take id 5, commit after another took and
 * committed id 6, and a stream that had already sent 6 would resume past 5 and never send it.
 * So publish an event as the last write of its transaction, to hold the lock briefly.
 */
export async function appendEvent(tx: Executor, e: NewEvent): Promise<EventRow> {
  // One statement: the lock is taken before the row's id is drawn, and the lock is held for one
  // round trip less (under load from one org, its hold time bounds the org's event rate).
  const { rows } = await tx.query<EventRow & { notified: boolean }>({
    name: 'events-append',
    text: `WITH ins AS (
             INSERT INTO events (org_id, project_id, inbox_id, agent_id, type, payload)
             SELECT $1, $2, $3, $4, $5, $6 FROM (SELECT pg_advisory_xact_lock(hashtextextended($7, 0))) AS locked
             RETURNING *)
           SELECT ins.*, pg_notify($8, json_build_object('id', ins.id, 'org_id', ins.org_id, 'project_id', ins.project_id,
                                                         'inbox_id', ins.inbox_id, 'type', ins.type)::text) IS NULL AS notified
             FROM ins`,
    values: [e.org_id, e.project_id, e.inbox_id ?? null, e.agent_id ?? null, e.type, JSON.stringify(e.payload),
      `${EVENTS_CHANNEL}:${e.org_id}`, EVENTS_CHANNEL],
  });
  const { notified: _, ...row } = rows[0]!;
  return row;
}

/** An event with the agent owning its inbox, so a key's reach can be decided without another read. */
export type ScopedEventRow = EventRow & { inbox_agent_id: string | null };

/** Events of an org (or one of its projects) after `afterId`, oldest first. */
export async function eventsAfter(
  db: Executor,
  orgId: string,
  projectId: string | null,
  afterId: number,
  limit: number,
): Promise<ScopedEventRow[]> {
  const { rows } = await db.query<ScopedEventRow>(
    `SELECT e.*, i.agent_id AS inbox_agent_id
       FROM events e LEFT JOIN inboxes i ON i.org_id = e.org_id AND i.id = e.inbox_id
      WHERE e.org_id = $1 AND ($2::text IS NULL OR e.project_id = $2) AND e.id > $3
      ORDER BY e.id LIMIT $4`,
    [orgId, projectId, afterId, limit],
  );
  return rows;
}

/** The newest event id of an org, 0 when it has none: where a stream without a resume id starts. */
export async function lastEventId(db: Executor, orgId: string): Promise<number> {
  const { rows } = await db.query<{ id: number | null }>('SELECT max(id) AS id FROM events WHERE org_id = $1', [orgId]);
  return rows[0]?.id ?? 0;
}
