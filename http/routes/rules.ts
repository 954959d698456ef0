// Writing rules on the agent plane: the ladder (get_rules) and proposals.
import { agentProject, createRule, rulesFor } from '../../actors/rules.ts';
import { ruleView } from '../../actors/present/rules.ts';
import type { RouteTable, Services } from '../context.ts';

// A ladder read again at the same high-water is the same object (see rulesFor): its JSON is
// written once, not on every read.
const bodies = new WeakMap<object, string>();
function serialized(ladder: object): string {
  let body = bodies.get(ladder);
  if (body === undefined) bodies.set(ladder, (body = JSON.stringify(ladder)));
  return body;
}

export function ruleRoutes(s: Services): RouteTable {
  return {
    getRules: async (ctx) => {
      const auth = ctx.state.auth!;
      const project_id = await agentProject(s.db, auth);
      const category = ctx.state.query.category_id;
      const ladder = await rulesFor(s.db, { org_id: auth.org_id, project_id, agent_id: auth.agent_id, category_id: category ? String(category) : null });
      ctx.type = 'application/json';
      ctx.body = serialized(ladder);
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
