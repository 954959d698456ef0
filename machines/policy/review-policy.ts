// Which review policy applies to an inbox, and why: the per-inbox override wins over the account
// default, and with neither set a send needs a human (new inboxes start at require_review).

export type ReviewPolicy = 'require_review' | 'allow_direct';
export type ReviewPolicySource = 'inbox_override' | 'account_default';

export interface EffectiveReviewPolicy {
  policy: ReviewPolicy;
  source: ReviewPolicySource;
}

export const DEFAULT_REVIEW_POLICY: ReviewPolicy = 'require_review';

export function resolveReviewPolicy(input: {
  inboxOverride?: ReviewPolicy | null;
  accountDefault?: ReviewPolicy | null;
}): EffectiveReviewPolicy {
  if (input.inboxOverride != null) return { policy: input.inboxOverride, source: 'inbox_override' };
  return { policy: input.accountDefault ?? DEFAULT_REVIEW_POLICY, source: 'account_default' };
}
