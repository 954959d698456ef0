// Console plane of the Review Loop: settings, the human queue and decisions, machine snapshots.
import { categoryKind } from '../../actors/categories.ts';
import { humanDecision } from '../../actors/reviews/decisions.ts';
import { reviewKind } from '../../actors/reviews/kind.ts';
import { reviewView } from '../../actors/present/reviews.ts';
import { rulesStanding } from '../../actors/reviews/rules-standing.ts';
import { reviewSettings, updateInboxPolicy, updateReviewSettings } from '../../actors/review-settings.ts';
import { describeMachine } from '../../actors/run-machine.ts';
import { supportCaseKind } from '../../actors/support/kind.ts';
import { ruleKind } from '../../actors/rules.ts';
import { machineGraph } from '../../machines/graph.ts';
import { findReview, listFeedback } from '../../storage/reviews.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { notFound } from '../../machines/problems.ts';
import { presentInbox } from '../../actors/present/inboxes.ts';
import { presentDelivery } from '../../actors/present/messages.ts';
import { clearInboxSenderHealth, inboxSenderHealth } from '../../actors/delivery-reports.ts';
import { deliveryStatusOf } from '../../storage/delivery-reports.ts';
import { presentFeedback, presentMachine, presentReview, presentReviewSettings } from '../../actors/present/reviews.ts';
import { reviewPage } from './reviews.ts';
import { createEventFeed } from '../sse.ts';

const at = (ctx: ApiContext) => ({ org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id! });

/** Machines operators can inspect, by the kind in the path. */
const MACHINE_KINDS = { review: reviewKind, support_case: supportCaseKind, category: categoryKind, rule: ruleKind };

export function adminReviewRoutes(s: Services): RouteTable {
  const feed = createEventFeed(s);
  return {
    adminStreamEvents: async (ctx) => {
      // A console member reads the whole project: every agent's and every inbox's events.
      await feed.open(ctx, {
        scope: { ...at(ctx), agent_id: null, inbox_id: null },
        types: ctx.state.query.types,
        lastEventId: ctx.get('last-event-id') || ctx.state.query.last_event_id,
      });
    },
    adminGetReviewSettings: async (ctx) => {
      ctx.body = presentReviewSettings(await reviewSettings(s.db, at(ctx).org_id));
    },
    adminUpdateReviewSettings: async (ctx) => {
      ctx.body = presentReviewSettings(await updateReviewSettings(s.db, at(ctx).org_id, ctx.state.body));
    },
    adminGetSenderHealth: async (ctx) => {
      ctx.body = await inboxSenderHealth(s.db, s.config, { ...at(ctx), inbox: ctx.state.params.inbox_id! });
    },
    adminClearSenderHealth: async (ctx) => {
      ctx.body = await clearInboxSenderHealth(s.db, s.config, { ...at(ctx), inbox: ctx.state.params.inbox_id! });
    },
    adminUpdateInbox: async (ctx) => {
      ctx.body = presentInbox(await updateInboxPolicy(s.db, { ...at(ctx), inbox: ctx.state.params.inbox_id! }, ctx.state.body));
    },
    adminListReviews: async (ctx) => {
      const q = ctx.state.query;
      const scope = { ...at(ctx), agent_id: q.agent_id ? String(q.agent_id) : null, inbox_id: q.inbox_id ? String(q.inbox_id) : null };
      ctx.body = await reviewPage(s, ctx, scope, 'asc', 'human');
    },
    adminGetReview: async (ctx) => {
      const row = await findReview(s.db, { ...at(ctx), agent_id: null, inbox_id: null }, ctx.state.params.review_id!);
      if (!row) throw notFound('review');
      const history = await listFeedback(s.db, row.org_id, row.id);
      const view = reviewView(row, 'human');
      const delivery = presentDelivery(await deliveryStatusOf(s.db, row.org_id, row.id));
      ctx.body = { ...presentReview(view), ...(await rulesStanding(s.db, row, view.rules_version)), feedback_history: history.map(presentFeedback), delivery };
    },
    adminDecideReview: async (ctx) => {
      const row = await humanDecision(s, { ...at(ctx), email: ctx.state.console!.email }, ctx.state.params.review_id!, ctx.state.body);
      ctx.body = presentReview(reviewView(row, 'human'));
    },
    adminGetMachine: async (ctx) => {
      const def = MACHINE_KINDS[ctx.state.params.kind as keyof typeof MACHINE_KINDS];
      const found = def ? await describeMachine(s.db, def, at(ctx).org_id, ctx.state.params.machine_id!) : null;
      // A rule of the org layer (no project) belongs to every project of the org.
      const inProject = found && (found.project_id === at(ctx).project_id || (found.kind === 'rule' && found.project_id === ''));
      if (!found || !inProject) throw notFound('machine');
      // The definition travels with the instance, so the console draws the diagram it is in.
      ctx.body = { ...presentMachine(found), diagram: machineGraph(def!.machine) };
    },
  };
}
