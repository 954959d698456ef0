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
 */
export async function appendEvent(tx: Executor, e: NewEvent): Promise<EventRow> {
  const { rows } = await tx.query<EventRow>(
    `INSERT INTO events (org_id, project_id, inbox_id, agent_id, type, payload)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [e.org_id, e.project_id, e.inbox_id ?? null, e.agent_id ?? null, e.type, JSON.stringify(e.payload)],
  );
  const row = rows[0]!;
  await tx.query('SELECT pg_notify($1, $2)', [
    EVENTS_CHANNEL,
    JSON.stringify({ id: row.id, org_id: row.org_id, project_id: row.project_id, inbox_id: row.inbox_id, type: row.type }),
  ]);
  return row;
}
