// Console plane of writing rules: project rules (A/rules) and org-layer rules (/v1/admin/orgs/{org_id}/rules).
import { presentAudit, ruleView } from '../../actors/present/rules.ts';
import { createRule, decideRule, proposeRuleFromReview, reviseRule, undoRuleChange, type RuleHome } from '../../actors/rules.ts';
import { highWater, listAudit, listRules } from '../../storage/rules.ts';
import type { ApiContext, Handler, RouteTable, Services } from '../context.ts';

/** The rule's home: the project in the path, or the org layer ('') on an org path. */
const home = (ctx: ApiContext): RuleHome => ({ org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id ?? '' });
const email = (ctx: ApiContext) => ctx.state.console!.email;

function clampLimit(raw: unknown): number {
  const n = Number(raw ?? 50);
  return Number.isFinite(n) ? Math.min(100, Math.max(1, Math.trunc(n))) : 50;
}

export function adminRuleRoutes(s: Services): RouteTable {
  const deps = { db: s.db, queue: s.queue };
  const create: Handler = async (ctx) => {
    ctx.status = 201;
    ctx.body = ruleView(await createRule(deps, home(ctx), ctx.state.body, { kind: 'human', email: email(ctx) }));
  };
  const list: Handler = async (ctx) => {
    const q = ctx.state.query;
    const h = home(ctx);
    const rows = await listRules(s.db, h.org_id, h.project_id, { status: q.status ? String(q.status) : null, lineage_id: q.lineage_id ? String(q.lineage_id) : null });
    // A project's list says which rules version its drafts are checked against; the org layer has none of its own.
    ctx.body = h.project_id ? { data: rows.map(ruleView), rules_version: await highWater(s.db, h.org_id, h.project_id) } : { data: rows.map(ruleView) };
  };
  const revise: Handler = async (ctx) => {
    ctx.status = 201;
    ctx.body = ruleView(await reviseRule(deps, home(ctx), ctx.state.params.rule_id!, ctx.state.body, email(ctx)));
  };
  const decide = (verb: 'activate' | 'retire'): Handler => async (ctx) => {
    ctx.body = ruleView(await decideRule(deps, home(ctx), ctx.state.params.rule_id!, verb, email(ctx)));
  };
  const audit: Handler = async (ctx) => {
    const rows = await listAudit(s.db, home(ctx).org_id, home(ctx).project_id, clampLimit(ctx.state.query.limit));
    ctx.body = { data: rows.map(presentAudit) };
  };
  const undo: Handler = async (ctx) => {
    ctx.body = ruleView(await undoRuleChange(deps, home(ctx), ctx.state.params.udo_id!, email(ctx)));
  };
  const proposeFromReview: Handler = async (ctx) => {
    ctx.status = 201;
    ctx.body = ruleView(await proposeRuleFromReview(deps, home(ctx), ctx.state.params.review_id!, ctx.state.body, email(ctx)));
  };
  return {
    adminProposeRuleFromReview: proposeFromReview,
    adminCreateRule: create,
    adminListRules: list,
    adminReviseRule: revise,
    adminActivateRule: decide('activate'),
    adminRetireRule: decide('retire'),
    adminListRuleAudit: audit,
    adminUndoRuleChange: undo,
    adminCreateOrgRule: create,
    adminListOrgRules: list,
    adminReviseOrgRule: revise,
    adminActivateOrgRule: decide('activate'),
    adminRetireOrgRule: decide('retire'),
    adminListOrgRuleAudit: audit,
    adminUndoOrgRuleChange: undo,
  };
}
