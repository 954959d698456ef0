import type { ReviewView } from '../../actors/reviews.ts';
import type { MachineDescription } from '../../actors/run-machine.ts';
import type { EffectiveReviewPolicy } from '../../machines/policy/review-policy.ts';
import type { RiskDial } from '../../machines/policy/risk-dial.ts';
import type { ContactRow } from '../../storage/contacts.ts';
import type { ReviewEventRow } from '../../storage/review-events.ts';
import type { FeedbackRow } from '../../storage/reviews.ts';
import type { SuppressionRow } from '../../storage/suppressions.ts';

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
