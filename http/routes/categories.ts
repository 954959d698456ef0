// Categories on both planes: the console creates, edits and moves them between rungs; agents list
// and read them (their own private ones and the shared ones) and their backlog status.
import { backlogStatus, categoryVerb, createCategory, getCategory, listCategoryViews, updateCategoryRecord } from '../../actors/categories.ts';
import { agentProject } from '../../actors/rules.ts';
import type { ApiContext, Handler, RouteTable, Services } from '../context.ts';

const at = (ctx: ApiContext) => ({ org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id! });
const human = (ctx: ApiContext) => ({ ...at(ctx), agent_id: null });

export function categoryRoutes(s: Services): RouteTable {
  const deps = { db: s.db, queue: s.queue };
  /** The agent's reader: its project, its own private categories and the shared ones. */
  const agent = async (ctx: ApiContext) => {
    const auth = ctx.state.auth!;
    return { org_id: auth.org_id, project_id: await agentProject(s.db, auth), agent_id: auth.agent_id };
  };
  const verb = (v: 'graduate' | 'demote'): Handler => async (ctx) => {
    ctx.body = await categoryVerb(deps, at(ctx), ctx.state.params.category_id!, v);
  };
  return {
    adminCreateCategory: async (ctx) => {
      ctx.status = 201;
      ctx.body = await createCategory(deps, at(ctx), ctx.state.body);
    },
    adminListCategories: async (ctx) => {
      ctx.body = { data: await listCategoryViews(s.db, human(ctx)) };
    },
    adminUpdateCategory: async (ctx) => {
      ctx.body = await updateCategoryRecord(deps, at(ctx), ctx.state.params.category_id!, ctx.state.body);
    },
    adminGraduateCategory: verb('graduate'),
    adminDemoteCategory: verb('demote'),
    adminPinCategory: async (ctx) => {
      const pinned = (ctx.state.body as { pinned?: boolean } | undefined)?.pinned ?? true;
      ctx.body = await categoryVerb(deps, at(ctx), ctx.state.params.category_id!, pinned ? 'pin' : 'unpin');
    },
    adminGetCategoryBacklog: async (ctx) => {
      ctx.body = await backlogStatus(s.db, human(ctx), ctx.state.params.category_id!);
    },
    listCategories: async (ctx) => {
      ctx.body = { data: await listCategoryViews(s.db, await agent(ctx)) };
    },
    getCategory: async (ctx) => {
      ctx.body = await getCategory(s.db, await agent(ctx), ctx.state.params.category_id!);
    },
    getBacklogStatus: async (ctx) => {
      ctx.body = await backlogStatus(s.db, await agent(ctx), ctx.state.params.category_id!);
    },
  };
}
