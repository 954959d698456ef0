import type { OpaqueIds } from '../../storage/opaque-ids.ts';
import type { AttemptRow, DeliveryWithAttempts, DeliveryRow, WebhookView } from '../../storage/webhooks.ts';
import { badRequest } from '../../machines/problems.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A webhook as list and get show it: never the secret, only its prefix. */
export const presentWebhook = (w: WebhookView) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  inbox: w.inbox_address,
  inbox_id: w.inbox_id,
  agent_id: w.agent_id,
  project_id: w.project_id,
  secret_prefix: w.secret_prefix,
  previous_secret_expires_at: w.previous_expires_at && w.previous_expires_at > new Date() ? iso(w.previous_expires_at) : null,
  active: w.active,
  consec_failures: w.consec_failures,
  deactivated_at: iso(w.deactivated_at),
  created_at: iso(w.created_at),
  updated_at: iso(w.updated_at),
});

const presentAttempt = (a: AttemptRow) => ({
  attempt: a.attempt,
  started_at: iso(a.started_at),
  duration_ms: a.duration_ms,
  status_code: a.status_code,
  error: a.error,
  next_retry_at: iso(a.next_retry_at),
});

export const presentDelivery = (d: DeliveryRow & { attempt_log?: AttemptRow[] }, ids: OpaqueIds) => ({
  id: d.id,
  webhook_id: d.webhook_id,
  event_id: ids.encode(d.event_id),
  event_type: d.event_type,
  redelivery_of: d.redelivery_of,
  status: d.status,
  attempt_count: d.attempts,
  last_status_code: d.last_status_code,
  last_error: d.last_error,
  next_attempt_at: iso(d.next_attempt_at),
  created_at: iso(d.created_at),
  completed_at: iso(d.completed_at),
  attempts: (d.attempt_log ?? []).map(presentAttempt),
});

/** Deliveries are paged newest first by their sequence, carried in an opaque cursor. */
// The delivery sequence is service-wide, so the cursor carries it encrypted (storage/opaque-ids.ts).
export const deliveryCursor = (page: DeliveryWithAttempts[], limit: number, codec: OpaqueIds): string | null =>
  page.length === limit ? codec.encode(page[page.length - 1]!.seq) : null;

export function readDeliveryCursor(cursor: string | undefined, codec: OpaqueIds): number | null {
  if (cursor === undefined || cursor === '') return null;
  const seq = codec.decode(cursor);
  if (seq === null) throw badRequest('cursor', 'The cursor is not one this list returned.', 'invalid_cursor');
  return seq;
}
