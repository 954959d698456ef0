// The effects of the review request machine's actions, performed in the transition's transaction:
// jobs (delivery, timers, notices, reviewer pushes), digest notices, feedback rows, usage settlement, review events.
import type pg from 'pg';
import type { ReviewActionParams, ReviewContext } from '../../machines/review-request.ts';
import type { Queue } from '../../service/queue.ts';
import { newId } from '../../storage/ids.ts';
import { assignReview, findLinkById, insertLinkDelivery, unassignReview } from '../../storage/review-links.ts';
import { readNoticeTargetsAhead, recordDigestNotices } from '../../storage/notifications.ts';
import { appendReviewerWork } from '../../storage/reviewer-work.ts';
import { insertFeedback, releaseRecipientUsage, type FeedbackRow } from '../../storage/reviews.ts';
import { settleReservationAtCommit } from '../../storage/usage.ts';
import { recordOutcome } from '../categories.ts';
import { JOBS, type NotifyJob } from '../jobs.ts';
import type { EffectContext, MachineAction } from '../run-machine.ts';
import { emitReviewEvent } from './emit.ts';

/** How long before its deadline a waiting review is announced again: a tenth of the wait, at most an hour. */
export const deadlineWarning = (afterS: number): number => Math.min(3600, Math.floor(afterS / 10));

// Delivery consumes a send's reservation into the month's and day's counters, in the delivery's
// transaction; a cancel, reject or failure releases it. A revision reserves its recipients again
// before it is applied (see composer.revise), under the caps like a new send.
async function settleUsage(ctx: EffectContext, type: string, context: ReviewContext): Promise<void> {
  const row = ctx.row;
  const draft = context.draft ?? {};
  const recipients = ((draft.to as unknown[] | undefined)?.length ?? 0) + ((draft.cc as unknown[] | undefined)?.length ?? 0);
  const at = { org_id: row.org_id, review_id: row.id };
  if (type === 'review.sent' || type === 'review.auto_sent') {
    await settleReservationAtCommit(ctx.tx, { ...at, outcome: 'consume', sent_recipients: recipients });
  } else if (type === 'review.cancelled' || type === 'review.rejected' || type === 'review.failed') {
    await settleReservationAtCommit(ctx.tx, { ...at, outcome: 'release', sent_recipients: 0 });
  }
}

/**
 * Tells a review's deciders now. Those who take a digest have the notice written down here, with
 * the transition: a project whose drafts come by the hundred a minute pays no job a draft for its
 * digest. The notify job is left for the rest (mail at once, chat-ops), when there is any; run
 * twice or after a preference changed, it records nothing twice (the same key).
 */
async function announce(ctx: EffectContext, notice: NotifyJob): Promise<void> {
  if (!tellsDeciders(ctx.queue)) return;
  const row = ctx.row;
  const { atOnce } = await recordDigestNotices(ctx.tx, {
    org_id: row.org_id,
    project_id: row.project_id,
    review_id: row.id,
    revision: notice.revision,
    reason: notice.reason,
    dedupe_key: notice.key,
  });
  if (atOnce) await ctx.enqueue(JOBS.reviewNotify.name, notice);
}

/** What a decision event carries beside the machine event: the deciding member's email. */
export type ReviewEventExtra = { by_email?: string | null };

export async function performReviewAction(action: MachineAction, ctx: EffectContext): Promise<void> {
  const row = ctx.row;
  const context = (ctx.snapshot.context ?? {}) as ReviewContext;
  const ref = { org_id: row.org_id, review_id: row.id };
  // A reviewer decision or a chat line, kept with who said it.
  const record = (f: Pick<FeedbackRow, 'kind' | 'author' | 'revision' | 'feedback' | 'message' | 'diff'>) =>
    insertFeedback(ctx.tx, {
      ...f,
      org_id: row.org_id,
      project_id: row.project_id,
      review_id: row.id,
      author_email: (ctx.event as ReviewEventExtra).by_email ?? null,
    });
  switch (action.type) {
    case 'emitReviewEvent': {
      const { type } = action.params as ReviewActionParams['emitReviewEvent'];
      // A withdrawn draft was never sent: its recipients no longer count toward the 24-hour limit.
      if (type === 'review.cancelled') await releaseRecipientUsage(ctx.tx, row.org_id, row.id);
      await settleUsage(ctx, type, context);
      // A cancellation says why (`inbox_deleted`, `deadline_exceeded`, the composer's reason).
      const extra = type === 'review.cancelled' ? { reason: context.cancel_reason } : autoSentNotice(type, context);
      await emitReviewEvent(ctx.tx, ctx.queue, row, context, { type, from_state: ctx.previousState, extra });
      if (extra?.notify_human) await announce(ctx, { ...ref, revision: context.revision, reason: 'auto_sent', key: `auto_sent:${row.version}` });
      return;
    }
    case 'deliver':
      await ctx.enqueue(JOBS.reviewDelivery.name, ref);
      return;
    case 'scheduleEscalation': {
      const p = action.params as ReviewActionParams['scheduleEscalation'];
      await ctx.enqueue(JOBS.reviewEscalation.name, { ...ref, epoch: p.epoch }, { startAfter: p.after_s });
      return;
    }
    case 'scheduleDeadline': {
      const p = action.params as ReviewActionParams['scheduleDeadline'];
      await ctx.enqueue(JOBS.reviewDeadline.name, ref, { startAfter: p.after_s });
      const warnAt = p.after_s - deadlineWarning(p.after_s);
      if (warnAt > 0 && warnAt < p.after_s) {
        await ctx.enqueue(JOBS.reviewNotify.name, { ...ref, revision: context.revision, reason: 'deadline_near', key: `deadline_near:${row.version}` }, { startAfter: warnAt });
      }
      return;
    }
    case 'notifyReviewer': {
      // Human-routed work is read from the console queue (GET A/reviews). Reviewer-routed work is
      // assigned to its reviewer agent (its queue) and, for a webhook link, pushed by a job; for a
      // live link (sse, websocket), logged for the reviewer's open stream or socket.
      const p = action.params as ReviewActionParams['notifyReviewer'];
      const reviewer = context.reviewer;
      if (p.route !== 'reviewer_agent' || !reviewer) {
        // A review just created has never been assigned: nothing to take back.
        if (p.reason !== 'created') await unassignReview(ctx.tx, row.org_id, row.id);
        // The human is told it waits (a composer's chat line is not a new wait).
        if (p.reason !== 'chat') await announce(ctx, { ...ref, revision: p.revision, reason: p.reason, key: `${p.reason}:${row.version}` });
        return;
      }
      await assignReview(
        ctx.tx,
        { org_id: row.org_id, project_id: row.project_id, review_id: row.id, link_id: reviewer.link_id, reviewer_agent_id: reviewer.agent_id },
        p.reason !== 'chat',
      );
      const link = await findLinkById(ctx.tx, row.org_id, reviewer.link_id);
      if (!link) return;
      if (link.transport !== 'webhook') {
        // Live links: the reviewer's stream or WebSocket follows this log (and replays it on reconnect).
        await appendReviewerWork(ctx.tx, {
          org_id: row.org_id,
          project_id: row.project_id,
          reviewer_agent_id: reviewer.agent_id,
          link_id: link.id,
          transport: link.transport,
          review_id: row.id,
          revision: p.revision,
          reason: p.reason,
        });
        return;
      }
      const delivery_id = newId('rld');
      await insertLinkDelivery(ctx.tx, { org_id: row.org_id, project_id: row.project_id, id: delivery_id, link_id: link.id, review_id: row.id, revision: p.revision, reason: p.reason });
      await ctx.enqueue(JOBS.reviewerPush.name, { org_id: row.org_id, delivery_id, attempt: 1 });
      return;
    }
    case 'recordFeedback': {
      const p = action.params as ReviewActionParams['recordFeedback'];
      await record({ kind: p.kind, author: p.by, revision: p.revision, feedback: p.feedback, message: null, diff: p.diff ?? null });
      return;
    }
    case 'recordChat': {
      const p = action.params as ReviewActionParams['recordChat'];
      const author = p.from === 'composer' ? 'composer' : (p.by ?? 'human');
      await record({ kind: 'chat', author, revision: p.revision, feedback: null, message: p.message, diff: null });
      return;
    }
    case 'countCategoryOutcome': {
      // In the decision's transaction: the category's runs move with the decision or not at all.
      const p = action.params as ReviewActionParams['countCategoryOutcome'];
      await recordOutcome(ctx.tx, ctx.queue, { org_id: row.org_id, project_id: row.project_id, category_id: p.category_id }, p.outcome);
      return;
    }
    case 'reconcileDelivery':
      await ctx.enqueue(JOBS.reviewReconcile.name, { ...ref, revision: (action.params as ReviewActionParams['reconcileDelivery']).revision });
      return;
    default:
      // assign and other built-in actions carry no effect.
      return;
  }
}

/**
 * An auto-send from a graduated category says so on its `review.auto_sent`: the rung and why it
 * went out, and on `auto_notify` that the human is to be told (`notify_human`), which the console
 * and event-stream readers act on.
 */
function autoSentNotice(type: string, c: ReviewContext): Record<string, unknown> | undefined {
  if (type !== 'review.auto_sent' || !c.category_rung) return undefined;
  return { rung: c.category_rung, mode_reason: c.mode_reason, notify_human: toldWhenSent(c) };
}

/** Whether a review's human is told once it goes out: sent by a category that notifies. */
export const toldWhenSent = (c: ReviewContext): boolean => c.category_rung === 'auto_notify';

/**
 * In a transaction whose transition will tell the review's deciders (announce), starts the read of
 * who they are, so it travels with the transaction's next statement instead of a round trip of its
 * own. A read nobody takes costs that statement only.
 */
export function readNoticesAhead(tx: pg.ClientBase, queue: Queue, review: { org_id: string; project_id: string }): void {
  if (tellsDeciders(queue)) readNoticeTargetsAhead(tx, review.org_id, review.project_id);
}

/** Whether this service tells deciders at all (its configuration may switch notices off). */
const tellsDeciders = (queue: Queue): boolean => queue.runs(JOBS.reviewNotify.name);
