// Plan tiers and what each includes: the contract's plan record, as data. -1 means unlimited (or
// custom, for the enterprise tier). A deployment replaces any of these numbers with a plans file
// (PLANS_FILE, read by service/config.ts and checked by `parsePlans` here).

export const PLAN_TIERS = ['free', 'developer', 'startup', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export type Plan = {
  tier: PlanTier;
  name: string;
  monthly_price_cents: number;
  /** What a .com domain costs a year, shown beside the plan for reference. */
  domain_annual_com_reference_cents: number;
  /** Inbound plus outbound messages a calendar month (UTC): received copies plus sent recipients. */
  included_messages_monthly: number;
  /** Recipients an org may send to in a UTC day. */
  daily_message_cap: number;
  inbox_limit: number;
  custom_domain_limit: number;
  /** Bytes of stored mail (raw sources, attachments included) across the org's inboxes. */
  storage_bytes: number;
  pod_limit: number;
  webhook_limit: number;
  member_limit: number;
  checkout_available: boolean;
  custom: boolean;
};

export type Plans = Record<PlanTier, Plan>;

export const UNLIMITED = -1;

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

// decisions.md fixes inboxes and monthly messages per tier and the free daily cap; the rest are our
// choices, written in the OpenAPI document's Plan schema: storage grows with the tier, paid tiers
// have no daily cap (the monthly quota bounds them), enterprise is custom (-1 everywhere).
export const DEFAULT_PLANS: Plans = {
  free: {
    tier: 'free', name: 'Free', monthly_price_cents: 0, domain_annual_com_reference_cents: 1500,
    included_messages_monthly: 3_000, daily_message_cap: 100, inbox_limit: 3, custom_domain_limit: 0,
    storage_bytes: 1 * GiB, pod_limit: 1, webhook_limit: 3, member_limit: 3, checkout_available: false, custom: false,
  },
  developer: {
    tier: 'developer', name: 'Developer', monthly_price_cents: 2000, domain_annual_com_reference_cents: 1500,
    included_messages_monthly: 10_000, daily_message_cap: UNLIMITED, inbox_limit: 10, custom_domain_limit: 1,
    storage_bytes: 10 * GiB, pod_limit: 1, webhook_limit: 10, member_limit: 5, checkout_available: true, custom: false,
  },
  startup: {
    tier: 'startup', name: 'Startup', monthly_price_cents: 20000, domain_annual_com_reference_cents: 1500,
    included_messages_monthly: 150_000, daily_message_cap: UNLIMITED, inbox_limit: 150, custom_domain_limit: 10,
    storage_bytes: 100 * GiB, pod_limit: 5, webhook_limit: 50, member_limit: 25, checkout_available: true, custom: false,
  },
  enterprise: {
    tier: 'enterprise', name: 'Enterprise', monthly_price_cents: UNLIMITED, domain_annual_com_reference_cents: 1500,
    included_messages_monthly: UNLIMITED, daily_message_cap: UNLIMITED, inbox_limit: UNLIMITED, custom_domain_limit: UNLIMITED,
    storage_bytes: UNLIMITED, pod_limit: UNLIMITED, webhook_limit: UNLIMITED, member_limit: UNLIMITED, checkout_available: false, custom: true,
  },
};

const NUMERIC_FIELDS = [
  'monthly_price_cents', 'domain_annual_com_reference_cents', 'included_messages_monthly', 'daily_message_cap',
  'inbox_limit', 'custom_domain_limit', 'storage_bytes', 'pod_limit', 'webhook_limit', 'member_limit',
] as const;

/**
 * A plans file: a JSON object keyed by tier, each value any subset of a plan's fields, laid over
 * the defaults. Throws an Error naming the tier and field that is wrong.
 */
export function parsePlans(json: unknown, base: Plans = DEFAULT_PLANS): Plans {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('must be a JSON object keyed by plan tier');
  const out = structuredClone(base);
  for (const [tier, value] of Object.entries(json as Record<string, unknown>)) {
    if (!(PLAN_TIERS as readonly string[]).includes(tier)) throw new Error(`unknown plan tier "${tier}" (tiers: ${PLAN_TIERS.join(', ')})`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${tier} must be an object of plan fields`);
    const plan = out[tier as PlanTier];
    for (const [field, v] of Object.entries(value as Record<string, unknown>)) {
      if ((NUMERIC_FIELDS as readonly string[]).includes(field)) {
        if (!Number.isSafeInteger(v) || (v as number) < UNLIMITED) throw new Error(`${tier}.${field} must be an integer, -1 for unlimited`);
        (plan as Record<string, unknown>)[field] = v;
      } else if (field === 'name') {
        if (typeof v !== 'string' || v.trim() === '') throw new Error(`${tier}.name must be a non-empty string`);
        plan.name = v;
      } else if (field === 'checkout_available' || field === 'custom') {
        if (typeof v !== 'boolean') throw new Error(`${tier}.${field} must be true or false`);
        plan[field] = v;
      } else if (field !== 'tier') {
        throw new Error(`${tier}.${field} is not a plan field`);
      }
    }
  }
  return out;
}

/** The plan of a tier; an unknown tier (a row written by a newer version) gets the free plan. */
export function planOf(tier: string, plans: Plans = DEFAULT_PLANS): Plan {
  return (plans as Record<string, Plan>)[tier] ?? plans.free;
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

/** Start of the next UTC day: the boundary where daily usage resets. */
export function nextDayReset(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** The UTC month of an instant, `YYYY-MM`. */
export const monthOf = (d: Date): string => d.toISOString().slice(0, 7);
