// Publishing an event: append it to the log in the caller's transaction, together with the
// delivery work it causes, so the change, its event and its deliveries commit as one.
import type pg from 'pg';
import { WEBHOOK_EVENT_TYPES } from '../machines/policy/event-scope.ts';
import { appendEvent, appendEventAtCommit, type EventKey, type EventRow, type NewEvent } from '../storage/events.ts';
import { newId } from '../storage/ids.ts';
import { insertDelivery, readSubscribedWebhooksAhead, subscribedWebhooks, type SubscribedWebhook } from '../storage/webhooks.ts';
import type { Queue } from '../service/queue.ts';
import { enqueueDelivery } from './workers/webhook-delivery.ts';

/**
 * The payload of `message.received`: the members of the contract's webhook body beyond `event`,
 * `id` and `created_at`, with `from` and `to` as the raw header strings.
 */
export type MessageReceivedPayload = {
  inbox: string;
  message: {
    id: string;
    thread_id: string;
    inbox: string;
    from: string;
    to: string;
    subject: string;
    text: string;
    text_truncated?: true;
    date: string;
    message_id: string;
    folder: string;
    seen: boolean;
    authentication: Record<string, unknown> | null;
    screening: { risk: string; reasons: string[] } | null;
  };
};

/**
 * Appends the event and, for an event about an inbox, one delivery per subscribed active webhook,
 * each with its job. Workers are woken when the transaction commits.
 */
export async function publishEvent(tx: pg.ClientBase, queue: Queue, event: NewEvent): Promise<EventRow> {
  const { row, subscribers } = await appendEvent(tx, event, goesToWebhooks(event));
  await createDeliveries(tx, queue, row, subscribers);
  return row;
}

/** One delivery (and its job) per active webhook subscribed to this logged event. */
export async function deliverToWebhooks(tx: pg.ClientBase, queue: Queue, row: EventKey): Promise<void> {
  await createDeliveries(tx, queue, row, await webhooksOf(tx, row));
}

type EventAbout = Pick<NewEvent, 'org_id' | 'type' | 'inbox_id'>;

/** The active webhooks subscribed to an event (none for one they cannot take); read ahead when readWebhooksAhead started it. */
export async function webhooksOf(tx: pg.ClientBase, e: EventAbout): Promise<SubscribedWebhook[]> {
  return goesToWebhooks(e) ? subscribedWebhooks(tx, { org_id: e.org_id, type: e.type, inbox_id: e.inbox_id! }) : [];
}

/** Sends webhooksOf's read with the transaction's next statement. */
export function readWebhooksAhead(tx: pg.ClientBase, e: EventAbout): void {
  if (goesToWebhooks(e)) readSubscribedWebhooksAhead(tx, { org_id: e.org_id, type: e.type, inbox_id: e.inbox_id! });
}

/**
 * publishEvent for a caller that reads nothing back and has found the webhooks subscribed
 * (webhooksOf): with none, the event goes with the transaction's next statement, as nothing waits
 * for its id.
 */
export async function publishEventTo(tx: pg.ClientBase, queue: Queue, event: NewEvent, hooks: SubscribedWebhook[]): Promise<void> {
  if (hooks.length === 0) return appendEventAtCommit(tx, event);
  const { row } = await appendEvent(tx, event, false);
  await createDeliveries(tx, queue, row, hooks);
}

/** Whether webhooks can subscribe to the event: one of their types, about an inbox. */
export const goesToWebhooks = (e: { inbox_id?: string | null; type: string }): boolean => Boolean(e.inbox_id) && WEBHOOK_EVENT_TYPES.includes(e.type);

/** One delivery, with its job, per webhook found subscribed to the logged event. */
export async function createDeliveries(tx: pg.ClientBase, queue: Queue, row: Pick<EventKey, 'id' | 'type'>, hooks: SubscribedWebhook[]): Promise<void> {
  for (const w of hooks) {
    const delivery = await insertDelivery(tx, {
      org_id: w.org_id,
      project_id: w.project_id,
      id: newId('whd'),
      webhook_id: w.id,
      event_id: row.id,
      event_type: row.type,
      redelivery_of: null,
    });
    await enqueueDelivery(tx, queue, { org_id: delivery.org_id, delivery_id: delivery.id, attempt: 1 });
  }
}
