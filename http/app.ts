// The Koa application: request id and logging, one error serializer, and a router built from
// the OpenAPI document, where each operation is mounted with its route handler.
import Router from '@koa/router';
import Koa from 'koa';
import { isDatabaseUnavailable } from '../storage/db.ts';
import { randomToken } from '../storage/ids.ts';
import type { ApiState, Route, RouteTable, Services } from './context.ts';
import { errorResponse } from './errors.ts';
import { Problem } from '../machines/problems.ts';
import { observeHttpRequest } from '../service/metrics.ts';
import { loadApiDocument, type OperationSpec } from './openapi.ts';
import { operationChain, problemsBase } from './pipeline.ts';
import { requestValidators } from './validate.ts';

export type AppOptions = {
  services: Services;
  routes: RouteTable;
  /** The MCP endpoint, mounted at /mcp beside the REST operations (it calls them through the SDK). */
  mcp?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>;
  /** The web console (`/console`, and `/` redirecting there): a transport of its own, mounted here. */
  console?: Koa.Middleware;
};

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function createApp({ services, routes, mcp, console: consoleApp }: AppOptions): Koa<ApiState> {
  const api = loadApiDocument();
  const validators = requestValidators(api);
  const app = new Koa<ApiState>();
  const log = services.log.child({ component: 'http' });

  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const given = ctx.get('x-request-id');
    ctx.state.requestId = REQUEST_ID.test(given) ? given : `req_${randomToken(20)}`;
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Labelled by operation, never by the raw path: ids in paths would make a series per resource.
      observeHttpRequest(ctx.state.op?.operationId ?? (ctx.path === '/mcp' ? 'mcp' : 'unmatched'), ctx.method, ctx.status, ms / 1000);
      const tenant = ctx.state.auth ?? ctx.state.console;
      log.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          route: ctx.state.op?.path ?? ctx.path,
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
          org_id: tenant?.org_id ?? undefined,
          project_id: tenant?.project_id ?? undefined,
          agent_id: ctx.state.auth?.agent_id,
        },
        'request',
      );
    }
  });

  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new Problem('not_found', { detail: `No route for ${ctx.method} ${ctx.path}.` });
      }
    } catch (caught) {
      let err = caught;
      if (isDatabaseUnavailable(err)) {
        err = new Problem('unavailable', { detail: 'The database cannot be reached; retry shortly.', headers: { 'Retry-After': '5' } });
      }
      const envelope = ctx.state.op?.envelope ?? 'problem';
      const res = errorResponse(err, ctx.state.requestId, problemsBase(services), envelope);
      if (res.status >= 500) log.error({ err, request_id: ctx.state.requestId }, 'request failed');
      ctx.status = res.status;
      ctx.set(res.headers);
      ctx.type = res.contentType;
      ctx.body = res.body;
    }
  });

  if (mcp) {
    app.use(async (ctx, next) => {
      if (ctx.path !== '/mcp') return next();
      ctx.respond = false; // the MCP transport writes the response itself
      await mcp(ctx.req, ctx.res);
    });
  }

  if (consoleApp) app.use(consoleApp as Koa.Middleware<ApiState>);

  const router = new Router<ApiState>();
  for (const op of api.operations) {
    const entry = routes[op.operationId];
    if (!entry) throw new Error(`no route handles operation ${op.operationId}`);
    const route: Route = typeof entry === 'function' ? { handler: entry } : entry;
    const v = validators.get(op.operationId)!;
    router.register(koaPath(op), [op.method], operationChain(op, route, v, services) as any);
  }
  for (const id of Object.keys(routes)) {
    if (!api.operations.some((op) => op.operationId === id)) throw new Error(`route ${id} has no operation in the OpenAPI document`);
  }
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new Problem('bad_request', { status: 405, detail: 'Method not allowed on this path.' }),
      notImplemented: () => new Problem('bad_request', { status: 501, detail: 'Method not implemented.' }),
    }),
  );
  return app;
}

export function koaPath(op: OperationSpec): string {
  return op.path.replace(/\{([^}]+)\}/g, ':$1');
}
