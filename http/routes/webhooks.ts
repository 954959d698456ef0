// Webhooks on both planes: register, list, get, update, delete, deliveries, redeliver, rotate.
import { changeWebhook, redeliver, registerWebhook, removeWebhook, rotateSecret } from '../../actors/webhooks.ts';
import { findWebhook, listDeliveries, listWebhooks } from '../../storage/webhooks.ts';
import type { Scope } from '../../machines/policy/inbox-scope.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { notFound } from '../../machines/problems.ts';
import { callerScope, listScope } from '../inbox-access.ts';
import { pageLimit } from '../paging.ts';
import { deliveryCursorsFor, eventIdsFor } from '../../storage/opaque-ids.ts';
import { deliveryCursor, presentDelivery, presentWebhook, readDeliveryCursor } from '../../actors/present/webhooks.ts';

const consoleScope = (ctx: ApiContext): Scope => ({
  org_id: ctx.state.params.org_id!,
  project_id: ctx.state.params.project_id!,
  agent_id: null,
  inbox_id: null,
});

export function webhookRoutes(s: Services): RouteTable {
  // The delivery log and redelivery read the same on both planes; only the scope differs.
  const deliveries = async (ctx: ApiContext, scope: Scope) => {
    const webhook = await findWebhook(s.db, scope, ctx.state.params.id!);
    if (!webhook) throw notFound('webhook');
    const limit = pageLimit(ctx.state.query.limit);
    const cursors = await deliveryCursorsFor(s.db);
    const page = await listDeliveries(s.db, webhook.org_id, webhook.id, { limit, beforeSeq: readDeliveryCursor(ctx.state.query.cursor, cursors) });
    const ids = await eventIdsFor(s.db);
    ctx.body = { items: page.map((d) => presentDelivery(d, ids)), next_cursor: deliveryCursor(page, limit, cursors) };
  };
  const redeliverIn = async (ctx: ApiContext, scope: Scope) => {
    const delivery = await redeliver(s, scope, ctx.state.params.id!, ctx.state.params.delivery_id!);
    ctx.status = 202;
    ctx.body = presentDelivery(delivery, await eventIdsFor(s.db));
  };
  return {
    registerWebhook: async (ctx) => {
      const { webhook, secret } = await registerWebhook(s, { ...ctx.state.body, scope: callerScope(ctx), agentId: ctx.state.auth!.agent_id });
      ctx.status = 201;
      ctx.body = { ...presentWebhook(webhook), secret };
    },
    listWebhooks: async (ctx) => {
      const items = (await listWebhooks(s.db, await listScope(s, ctx))).map(presentWebhook);
      ctx.body = { items, total: items.length };
    },
    getWebhook: async (ctx) => {
      const webhook = await findWebhook(s.db, callerScope(ctx), ctx.state.params.id!);
      if (!webhook) throw notFound('webhook');
      ctx.body = presentWebhook(webhook);
    },
    updateWebhook: async (ctx) => {
      ctx.body = presentWebhook(await changeWebhook(s, { ...ctx.state.body, scope: callerScope(ctx), id: ctx.state.params.id! }));
    },
    deleteWebhook: async (ctx) => {
      await removeWebhook(s, callerScope(ctx), ctx.state.params.id!);
      ctx.status = 204;
    },
    listWebhookDeliveries: (ctx) => deliveries(ctx, callerScope(ctx)),
    redeliverWebhook: (ctx) => redeliverIn(ctx, callerScope(ctx)),
    rotateWebhookSecret: async (ctx) => {
      const { webhook, secret } = await rotateSecret(s, callerScope(ctx), ctx.state.params.id!);
      ctx.body = { ...presentWebhook(webhook), secret };
    },
    adminRegisterWebhook: async (ctx) => {
      const { agent_id, ...rest } = ctx.state.body;
      const { webhook, secret } = await registerWebhook(s, { ...rest, scope: consoleScope(ctx), agentId: agent_id });
      ctx.status = 201;
      ctx.body = { ...presentWebhook(webhook), secret };
    },
    adminGetWebhook: async (ctx) => {
      const webhook = await findWebhook(s.db, consoleScope(ctx), ctx.state.params.id!);
      if (!webhook) throw notFound('webhook');
      ctx.body = presentWebhook(webhook);
    },
    adminListWebhooks: async (ctx) => {
      const items = (await listWebhooks(s.db, consoleScope(ctx))).map(presentWebhook);
      ctx.body = { items, total: items.length };
    },
    adminUpdateWebhook: async (ctx) => {
      ctx.body = presentWebhook(await changeWebhook(s, { ...ctx.state.body, scope: consoleScope(ctx), id: ctx.state.params.id! }));
    },
    adminRotateWebhookSecret: async (ctx) => {
      const { webhook, secret } = await rotateSecret(s, consoleScope(ctx), ctx.state.params.id!);
      ctx.body = { ...presentWebhook(webhook), secret };
    },
    adminDeleteWebhook: async (ctx) => {
      await removeWebhook(s, consoleScope(ctx), ctx.state.params.id!);
      ctx.status = 204;
    },
    adminListWebhookDeliveries: (ctx) => deliveries(ctx, consoleScope(ctx)),
    adminRedeliverWebhook: (ctx) => redeliverIn(ctx, consoleScope(ctx)),
  };
}
