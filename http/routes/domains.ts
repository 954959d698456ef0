// Custom domains on both planes: the console's members (A/domains) and agent keys holding
// domain:manage (/v1/domains) onboard, list, verify and offboard; commerce:request asks to buy.
import { getDomain, listProjectDomains, offboardDomain, onboardDomain, requestDomainPurchase, verifyDomain } from '../../actors/domains.ts';
import { Problem } from '../../machines/problems.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { presentDomain } from '../../actors/present/domains.ts';

const consoleTenant = (ctx: ApiContext) => ({ org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id! });

/** The key's project; an org key names one in X-Project-Id. */
function agentTenant(ctx: ApiContext) {
  const auth = ctx.state.auth!;
  const project = auth.project_id ?? (ctx.get('x-project-id') || null);
  if (!project || project === '*') {
    throw new Problem('breadth_required', {
      detail: 'Domains belong to a project: an org key sends X-Project-Id: <project_id>.',
      errors: [{ field: 'X-Project-Id', code: 'required' }],
    });
  }
  return { org_id: auth.org_id, project_id: project };
}

export function domainRoutes(s: Services): RouteTable {
  const deps = { db: s.db, config: s.config };
  const present = (d: Parameters<typeof presentDomain>[1]) => presentDomain(s.config, d);
  const table = (tenant: (ctx: ApiContext) => { org_id: string; project_id: string }) => ({
    list: async (ctx: ApiContext) => {
      const items = (await listProjectDomains(deps, tenant(ctx))).map(present);
      ctx.body = { items, total: items.length };
    },
    create: async (ctx: ApiContext) => {
      ctx.status = 201;
      ctx.body = present(await onboardDomain(deps, tenant(ctx), ctx.state.body.domain, s.now()));
    },
    get: async (ctx: ApiContext) => {
      ctx.body = present(await getDomain(deps, tenant(ctx), ctx.state.params.domain!));
    },
    verify: async (ctx: ApiContext) => {
      ctx.body = present(await verifyDomain(deps, tenant(ctx), ctx.state.params.domain!, s.now()));
    },
    remove: async (ctx: ApiContext) => {
      await offboardDomain(deps, tenant(ctx), ctx.state.params.domain!, ctx.state.query.delete_inboxes === true);
      ctx.status = 204;
    },
  });
  const agent = table(agentTenant);
  const admin = table(consoleTenant);
  return {
    listDomains: agent.list,
    createDomain: agent.create,
    getDomain: agent.get,
    verifyDomain: agent.verify,
    deleteDomain: agent.remove,
    requestDomainPurchase: async () => requestDomainPurchase(),
    adminListDomains: admin.list,
    adminCreateDomain: admin.create,
    adminGetDomain: admin.get,
    adminVerifyDomain: admin.verify,
    adminDeleteDomain: admin.remove,
  };
}
