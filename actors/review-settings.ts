// Who decides: the account's default review policy and risk dial, and an inbox's own override.
import { notFound } from '../machines/problems.ts';
import { effectiveRiskDial, type RiskDial } from '../machines/policy/risk-dial.ts';
import type { ReviewPolicy } from '../machines/policy/review-policy.ts';
import { withTransaction, type Executor, type Pool } from '../storage/db.ts';
import type { InboxWithPolicy } from '../storage/inboxes.ts';
import { readReviewSettings, updateInboxReviewSettings, writeReviewSettings } from '../storage/review-settings.ts';

export type ReviewSettings = { default_review_policy: ReviewPolicy; dial: RiskDial; updated_at: Date | null };

export async function reviewSettings(db: Executor, orgId: string): Promise<ReviewSettings> {
  const stored = await readReviewSettings(db, orgId);
  if (!stored) throw notFound('org');
  return { default_review_policy: stored.default_review_policy, dial: effectiveRiskDial(stored.dial), updated_at: stored.updated_at };
}

export function updateReviewSettings(
  db: Pool,
  orgId: string,
  change: Partial<RiskDial> & { default_review_policy?: ReviewPolicy },
): Promise<ReviewSettings> {
  return withTransaction(db, async (tx) => {
    await writeReviewSettings(tx, orgId, change);
    return reviewSettings(tx, orgId);
  });
}

export async function updateInboxPolicy(
  db: Executor,
  at: { org_id: string; project_id: string; inbox: string },
  change: { review_policy?: ReviewPolicy | null; recipient_limit_24h?: number },
): Promise<InboxWithPolicy> {
  const inbox = await updateInboxReviewSettings(db, at, change);
  if (!inbox) throw notFound('inbox');
  return inbox;
}
