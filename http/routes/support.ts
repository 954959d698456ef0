// Support: feedback and case replies on the agent plane; case reads, events, deletion and the
// reporting policy on the console; the support staff's surface.
import { customerReply, deleteCase, staffUpdate, submitFeedback, updateSupportSettings, type RequestFacts } from '../../actors/support/commands.ts';
import {
  agentCase,
  caseEvents,
  consoleCase,
  listCasePage,
  listFeedback,
  reportingPolicy,
  staffCase,
  supportSettings,
} from '../../actors/support/queries.ts';
import type { SupportCaller } from '../../actors/support/reach.ts';
import type { FeedbackCursor } from '../../storage/support.ts';
import type { ApiContext, Handler, Route, RouteTable, Services } from '../context.ts';
import { cursorsFor } from '../paging.ts';

const caller = (ctx: ApiContext): SupportCaller => ctx.state.auth!;
const facts = (s: Services, ctx: ApiContext): RequestFacts => ({
  request_id: ctx.state.requestId,
  transport: ctx.get('x-client-transport') || 'http',
  now: s.now(),
});
const project = (ctx: ApiContext) => ctx.state.params.project_id!;
const at = (ctx: ApiContext) => ({ org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id! });

const isFeedbackCursor = (v: any): v is FeedbackCursor => typeof v?.t === 'string' && !Number.isNaN(Date.parse(v.t)) && typeof v?.id === 'string';
const isNumberCursor = (v: any): v is { n: string } => typeof v?.n === 'string' && /^[0-9]{1,18}$/.test(v.n);

const limitOf = (raw: unknown, fallback: number) => {
  const n = Number(raw ?? fallback);
  return Number.isFinite(n) ? Math.min(100, Math.max(1, Math.trunc(n))) : fallback;
};

export function supportRoutes(s: Services): RouteTable {
  const deps = { db: s.db, queue: s.queue, config: s.config };
  const casePage = async (ctx: ApiContext, where: { org_id: string | null; project_id: string | null }) => {
    const limit = limitOf(ctx.state.query.limit, 50);
    const after = cursorsFor(s.config).decode(ctx.state.query.cursor, isNumberCursor);
    const status = ctx.state.query.status ? String(ctx.state.query.status) : null;
    const { next, ...list } = await listCasePage(deps, where, { limit, status, before_number: after?.n ?? null });
    return { ...list, next_cursor: next ? cursorsFor(s.config).encode(next) : null };
  };

  const submit: Route = {
    handler: async (ctx) => {
      const complete = ctx.state.idempotency && ((tx: any, status: number, body: unknown) => ctx.state.idempotency!.completeIn(tx, { status, body, headers: {} }));
      const result = await submitFeedback(deps, caller(ctx), project(ctx), ctx.state.body, facts(s, ctx), complete);
      ctx.status = result.status;
      ctx.body = result.body;
    },
  };
  const reply: Route = {
    handler: async (ctx) => {
      const complete = ctx.state.idempotency && ((tx: any, body: unknown) => ctx.state.idempotency!.completeIn(tx, { status: 201, body, headers: {} }));
      ctx.body = await customerReply(deps, caller(ctx), project(ctx), ctx.state.params.id!, ctx.state.body, facts(s, ctx), complete);
      ctx.status = 201;
    },
  };
  const remove: Route = {
    handler: async (ctx) => {
      const complete = ctx.state.idempotency && ((tx: any, body: unknown) => ctx.state.idempotency!.completeIn(tx, { status: 200, body, headers: {} }));
      ctx.body = await deleteCase(deps, at(ctx), ctx.state.params.id!, ctx.state.console!.email, ctx.state.body.client_id, complete);
    },
  };
  const staffPost: Handler = async (ctx) => {
    ctx.body = await staffUpdate(deps, ctx.state.console!.email, ctx.state.params.id!, ctx.state.body, s.now());
    ctx.status = 201;
  };

  return {
    submitFeedback: submit,
    listFeedback: async (ctx) => {
      const after = cursorsFor(s.config).decode(ctx.state.query.cursor, isFeedbackCursor);
      const { next, ...list } = await listFeedback(s.db, caller(ctx), project(ctx), { limit: limitOf(ctx.state.query.limit, 25), after });
      ctx.body = { ...list, next_cursor: next ? cursorsFor(s.config).encode(next) : null };
    },
    getReportingPolicy: async (ctx) => {
      ctx.body = await reportingPolicy(s.db, caller(ctx), project(ctx));
    },
    getSupportCase: async (ctx) => {
      ctx.body = await agentCase(deps, caller(ctx), project(ctx), ctx.state.params.id!);
    },
    replySupportCase: reply,
    adminGetSupportSettings: async (ctx) => {
      ctx.body = await supportSettings(s.db, ctx.state.params.org_id!);
    },
    adminUpdateSupportSettings: async (ctx) => {
      ctx.body = await updateSupportSettings(s.db, ctx.state.params.org_id!, ctx.state.body, ctx.state.console!.email);
    },
    adminListSupportCases: async (ctx) => {
      ctx.body = await casePage(ctx, at(ctx));
    },
    adminGetSupportCase: async (ctx) => {
      ctx.body = await consoleCase(deps, at(ctx), ctx.state.params.id!);
    },
    adminListSupportCaseEvents: async (ctx) => {
      const after = ctx.state.query.cursor ? Number(ctx.state.query.cursor) : 0;
      ctx.body = await caseEvents(deps, at(ctx), ctx.state.params.id!, { after, limit: limitOf(ctx.state.query.limit, 50) });
    },
    adminDeleteSupportCase: remove,
    staffListSupportCases: async (ctx) => {
        ctx.body = await casePage(ctx, { org_id: null, project_id: null });
    },
    staffGetSupportCase: async (ctx) => {
        ctx.body = await staffCase(deps, ctx.state.params.id!);
    },
    staffUpdateSupportCase: staffPost,
  };
}
