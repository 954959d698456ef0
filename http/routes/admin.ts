// Console plane: orgs, projects, agents, agent keys, enrollment tokens.
import { consoleReach } from '../../actors/console-sessions.ts';
import { issueEnrollmentToken, revokeEnrollment } from '../../actors/enrollment.ts';
import { createAgent, createOrgWithOwner, createProject, issueAgentKey, revokeAgentKey } from '../../actors/tenancy.ts';
import { findAgent, listAgents } from '../../storage/agents.ts';
import { listApiKeys } from '../../storage/api-keys.ts';
import { listEnrollmentTokens } from '../../storage/enrollment-tokens.ts';
import { findOrg, listProjects } from '../../storage/tenancy.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { notFound } from '../../machines/problems.ts';
import { presentAgent, presentApiKey, presentEnrollmentToken, presentOrg, presentProject } from '../../actors/present/admin.ts';

const tenant = (ctx: ApiContext) => ({ org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id! });
/** The caller as the minter of a key or token: its role in the path's project and its org-wide role. */
const minter = (ctx: ApiContext) => ({ role: ctx.state.console!.role!, org_role: ctx.state.console!.org_role });

export function adminRoutes(s: Services): RouteTable {
  return {
    adminGetMe: async (ctx) => {
      const email = ctx.state.console!.email;
      const reach = await consoleReach(s.db, email);
      ctx.body = { email, orgs: reach.map((r) => ({ id: r.org.id, name: r.org.name, role: r.role, projects: r.projects.map(presentProject) })) };
    },
    adminCreateOrg: async (ctx) => {
      const { org, project } = await createOrgWithOwner(s.db, {
        name: ctx.state.body.name,
        project_name: ctx.state.body.project_name,
        owner_email: ctx.state.console!.email,
        plan_tier: s.config.defaultPlan,
      });
      ctx.status = 201;
      ctx.body = presentOrg(org, [project]);
    },
    adminGetOrg: async (ctx) => {
      const c = ctx.state.console!;
      const org = await findOrg(s.db, c.org_id!);
      if (!org) throw notFound('org');
      ctx.body = presentOrg(org, await listProjects(s.db, org.id));
    },
    adminCreateProject: async (ctx) => {
      ctx.status = 201;
      ctx.body = presentProject(await createProject(s.db, ctx.state.params.org_id!, ctx.state.body.name));
    },
    adminListAgents: async (ctx) => {
      const t = tenant(ctx);
      ctx.body = { items: (await listAgents(s.db, t.org_id, t.project_id)).map(presentAgent) };
    },
    adminCreateAgent: async (ctx) => {
      const agent = await createAgent(s.db, { ...tenant(ctx), handle: ctx.state.body.handle, display_name: ctx.state.body.display_name });
      ctx.status = 201;
      ctx.body = presentAgent(agent);
    },
    adminListAgentKeys: async (ctx) => {
      const t = tenant(ctx);
      const agent = await findAgent(s.db, t.org_id, t.project_id, ctx.state.params.agent_id!);
      if (!agent) throw notFound('agent');
      ctx.body = { items: (await listApiKeys(s.db, t.org_id, agent.id)).map(presentApiKey) };
    },
    adminCreateAgentKey: async (ctx) => {
      const b = ctx.state.body;
      const { row, raw } = await issueAgentKey(s.db, {
        ...tenant(ctx),
        agent_id: ctx.state.params.agent_id!,
        ceiling: b.ceiling,
        inbox_id: b.inbox_id,
        permissions: b.permissions,
        expires_in_hours: b.expires_in_hours,
        issuer: minter(ctx),
        now: s.now(),
      });
      ctx.status = 201;
      ctx.body = { ...presentApiKey(row), key: raw };
    },
    adminRevokeAgentKey: async (ctx) => {
      const t = tenant(ctx);
      await revokeAgentKey(s.db, t.org_id, t.project_id, ctx.state.params.agent_id!, ctx.state.params.key_id!);
      ctx.status = 204;
    },
    adminIssueEnrollmentToken: async (ctx) => {
      const { row, raw } = await issueEnrollmentToken(s.db, {
        ...ctx.state.body,
        ...tenant(ctx),
        created_by: ctx.state.console!.email,
        issuer: minter(ctx),
        now: s.now(),
      });
      ctx.status = 201;
      ctx.body = { ...presentEnrollmentToken(row), token: raw };
    },
    adminListEnrollmentTokens: async (ctx) => {
      const t = tenant(ctx);
      ctx.body = { items: (await listEnrollmentTokens(s.db, t.org_id, t.project_id)).map(presentEnrollmentToken) };
    },
    adminRevokeEnrollmentToken: async (ctx) => {
      await revokeEnrollment(s.db, tenant(ctx), ctx.state.params.token_id!);
      ctx.status = 204;
    },
  };
}
