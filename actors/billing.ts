// Billing reads and plan changes. The billing owner is the org: its plan bounds every project's
// usage. No payment provider is built in, so payments are in test mode: a plan changes on an
// operator's command or an owner's (or billing member's) console call, and a checkout is
// `503 not_configured`.
import { PLAN_TIERS, UNLIMITED, monthOf, planOf, type Plan, type PlanTier } from '../machines/policy/plans.ts';
import { remainingOf } from '../machines/policy/quotas.ts';
import { Problem, badRequest, notFound } from '../machines/problems.ts';
import type { Config } from '../service/config.ts';
import type { Executor } from '../storage/db.ts';
import { findOrg, setPlanTier } from '../storage/tenancy.ts';
import { orgUsage, sendAllowances, tokenSendUsage } from '../storage/usage.ts';

/** Whether a payment provider is configured: none is, in this version. */
export const PAYMENT_CONFIGURED = false;

const plansList = (config: Config): Plan[] => PLAN_TIERS.map((t) => config.plans[t]);

export async function billingUsage(db: Executor, config: Config, orgId: string, month: string) {
  const org = await findOrg(db, orgId);
  if (!org) throw notFound('org');
  const plan = planOf(org.plan_tier, config.plans);
  const u = await orgUsage(db, orgId, month);
  const m = u.month;
  const total = m.sent_recipients + m.received_recipients;
  // The peak of a month is what its counters saw; the current month's cannot be below what is stored now.
  const peak = month === monthOf(new Date()) ? Math.max(m.storage_peak_bytes, u.storage_bytes) : m.storage_peak_bytes;
  const storageLimit = plan.storage_bytes;
  const overBy = (bytes: number) => (storageLimit === UNLIMITED ? 0 : Math.max(0, bytes - storageLimit));
  return {
    billing_owner_id: orgId,
    customer_id: orgId,
    month,
    sent_messages: m.sent_messages,
    sent_recipients: m.sent_recipients,
    received_messages: m.received_messages,
    received_recipients: m.received_recipients,
    total_messages: total,
    storage_bytes: u.storage_bytes,
    storage_used_bytes: u.storage_bytes,
    storage_peak_used_bytes: peak,
    storage_included_bytes: storageLimit,
    storage_over_limit_bytes: overBy(u.storage_bytes),
    storage_peak_over_limit_bytes: overBy(peak),
    storage_mailbox_count: u.mailbox_count,
    storage_quota_exceeded: storageLimit !== UNLIMITED && u.storage_bytes >= storageLimit,
    message_quota_limit: plan.included_messages_monthly,
    message_quota_remaining: remainingOf(plan.included_messages_monthly, total),
    message_quota_exceeded: plan.included_messages_monthly !== UNLIMITED && total >= plan.included_messages_monthly,
    storage_captured_at: new Date().toISOString(),
  };
}

export async function billingSummary(db: Executor, config: Config, orgId: string) {
  const org = await findOrg(db, orgId);
  if (!org) throw notFound('org');
  const plan = planOf(org.plan_tier, config.plans);
  const now = new Date();
  return {
    org_id: orgId,
    customer_id: orgId,
    billing_owner_id: orgId,
    payment_mode: 'test' as const,
    payment_configured: PAYMENT_CONFIGURED,
    plan_tier: plan.tier,
    entitlements: plan,
    usage: await billingUsage(db, config, orgId, monthOf(now)),
    plans: plansList(config),
    subscription: {
      org_id: orgId,
      customer_id: orgId,
      plan_tier: plan.tier,
      status: 'active',
      cancel_at_period_end: false,
      current_period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      current_period_end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    },
  };
}

/** Moves the org to `tier` (test payment mode: nothing is charged). */
export async function changePlan(db: Executor, orgId: string, tier: string): Promise<PlanTier> {
  if (!(PLAN_TIERS as readonly string[]).includes(tier)) {
    throw badRequest('tier', `tier must be one of ${PLAN_TIERS.join(', ')}.`, 'invalid_enum');
  }
  if (!(await setPlanTier(db, orgId, tier))) throw notFound('org');
  return tier as PlanTier;
}

/** A checkout needs a payment provider; none is configured in this deployment. */
export function checkout(): never {
  throw new Problem('not_configured', {
    detail: 'No payment provider is configured in this deployment: plans are changed in test payment mode (an operator or an owner on the console).',
  });
}

/**
 * What an agent may still send: today under the plan's daily cap, this month under its quota,
 * and today under its enrollment key's allowance (null when it has none). -1 is unlimited.
 */
export async function sendingRemaining(db: Executor, config: Config, orgId: string, agentId: string) {
  const a = await sendAllowances(db, orgId, agentId);
  const plan = planOf(a.plan_tier, config.plans);
  const u = await orgUsage(db, orgId, monthOf(new Date()));
  const token = a.token_id && a.token_daily_send_limit !== null ? await tokenSendUsage(db, orgId, a.token_id) : null;
  return {
    plan_tier: plan.tier,
    daily_message_cap: plan.daily_message_cap,
    daily_remaining: remainingOf(plan.daily_message_cap, u.today.sent_recipients + u.reserved),
    monthly_message_quota: plan.included_messages_monthly,
    monthly_remaining: remainingOf(plan.included_messages_monthly, u.month.sent_recipients + u.month.received_recipients + u.reserved),
    enrollment_daily_send_limit: token?.limit ?? null,
    enrollment_daily_remaining: token && token.limit !== null ? remainingOf(token.limit, token.day_sent + token.reserved) : null,
  };
}
