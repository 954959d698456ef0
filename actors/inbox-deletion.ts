// Deleting an inbox. In one transaction: the inbox row locked (mail being stored for it waits),
// its send lock taken (a send being submitted from it finishes first, or finds it gone), its live
// reviews cancelled through the review machine with reason `inbox_deleted`, then its mail, threads,
// files and webhooks removed and its id tombstoned. Its address then answers 550 at RCPT.
//
// A review whose approved mail is being delivered cannot be cancelled and must not lose its mail:
// the deletion waits for the delivery to finish (sent or failed) and then goes ahead, so the mail
// goes out exactly once and its outcome is recorded before the inbox goes. A delivery parked for
// reconciliation (its outcome unknown) or one still unfinished after the wait is a 409: nothing
// is deleted, and a later retry succeeds once the delivery has ended.
import type pg from 'pg';
import { Problem, notFound } from '../machines/problems.ts';
import type { CancelledBy, ReviewEvent } from '../machines/review-request.ts';
import type { Queue } from '../service/queue.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import { lockInboxInScope, lockInboxSends, lockUnfinishedReviews, purgeInbox } from '../storage/inbox-deletion.ts';
import type { InboxScope } from '../storage/inboxes.ts';
import { reviewKind } from './reviews/kind.ts';
import { applyEventIn } from './run-machine.ts';

/** States in which a review's mail is being delivered (decisions.md: transient). */
const DELIVERING = new Set(['approved', 'edited', 'sending_auto']);

/** How long a deletion waits for deliveries in flight before answering 409. */
export const DELIVERY_WAIT_MS = 10_000;
const POLL_MS = 100;

export type DeleteInboxRequest = {
  scope: InboxScope;
  /** Inbox id, or its address. */
  inbox: string;
  /** Who cancels the live reviews: the agent (`composer`) or a console member (`human`). */
  by: Extract<CancelledBy, 'composer' | 'human'>;
  /** Recorded on the tombstone: an agent id or a console member's email. */
  deleted_by: string;
};

export async function deleteInbox(
  s: { db: Pool; queue: Queue },
  req: DeleteInboxRequest,
  inTransaction?: (tx: pg.PoolClient) => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + DELIVERY_WAIT_MS;
  for (;;) {
    const delivering = await withTransaction(s.db, async (tx) => {
      const inbox = await lockInboxInScope(tx, req.scope, req.inbox);
      if (!inbox) throw notFound('inbox');
      // After the send lock, a submission that was under way has committed its review (and is
      // read below); one that comes later finds the inbox gone.
      await lockInboxSends(tx, inbox.id);
      const unfinished = await lockUnfinishedReviews(tx, inbox.org_id, inbox.id);
      const parked = unfinished.filter((r) => r.reconciliation_needed);
      if (parked.length > 0) throw inFlight(parked.map((r) => r.id), 'its delivery outcome is unknown and awaits reconciliation');
      const delivering = unfinished.filter((r) => DELIVERING.has(r.state));
      if (delivering.length > 0) return delivering.map((r) => r.id);
      const cancel: ReviewEvent = { type: 'cancel', by: req.by, reason: 'inbox_deleted' };
      for (const r of unfinished) await applyEventIn(tx, s.queue, reviewKind, { id: r.id, org_id: inbox.org_id }, cancel);
      await purgeInbox(tx, inbox, req.deleted_by);
      await inTransaction?.(tx);
      return [];
    });
    if (delivering.length === 0) return;
    if (Date.now() > deadline) throw inFlight(delivering, 'its approved mail is still being delivered');
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function inFlight(reviewIds: string[], why: string): Problem {
  return new Problem('conflict', {
    detail: `The inbox was not deleted: review ${reviewIds.join(', ')} sends from it and ${why}. Nothing was changed; retry later.`,
    errors: reviewIds.map((id) => ({ field: 'review_id', code: 'delivery_in_flight', detail: id })),
    headers: { 'Retry-After': '5' },
  });
}
