// Writing rules on the agent plane: the ladder (get_rules) and proposals.
import { agentProject, createRule, rulesFor, ruleView } from '../../actors/rules.ts';
import type { RouteTable, Services } from '../context.ts';

export function ruleRoutes(s: Services): RouteTable {
  return {
    getRules: async (ctx) => {
      const auth = ctx.state.auth!;
      const project_id = await agentProject(s.db, auth);
      const category = ctx.state.query.category_id;
      ctx.body = await rulesFor(s.db, { org_id: auth.org_id, project_id, agent_id: auth.agent_id, category_id: category ? String(category) : null });
    },
    proposeRule: async (ctx) => {
      const auth = ctx.state.auth!;
      const project_id = await agentProject(s.db, auth);
      const rule = await createRule({ db: s.db, queue: s.queue }, { org_id: auth.org_id, project_id }, ctx.state.body, { kind: 'agent', agent_id: auth.agent_id });
      ctx.status = 201;
      ctx.body = ruleView(rule);
    },
  };
}
