// The shape of a review link's body.
import type { ReviewLinkView } from '../../storage/review-links.ts';

/** A review link as the contract shows it: the secret never, only whether one is set. */
export const presentReviewLink = (l: ReviewLinkView) => ({
  id: l.id,
  inbox_address: l.inbox_address ?? '',
  reviewer_agent_id: l.reviewer_agent_id,
  transport: l.transport,
  webhook_url: l.webhook_url,
  has_secret: l.secret_sealed !== null,
  escalate_after_s: l.escalate_after_s,
  max_hops: l.max_hops,
  review_deadline_s: l.review_deadline_s,
  active: l.active,
  consec_failures: l.consec_failures,
  created_at: new Date(l.created_at).toISOString(),
  updated_at: new Date(l.updated_at).toISOString(),
});
