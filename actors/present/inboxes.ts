import { resolveReviewPolicy } from '../../machines/policy/review-policy.ts';
import type { InboxWithPolicy } from '../../storage/inboxes.ts';

export const presentInbox = (i: InboxWithPolicy) => ({
  id: i.id,
  address: i.address,
  display_name: i.display_name,
  org_id: i.org_id,
  project_id: i.project_id,
  agent_id: i.agent_id,
  domain: i.domain,
  review_policy: i.review_policy,
  effective_review_policy: resolveReviewPolicy({ inboxOverride: i.review_policy, accountDefault: i.default_review_policy }),
  recipient_limit_24h: i.recipient_limit_24h,
  webhook_url: i.webhook_url,
  created_at: i.created_at.toISOString(),
});
