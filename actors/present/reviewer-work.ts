// The reviewer work item: what a reviewer agent receives (webhook push, GET /v1/reviewer/queue, and
// later the stream and WebSocket transports) to decide a review. Below http/ so the delivery worker
// and every transport send the same shape.
import type { ReviewView } from '../present/reviews.ts';
import type { WorkThreadMessage } from '../../storage/review-links.ts';
import type { FeedbackRow } from '../../storage/reviews.ts';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** How many of the thread's last messages a work item carries. */
export const WORK_THREAD_MESSAGES = 5;

export type WorkItemInput = {
  review: ReviewView;
  reason: string;
  routed_at: Date | null;
  feedback: FeedbackRow[];
  thread: WorkThreadMessage[];
};

export type WorkItem = ReturnType<typeof workItemBody>;

/**
 * `review` is the review record as the reviewer sees it; `draft`, `intent`, `rules_version` and
 * `allowed_actions` are repeated at the top so a reviewer reads what it decides on at a glance.
 */
export function workItemBody(w: WorkItemInput) {
  const v = w.review;
  return {
    object: 'reviewer_work' as const,
    review_id: v.id,
    reason: w.reason,
    routed_at: iso(w.routed_at),
    revision: v.revision,
    draft: v.draft,
    intent: v.intent,
    rules_version: v.rules_version,
    allowed_actions: v.allowed_actions,
    review: { ...v, created_at: iso(v.created_at), updated_at: iso(v.updated_at), deadline_at: iso(v.deadline_at) },
    thread: w.thread.map((m) => ({
      id: m.id,
      direction: m.direction,
      from: { name: m.from_name ?? '', email: m.from_email ?? '' },
      to: m.to_addrs,
      subject: m.subject,
      text: m.text ?? m.extracted_text,
      received_at: iso(m.received_at),
    })),
    feedback: w.feedback.map((f) => ({
      seq: f.seq,
      kind: f.kind,
      author: f.author,
      revision: f.revision,
      feedback: f.feedback,
      message: f.message,
      diff: f.diff,
      created_at: iso(f.created_at),
    })),
  };
}
