// The sending caps a queued send is checked against, in order: the plan's daily message cap, the
// plan's monthly quota, then the enrollment key's daily sending. Used counts what was delivered in
// the period plus every pending reservation (reservations survive a period boundary until they
// are consumed or released). Pure: the figures come from storage, the time from the caller.
import type { QuotaFigures } from '../problems.ts';
import { UNLIMITED, nextDayReset, nextUsageReset, type Plan } from './plans.ts';

export type SendCapInput = {
  delta: number;
  plan: Plan;
  reserved: number;
  day_sent: number;
  month_total: number;
  token: { limit: number | null; reserved: number; day_sent: number } | null;
  now: Date;
};

export type CapRefusal = { figures: QuotaFigures; detail: string };

function over(reason: string, consumed: number, reserved: number, delta: number, limit: number, resetAt: Date, upgrade: boolean, what: string): CapRefusal | null {
  if (limit === UNLIMITED) return null;
  const used = consumed + reserved;
  if (used + delta <= limit) return null;
  return {
    figures: {
      reason, used, delta, limit, remaining: Math.max(0, limit - used), consumed, reserved,
      next_reset_at: resetAt.toISOString(), upgrade_required: upgrade,
    },
    detail: `${what} is ${limit}; ${used} are used (${consumed} sent, ${reserved} queued) and this send adds ${delta}. Nothing was sent or queued.`,
  };
}

/** The first cap the send would pass, or null when it fits under all of them. */
export function checkSendCaps(i: SendCapInput): CapRefusal | null {
  return (
    over('daily_message_cap_exceeded', i.day_sent, i.reserved, i.delta, i.plan.daily_message_cap, nextDayReset(i.now), true,
      `The ${i.plan.name} plan's daily message cap`) ??
    over('monthly_message_quota_exceeded', i.month_total, i.reserved, i.delta, i.plan.included_messages_monthly, nextUsageReset(i.now), true,
      `The ${i.plan.name} plan's monthly message quota (sent recipients plus received messages)`) ??
    (i.token && i.token.limit !== null
      ? over('enrollment_token_daily_send_exhausted', i.token.day_sent, i.token.reserved, i.delta, i.token.limit, nextDayReset(i.now), false,
          "The daily sending allowance of this agent's enrollment key")
      : null)
  );
}

/** What is left of a cap, -1 when unlimited. */
export const remainingOf = (limit: number, used: number): number => (limit === UNLIMITED ? UNLIMITED : Math.max(0, limit - used));
