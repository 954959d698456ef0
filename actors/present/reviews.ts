// The shapes of review bodies, as every transport (REST, WebSocket, reviewer webhooks) shows them:
// the review record with the verbs its viewer may use, send receipts, review events and feedback.
import type { MachineDescription } from '../run-machine.ts';
import type { EffectiveReviewPolicy } from '../../machines/policy/review-policy.ts';
import type { RiskDial } from '../../machines/policy/risk-dial.ts';
import type { Recipient } from '../../machines/policy/send-body.ts';
import { allowedActions, type ReviewActor } from '../../machines/review-verbs.ts';
import type { ContactRow } from '../../storage/contacts.ts';
import type { ReviewEventRow } from '../../storage/review-events.ts';
import type { FeedbackRow, ReviewRow } from '../../storage/reviews.ts';
import type { SuppressionRow } from '../../storage/suppressions.ts';
import { restoreReview } from '../reviews/snapshot.ts';

export type ReviewView = ReturnType<typeof reviewView>;

/** The review record (decisions.md, Records), with the verbs `actor` may use now. */
export function reviewView(row: ReviewRow, actor: ReviewActor) {
  const snapshot = restoreReview(row);
  const c = snapshot.context;
  const d = c.draft ?? {};
  return {
    id: row.id,
    state: row.state,
    revision: c.revision,
    version: row.version,
    inbox_id: row.inbox_id,
    agent_id: row.agent_id,
    kind: row.kind,
    category_id: c.category_id,
    effective_mode: c.effective_mode,
    mode_reason: c.mode_reason ?? null,
    route: c.route,
    reviewer_agent_id: c.route === 'reviewer_agent' ? (c.reviewer?.agent_id ?? null) : null,
    hops: c.hops,
    max_hops: c.max_hops,
    draft: {
      to: (d.to as Recipient[] | undefined) ?? [],
      cc: (d.cc as Recipient[] | undefined) ?? [],
      subject: d.subject ?? null,
      text: d.text ?? null,
      thread_id: d.thread_id ?? null,
      in_reply_to: d.in_reply_to ?? null,
      attachments: (d.attachments as unknown[] | undefined) ?? [],
    },
    parent_message_id: row.parent_message_id,
    /** Set when the send answers or forwards a message screening flagged: why a human must decide. */
    screening: (d.screening as { message_id: string; risk: string; reasons: string[] } | undefined) ?? null,
    intent: c.intent,
    rules_version: c.rules_version,
    feedback: c.feedback,
    sent_message_id: c.sent_message_id,
    send_needs_reconciliation: c.reconciliation_needed,
    last_error: c.last_error,
    cancel_reason: c.cancel_reason,
    cancelled_by: c.cancelled_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deadline_at: row.deadline_at,
    allowed_actions: allowedActions(snapshot, actor),
  };
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export const presentReview = (v: ReviewView) => ({
  ...v,
  created_at: iso(v.created_at),
  updated_at: iso(v.updated_at),
  deadline_at: iso(v.deadline_at),
});

export const presentSendAccepted = (v: ReviewView, released: boolean, policy: EffectiveReviewPolicy) => ({
  outcome: released ? 'released' : 'queued_for_review',
  review_id: v.id,
  state: v.state,
  revision: v.revision,
  version: v.version,
  effective_mode: v.effective_mode,
  effective_review_policy: policy,
  review: presentReview(v),
});

/** The review lifecycle payload (contract, event types), as the event log and the queue carry it. */
export function reviewEventPayload(
  item: Pick<ReviewEventRow, 'seq' | 'review_id' | 'type' | 'state' | 'from_state' | 'category_id' | 'revision' | 'effective_mode' | 'extra'>,
): Record<string, unknown> {
  return {
    review_id: item.review_id,
    seq: item.seq,
    type: item.type,
    state: item.state,
    from_state: item.from_state,
    ...(item.category_id ? { category_id: item.category_id } : {}),
    revision: item.revision,
    effective_mode: item.effective_mode,
    ...item.extra,
  };
}

/** A review event item (decisions.md, Records), with the members some types add (front_run_next). */
export const presentReviewEvent = (e: ReviewEventRow) => ({
  seq: e.seq,
  review_id: e.review_id,
  type: e.type,
  state: e.state,
  from_state: e.from_state,
  category_id: e.category_id,
  revision: e.revision,
  effective_mode: e.effective_mode,
  created_at: iso(e.created_at),
  ...e.extra,
});

export const presentFeedback = (f: FeedbackRow) => ({
  seq: f.seq,
  kind: f.kind,
  author: f.author,
  ...(f.author_email ? { author_email: f.author_email } : {}),
  revision: f.revision,
  feedback: f.feedback,
  message: f.message,
  diff: f.diff,
  created_at: iso(f.created_at),
});

export const presentContact = (c: ContactRow) => ({
  id: c.id,
  inbox_id: c.inbox_id,
  kind: c.kind,
  pattern: c.pattern,
  direction: c.direction,
  created_at: iso(c.created_at),
});

export const presentSuppression = (s: SuppressionRow) => ({
  email: s.email,
  origin: s.origin,
  reason: s.reason,
  created_at: iso(s.created_at),
});

export const presentReviewSettings = (s: { default_review_policy: string; dial: RiskDial; updated_at: Date | null }) => ({
  default_review_policy: s.default_review_policy,
  ...s.dial,
  updated_at: iso(s.updated_at),
});

export const presentMachine = (m: MachineDescription) => ({
  ...m,
  transitions: m.transitions.map((t) => ({ ...t, created_at: iso(t.created_at) })),
});
