// The JSON of an event, as the live stream sends it and as a webhook delivery posts it. Below
// http/ so the workers that send these bodies and the transports that show them share one shape.
import type { OpaqueIds } from '../../storage/opaque-ids.ts';

type EventLike = { id: number; type: string; inbox_id: string | null; payload: Record<string, unknown>; created_at: Date };

/** The stream's `data:`: the event's payload members with its type, id, time and inbox. */
export function presentEvent(e: EventLike, ids: OpaqueIds): Record<string, unknown> {
  // The payload first, so none of its members can stand in for the event's own.
  return {
    ...e.payload,
    event: e.type,
    id: ids.encode(e.id),
    created_at: e.created_at.toISOString(),
    ...(e.inbox_id ? { inbox_id: e.inbox_id } : {}),
  };
}

// The contract's members, then the verdicts and screening of agent-inbox (null when not computed).
const MESSAGE_FIELDS = ['id', 'thread_id', 'inbox', 'from', 'to', 'subject', 'text', 'date', 'message_id', 'folder', 'seen', 'authentication', 'screening'] as const;

/**
 * A webhook delivery body: for `message.received`, the members of the contract's table (`from`
 * and `to` as raw header strings) plus `authentication` and `screening`; other types as the
 * stream shows them.
 */
export function webhookBody(e: EventLike, ids: OpaqueIds): Record<string, unknown> {
  if (e.type !== 'message.received') return presentEvent(e, ids);
  const m = (e.payload.message ?? {}) as Record<string, unknown>;
  const message: Record<string, unknown> = {};
  for (const f of MESSAGE_FIELDS) if (m[f] !== undefined) message[f] = m[f];
  return {
    event: e.type,
    id: ids.encode(e.id),
    created_at: e.created_at.toISOString(),
    inbox: e.payload.inbox ?? m.inbox,
    message,
  };
}
