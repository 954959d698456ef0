// Inboxes on both planes: agents create and read their own, console members any of the project.
import { deleteInbox } from '../../actors/inbox-deletion.ts';
import { createInbox } from '../../actors/inboxes.ts';
import { updateInboxPolicy } from '../../actors/review-settings.ts';
import { listInboxes, type InboxCursor } from '../../storage/inboxes.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { callerInbox, callerScope, listScope } from '../inbox-access.ts';
import { inboxIncludes, withIncluded } from '../include.ts';
import { cursorsFor, pageLimit } from '../paging.ts';
import { presentInbox } from '../../actors/present/inboxes.ts';

const NO_CONTENT = { status: 204, body: null, headers: {} };

const isInboxCursor = (v: any): v is InboxCursor => Number.isSafeInteger(v?.created_us) && typeof v?.id === 'string';

const inboxPage = async (s: Services, ctx: ApiContext, scope: Parameters<typeof listInboxes>[1]) => {
  const limit = pageLimit(ctx.state.query.limit);
  const rows = await listInboxes(s.db, scope, { limit: limit + 1, after: cursorsFor(s.config).decode(ctx.state.query.cursor, isInboxCursor) });
  return cursorsFor(s.config).page(rows, limit, (last) => ({ created_us: last.created_us, id: last.id }));
};

export function inboxRoutes(s: Services): RouteTable {
  return {
    createInbox: async (ctx) => {
      const auth = ctx.state.auth!;
      const b = ctx.state.body ?? {};
      const inbox = await createInbox(
        s.db,
        s.config.inboxDomain,
        {
          org_id: auth.org_id,
          project_id: auth.project_id ?? (ctx.get('x-project-id') || null),
          agent_id: auth.agent_id,
          created_by: 'agent',
          key_ceiling: auth.ceiling,
          display_name: b.display_name,
          username: b.username,
          domain: b.domain,
          webhook_url: b.webhook_url,
        },
        s.now(),
        s.config.plans,
        { webhookAllowPrivate: s.config.webhookAllowPrivate },
      );
      ctx.status = 201;
      ctx.body = presentInbox(inbox);
    },
    listInboxes: async (ctx) => {
      const scope = await listScope(s, ctx);
      const { data, has_more, next_cursor } = await inboxPage(s, ctx, scope);
      const included = await inboxIncludes(s, scope, data, ctx.state.include);
      ctx.body = { object: 'list', data: data.map((i) => withIncluded(presentInbox(i), included.get(i.id))), has_more, next_cursor };
    },
    getInbox: async (ctx) => {
      const inbox = await callerInbox(s, ctx);
      const included = await inboxIncludes(s, callerScope(ctx), [inbox], ctx.state.include);
      ctx.body = withIncluded(presentInbox(inbox), included.get(inbox.id));
    },
    updateInbox: async (ctx) => {
      const inbox = await callerInbox(s, ctx);
      const at = { org_id: inbox.org_id, project_id: inbox.project_id, inbox: inbox.id };
      ctx.body = presentInbox(await updateInboxPolicy(s.db, at, { recipient_limit_24h: ctx.state.body.recipient_limit_24h }));
    },
    deleteInbox: async (ctx) => {
      const auth = ctx.state.auth!;
      await deleteInbox(
        s,
        { scope: callerScope(ctx), inbox: ctx.state.params.inbox_id!, by: 'composer', deleted_by: auth.agent_id },
        ctx.state.idempotency && ((tx) => ctx.state.idempotency!.completeIn(tx, NO_CONTENT)),
      );
      ctx.status = 204;
    },
    adminDeleteInbox: async (ctx) => {
      const scope = { org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id!, agent_id: null, inbox_id: null };
      await deleteInbox(
        s,
        { scope, inbox: ctx.state.params.inbox_id!, by: 'human', deleted_by: ctx.state.console!.email },
        ctx.state.idempotency && ((tx) => ctx.state.idempotency!.completeIn(tx, NO_CONTENT)),
      );
      ctx.status = 204;
    },
    adminCreateInbox: async (ctx) => {
      const b = ctx.state.body;
      const inbox = await createInbox(
        s.db,
        s.config.inboxDomain,
        {
          org_id: ctx.state.params.org_id!,
          project_id: ctx.state.params.project_id!,
          agent_id: b.agent_id,
          created_by: 'console',
          display_name: b.display_name,
          username: b.username,
          domain: b.domain,
          domain_id: b.domain_id,
          webhook_url: b.webhook_url,
        },
        s.now(),
        s.config.plans,
        { webhookAllowPrivate: s.config.webhookAllowPrivate },
      );
      ctx.status = 201;
      ctx.body = presentInbox(inbox);
    },
    adminListInboxes: async (ctx) => {
      const scope = { org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id!, agent_id: null, inbox_id: null };
      const { data, has_more, next_cursor } = await inboxPage(s, ctx, scope);
      ctx.body = { object: 'list', data: data.map(presentInbox), has_more, next_cursor };
    },
  };
}
