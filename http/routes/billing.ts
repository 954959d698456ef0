// Console plane: the org's billing summary and usage, plan changes in test payment mode, checkout.
import { billingSummary, billingUsage, changePlan, checkout } from '../../actors/billing.ts';
import { monthOf } from '../../machines/policy/plans.ts';
import type { RouteTable, Services } from '../context.ts';

export function billingRoutes(s: Services): RouteTable {
  return {
    adminGetBilling: async (ctx) => {
      ctx.body = await billingSummary(s.db, s.config, ctx.state.params.org_id!);
    },
    adminGetBillingUsage: async (ctx) => {
      const month = (ctx.state.query.month as string | undefined) ?? monthOf(s.now());
      ctx.body = await billingUsage(s.db, s.config, ctx.state.params.org_id!, month);
    },
    adminChangePlan: async (ctx) => {
      await changePlan(s.db, ctx.state.params.org_id!, ctx.state.body.tier);
      ctx.body = await billingSummary(s.db, s.config, ctx.state.params.org_id!);
    },
    adminCheckout: async () => checkout(),
  };
}
