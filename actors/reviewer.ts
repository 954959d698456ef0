// The reviewer agent's side: its queue of work items, and the work item of one review.
import type { Executor } from '../storage/db.ts';
import { REVIEWER_STATES, findAssignment, lastThreadMessages, resetReviewerFailures, reviewerQueue, type QueueCursor } from '../storage/review-links.ts';
import type { ReviewerWorkRow } from '../storage/reviewer-work.ts';
import { findReview, listFeedback, type ReviewRow } from '../storage/reviews.ts';
import { WORK_THREAD_MESSAGES, workItemBody, type WorkItem } from './present/reviewer-work.ts';
import { restoreReview } from './reviews/snapshot.ts';
import { reviewView } from './present/reviews.ts';
import { routedTo, type ReviewerScope } from './reviews/decisions.ts';

/** The work item of a review: the review, its thread's last messages and the feedback so far. */
export async function buildWorkItem(db: Executor, row: ReviewRow, reason: string, routedAt: Date | null): Promise<WorkItem> {
  const view = reviewView(row, 'reviewer_agent');
  const threadId = view.draft.thread_id;
  const [feedback, thread] = await Promise.all([
    listFeedback(db, row.org_id, row.id),
    threadId ? lastThreadMessages(db, { org_id: row.org_id, inbox_id: row.inbox_id }, threadId, WORK_THREAD_MESSAGES) : Promise.resolve([]),
  ]);
  return workItemBody({ review: view, reason, routed_at: routedAt, feedback, thread });
}

/** A reviewer agent connected for work: its links are healthy again. */
export async function reviewerConnected(db: Executor, who: { org_id: string; agent_id: string }): Promise<void> {
  await resetReviewerFailures(db, who.org_id, who.agent_id);
}

/** A page of the reviews routed to this reviewer agent and waiting on it, oldest routing first. */
export async function reviewerQueuePage(db: Executor, who: ReviewerScope, page: { limit: number; after: QueueCursor | null }) {
  // Asking for work is a call of the reviewer: its links are healthy again.
  await resetReviewerFailures(db, who.org_id, who.agent_id);
  const entries = await reviewerQueue(db, { org_id: who.org_id, reviewer_agent_id: who.agent_id }, { limit: page.limit + 1, after: page.after });
  const items: Array<{ item: WorkItem; cursor: QueueCursor }> = [];
  for (const e of entries) {
    const row = await findReview(db, { org_id: who.org_id, project_id: who.project_id, agent_id: null, inbox_id: null }, e.review_id);
    if (!row) continue; // outside the key's project
    items.push({ item: await buildWorkItem(db, row, 'queued', e.routed_at), cursor: { routed_us: e.routed_us, review_id: e.review_id } });
  }
  return items;
}

/**
 * The work item a logged routing stands for, if it still waits on this reviewer: the review is in
 * a reviewer state, routed to it, at the logged revision, within its key's project. Null for work
 * that moved on (decided, handed back, escalated, revised since): a replay never sends stale work.
 */
export async function currentWork(db: Executor, who: ReviewerScope, logged: Pick<ReviewerWorkRow, 'review_id' | 'revision' | 'reason'>): Promise<WorkItem | null> {
  const [row, assignment] = await Promise.all([
    findReview(db, { org_id: who.org_id, project_id: who.project_id, agent_id: null, inbox_id: null }, logged.review_id),
    findAssignment(db, who.org_id, logged.review_id),
  ]);
  if (!row || !assignment || assignment.reviewer_agent_id !== who.agent_id || !REVIEWER_STATES.includes(row.state)) return null;
  const snapshot = restoreReview(row);
  if (!routedTo(snapshot, who.agent_id) || snapshot.context.revision !== logged.revision) return null;
  return buildWorkItem(db, row, logged.reason, assignment.routed_at);
}
