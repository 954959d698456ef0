import { notifyOnCommit, writeBeforeCommit, type Executor } from './db.ts';
import { subscribedTo, type SubscribedWebhook } from './webhooks.ts';

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

/**
 * Appends an event inside the caller's transaction, and with `toWebhooks`, finds in the same
 * statement the webhooks subscribed to it. The NOTIFY is delivered when that transaction commits,
 * so listeners never see an event that was rolled back. Readers order the log by position (see
 * EventPosition), so concurrent writers need no lock.
 */
export async function appendEvent(tx: Executor, e: NewEvent, toWebhooks: boolean): Promise<{ row: EventRow; subscribers: SubscribedWebhook[] }> {
  const { rows } = await tx.query<EventRow & { subscribers: SubscribedWebhook[] }>({
    name: 'events-append',
    text: `WITH e AS (
             INSERT INTO events (org_id, project_id, inbox_id, agent_id, type, payload)
             VALUES ($1, $2, $3, $4, $5, $6)
             RETURNING ${EVENT_COLUMNS})
           SELECT e.*, ${subscribersOf('e', '$7::bool')} AS subscribers FROM e`,
    values: [e.org_id, e.project_id, e.inbox_id ?? null, e.agent_id ?? null, e.type, JSON.stringify(e.payload), toWebhooks],
  });
  const { subscribers, ...row } = rows[0]!;
  await notifyEventOnCommit(tx, row);
  return { row, subscribers };
}

/**
 * appendEvent for an event no webhook takes and whose row nobody reads back: the insert goes with
 * the transaction's next statement (writeBeforeCommit).
 */
export async function appendEventAtCommit(tx: Executor, e: NewEvent): Promise<void> {
  const event = { org_id: e.org_id, project_id: e.project_id, inbox_id: e.inbox_id ?? null, agent_id: e.agent_id ?? null, type: e.type };
  await writeBeforeCommit(tx, {
    name: 'events-append-at-commit',
    text: 'INSERT INTO events (org_id, project_id, inbox_id, agent_id, type, payload) VALUES ($1, $2, $3, $4, $5, $6)',
    values: [event.org_id, event.project_id, event.inbox_id, event.agent_id, event.type, JSON.stringify(e.payload)],
  });
  await notifyEventOnCommit(tx, event);
}

/** An event row's columns, as INSERT ... RETURNING lists them. */
export const EVENT_COLUMNS = 'id, org_id, project_id, inbox_id, agent_id, type, payload, created_at';

/** SQL: the webhooks subscribed to the just-inserted event `ev`, as a JSON array, when `when` holds. */
export const subscribersOf = (ev: string, when: string): string =>
  `coalesce((SELECT json_agg(json_build_object('org_id', w.org_id, 'project_id', w.project_id, 'id', w.id))
               FROM webhooks w WHERE ${when} AND ${subscribedTo(`${ev}.org_id`, `${ev}.type`, `${ev}.inbox_id`)}), '[]')`;

/** What names a stored event and where it belongs, without its payload. */
export type EventKey = Pick<EventRow, 'id' | 'org_id' | 'project_id' | 'inbox_id' | 'type'>;

/** Wakes the streams and waits of every process once the event's transaction commits (its id, when known, is for the reader of a log). */
export function notifyEventOnCommit(tx: Executor, row: Omit<EventKey, 'id'> & { id?: number }): Promise<void> {
  return notifyOnCommit(tx, EVENTS_CHANNEL, JSON.stringify({ id: row.id, org_id: row.org_id, project_id: row.project_id, inbox_id: row.inbox_id, type: row.type }));
}

/**
 * Where an event stands in the log: its writing transaction's id (xid8, as text), then its id.
 * Ids alone are not in commit order: a transaction can draw id 5 and commit after another drew
 * and committed id 6. The log is read only up to the oldest transaction still running, so no
 * event can later appear before a position already read.
 */
export type EventPosition = { tx: string; id: number };

export const LOG_START: EventPosition = { tx: '0', id: 0 };

/** An event with the agent owning its inbox, so a key's reach can be decided without another read. */
export type ScopedEventRow = EventRow & { tx: string; inbox_agent_id: string | null };

/**
 * Events of an org (or one of its projects) after `after`, in log order. `held` is true when
 * committed events follow that cannot be read yet because an older transaction is still running;
 * read again shortly.
 */
export async function eventsAfter(
  db: Executor,
  orgId: string,
  projectId: string | null,
  after: EventPosition,
  limit: number,
): Promise<{ rows: ScopedEventRow[]; held: boolean }> {
  const { rows } = await db.query<ScopedEventRow & { settled: boolean }>({
    name: 'events-after',
    text: `WITH horizon AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
           SELECT e.id, e.org_id, e.project_id, e.inbox_id, e.agent_id, e.type, e.payload, e.created_at, e.tx::text AS tx,
                  i.agent_id AS inbox_agent_id, e.tx < horizon.xmin AS settled
             FROM horizon, events e LEFT JOIN inboxes i ON i.org_id = e.org_id AND i.id = e.inbox_id
            WHERE e.org_id = $1 AND ($2::text IS NULL OR e.project_id = $2) AND (e.tx, e.id) > ($3::xid8, $4::bigint)
            ORDER BY e.tx, e.id LIMIT $5`,
    values: [orgId, projectId, after.tx, after.id, limit],
  });
  const open = rows.findIndex((r) => !r.settled);
  const readable = open < 0 ? rows : rows.slice(0, open);
  return { rows: readable.map(({ settled: _, ...row }) => row), held: open >= 0 };
}

/**
 * The position of the newest committed event of an org: where a stream without a resume id starts,
 * so it sends only what happens from now on. A transaction that begins writing after this read
 * takes a later transaction id, so none of its events falls behind this position.
 */
export async function newestEventPosition(db: Executor, orgId: string): Promise<EventPosition> {
  const { rows } = await db.query<EventPosition>(
    // Ordered by the column e.tx (xid8), not by the text the select list makes of it.
    'SELECT e.tx::text AS tx, e.id FROM events e WHERE e.org_id = $1 ORDER BY e.tx DESC, e.id DESC LIMIT 1',
    [orgId],
  );
  return rows[0] ?? LOG_START;
}

/**
 * The position of the event a client last received, to resume after it. An id the org does not
 * have (pruned, or never its own) resumes after the nearest older event, or from the start.
 */
export async function positionOfEvent(db: Executor, orgId: string, id: number): Promise<EventPosition> {
  const { rows } = await db.query<EventPosition>(
    'SELECT e.tx::text AS tx, e.id FROM events e WHERE e.org_id = $1 AND e.id <= $2 ORDER BY e.id DESC LIMIT 1',
    [orgId, id],
  );
  return rows[0] ?? LOG_START;
}
