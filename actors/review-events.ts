// The durable review event queue, as the composing agent reads it: drain, long-poll, acknowledge.
import { Problem } from '../machines/problems.ts';
import type { Listener } from '../service/listener.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import { REVIEW_EVENTS_CHANNEL, ackBroadcasts, ackReviewEvents, pendingReviewEvents, type Cursor, type ReviewEventRow } from '../storage/review-events.ts';
import { ownedReviewIds } from '../storage/reviews.ts';

/** Whose events: the composing agent, narrowed to one inbox for an inbox key. */
export type ComposerReach = { org_id: string; agent_id: string; inbox_id: string | null };

export type DrainQuery = { review_id: string | null; inbox_id: string | null; after_id: number; limit: number };

export function drainReviewEvents(db: Pool, who: ComposerReach, q: DrainQuery): Promise<ReviewEventRow[]> {
  return pendingReviewEvents(db, {
    org_id: who.org_id,
    agent_id: who.agent_id,
    inbox_id: who.inbox_id ?? q.inbox_id,
    review_id: q.review_id,
    after_id: q.after_id,
    // One more than asked, so the caller can tell whether more follow.
    limit: q.limit + 1,
  });
}

/**
 * Pending events, waiting up to `timeoutMs` for the first. Subscribed before the first read, so an
 * event that commits in between still wakes the wait. `closed` ends it early (client went away).
 */
export async function waitForReviewEvents(
  s: { db: Pool; listener: Listener },
  who: ComposerReach,
  q: DrainQuery,
  timeoutMs: number,
  closed: Promise<void>,
): Promise<{ rows: ReviewEventRow[]; timed_out: boolean }> {
  let wake!: () => void;
  let woken = new Promise<void>((r) => (wake = r));
  const mine = `${who.org_id} ${who.agent_id}`;
  // '' is the listener's reconnect signal: notifications may have been lost meanwhile.
  const off = s.listener.on(REVIEW_EVENTS_CHANNEL, (payload) => {
    if (payload === mine || payload === '') wake();
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await s.listener.ready();
    const deadline = Date.now() + timeoutMs;
    let gone = false;
    void closed.then(() => {
      gone = true;
      wake();
    });
    for (;;) {
      const rows = await drainReviewEvents(s.db, who, q);
      if (rows.length > 0 || gone) return { rows, timed_out: false };
      const left = deadline - Date.now();
      if (left <= 0) return { rows, timed_out: true };
      await Promise.race([woken, new Promise<void>((r) => (timer = setTimeout(r, left)))]);
      clearTimeout(timer);
      woken = new Promise<void>((r) => (wake = r));
    }
  } finally {
    clearTimeout(timer);
    off();
  }
}

/** Moves the agent's cursors; a review it did not compose is 404 and nothing moves. */
export async function ackEvents(db: Pool, who: ComposerReach, acks: Cursor[], broadcastIds: string[] = []): Promise<Cursor[]> {
  const ids = [...new Set(acks.map((a) => a.review_id))];
  return withTransaction(db, async (tx) => {
    const owned = new Set(await ownedReviewIds(tx, who, ids));
    const foreign = ids.filter((id) => !owned.has(id));
    if (foreign.length > 0) {
      throw new Problem('not_found', {
        detail: `No review ${foreign.join(', ')} of this agent; nothing was acknowledged.`,
        errors: foreign.map((id) => ({ field: 'acks.review_id', code: 'not_found', detail: id })),
      });
    }
    await ackBroadcasts(tx, who.org_id, who.agent_id, broadcastIds);
    return ackReviewEvents(tx, who.org_id, who.agent_id, acks);
  });
}
