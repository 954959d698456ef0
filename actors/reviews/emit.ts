// Review events: appended to the durable review event queue and to the event log (webhooks, SSE).
import type pg from 'pg';
import type { ReviewContext } from '../../machines/review-request.ts';
import type { Queue } from '../../service/queue.ts';
import type { MachineRow } from '../../storage/machines.ts';
import { appendReviewEvent, appendReviewEventAtCommit } from '../../storage/review-events.ts';
import { reviewEventPayload } from '../present/reviews.ts';
import { deliverToWebhooks, goesToWebhooks } from '../events.ts';

/**
 * Appends a review event to the durable queue and to the event log (webhooks, SSE), in the
 * caller's transaction, which holds the review's row lock.
 */
export async function emitReviewEvent(
  tx: pg.ClientBase,
  queue: Queue,
  row: Pick<MachineRow, 'org_id' | 'project_id' | 'id' | 'inbox_id' | 'agent_id' | 'state'>,
  context: ReviewContext,
  e: { type: string; from_state: string | null; extra?: Record<string, unknown> },
): Promise<void> {
  const item = {
    org_id: row.org_id,
    project_id: row.project_id,
    review_id: row.id,
    agent_id: row.agent_id!,
    inbox_id: row.inbox_id!,
    type: e.type,
    state: row.state,
    from_state: e.from_state,
    category_id: context.category_id ?? null,
    revision: context.revision,
    effective_mode: context.effective_mode,
    extra: e.extra ?? {},
  };
  // The payload's seq is the item's, drawn by the statement that appends both.
  const payload = reviewEventPayload({ ...item, seq: 0 });
  if (!goesToWebhooks(item)) return appendReviewEventAtCommit(tx, item, payload);
  const { logged } = await appendReviewEvent(tx, item, payload);
  await deliverToWebhooks(tx, queue, logged);
}
