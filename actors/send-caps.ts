// A send's recipients held against the plan's daily and monthly caps, the enrollment key's daily
// sending and the inbox's 24-hour recipient limit, shared by a new send and by a revision of a
// draft: both are refused alike, with 403 quota_exceeded and every quota figure, and the caller's
// transaction rolls back.
import type { Executor } from '../storage/db.ts';
import { quotaExceeded, type Problem } from '../machines/problems.ts';
import type { RecipientLimitCheck } from '../machines/policy/recipient-limit.ts';
import { UNLIMITED, planOf, type Plans } from '../machines/policy/plans.ts';
import { checkSendCaps } from '../machines/policy/quotas.ts';
import { oldestCountedAt } from '../storage/reviews.ts';
import { reserveSend, type SendAllowances } from '../storage/usage.ts';

export type Reservation = { org_id: string; review_id: string; recipients: number };

/**
 * Reserves the recipients and throws 403 quota_exceeded when they pass a cap. `holding` is what
 * the review held before (a revision's reservation, released by the caller just before): a
 * revision that asks for no more recipients than it held keeps its place and is not refused,
 * even if other traffic filled the period meanwhile.
 */
export async function reserveWithinCaps(
  tx: Executor,
  plans: Plans,
  a: SendAllowances,
  r: Reservation,
  now: Date,
  holding = 0,
): Promise<void> {
  const plan = planOf(a.plan_tier, plans);
  // Only a key with a daily allowance has its sends reserved and counted against it.
  const tokenId = a.token_daily_send_limit === null ? null : a.token_id;
  // With no cap to check there is nothing to reserve against, and no reason to queue this org's
  // sends behind one row lock (delivery still counts every send).
  if (plan.daily_message_cap === UNLIMITED && plan.included_messages_monthly === UNLIMITED && tokenId === null) return;
  const usage = await reserveSend(tx, { ...r, token_id: tokenId });
  if (r.recipients <= holding) return;
  const refusal = checkSendCaps({
    delta: r.recipients,
    plan,
    reserved: usage.reserved,
    day_sent: usage.day_sent,
    month_total: usage.month_total,
    token: usage.token && { limit: a.token_daily_send_limit, ...usage.token },
    now,
  });
  if (refusal) throw quotaExceeded(refusal.detail, refusal.figures);
}

/** The inbox's 24-hour recipient limit refusing a send or a revision, with when room opens again. */
export async function recipientLimitError(
  db: Executor,
  at: { org_id: string; inbox_id: string },
  limit: RecipientLimitCheck,
  by: 'send' | 'revision',
): Promise<Problem> {
  const oldest = await oldestCountedAt(db, at);
  const resetAt = new Date((oldest ?? new Date()).getTime() + 24 * 3600 * 1000);
  const outcome = by === 'send' ? 'Nothing was sent or queued.' : 'The review is unchanged.';
  return quotaExceeded(
    `This inbox may send to ${limit.limit} recipients in a rolling 24 hours; ${limit.used} are used and this ${by} adds ${limit.delta}. ${outcome}`,
    {
      reason: 'recipient_limit_exceeded',
      used: limit.used,
      delta: limit.delta,
      limit: limit.limit,
      remaining: limit.remaining,
      consumed: limit.used,
      reserved: 0,
      next_reset_at: resetAt.toISOString(),
      upgrade_required: false,
    },
  );
}
