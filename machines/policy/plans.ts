// Plan tiers and what each includes. -1 means unlimited (the enterprise tier is set per contract).

export const PLAN_TIERS = ['free', 'developer', 'startup', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export type Plan = {
  tier: PlanTier;
  name: string;
  inbox_limit: number;
  /** Inbound plus outbound messages a calendar month (UTC). */
  included_messages_monthly: number;
  daily_message_cap: number;
};

export const UNLIMITED = -1;

export const PLANS: Record<PlanTier, Plan> = {
  free: { tier: 'free', name: 'Free', inbox_limit: 3, included_messages_monthly: 3_000, daily_message_cap: 100 },
  developer: { tier: 'developer', name: 'Developer', inbox_limit: 10, included_messages_monthly: 10_000, daily_message_cap: UNLIMITED },
  startup: { tier: 'startup', name: 'Startup', inbox_limit: 150, included_messages_monthly: 150_000, daily_message_cap: UNLIMITED },
  enterprise: { tier: 'enterprise', name: 'Enterprise', inbox_limit: UNLIMITED, included_messages_monthly: UNLIMITED, daily_message_cap: UNLIMITED },
};

/** The plan of a tier; an unknown tier (a row written by a newer version) gets the free plan. */
export function planOf(tier: string): Plan {
  return (PLANS as Record<string, Plan>)[tier] ?? PLANS.free;
}

export type QuotaCheck = { allowed: boolean; used: number; limit: number; remaining: number };

/** Whether `delta` more fits under `limit` when `used` are taken; -1 is unlimited. */
export function checkQuota(used: number, limit: number, delta = 1): QuotaCheck {
  if (limit === UNLIMITED) return { allowed: true, used, limit, remaining: UNLIMITED };
  return { allowed: used + delta <= limit, used, limit, remaining: Math.max(0, limit - used) };
}

/** Start of the next calendar month in UTC: the boundary where monthly usage resets. */
export function nextUsageReset(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
