// The chain every operation runs, in order: authenticate, rate limit, read the body, check the
// asserted project, validate, idempotency, then the handler. Each step is driven by the
// operation's entry in the OpenAPI document.
import crypto from 'node:crypto';
import type Koa from 'koa';
import { decideRate } from '../machines/policy/rate-limit.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  readIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyScope,
} from '../storage/idempotency.ts';
import { sealerFor } from '../service/encryption.ts';
import { authenticateAgent, authenticateConsole, authorizeConsole, checkProjectAssertion, requirePermission } from './auth.ts';
import type { ApiContext, ApiState, Route, Services } from './context.ts';
import { errorResponse } from './errors.ts';
import { Problem } from '../machines/problems.ts';
import type { OperationSpec } from './openapi.ts';
import { validationProblem, type Validators } from './validate.ts';
import { parseInclude } from './include.ts';
import type { ConsoleNeed } from '../machines/policy/console-roles.ts';

type Middleware = Koa.Middleware<ApiState>;

export function operationChain(op: OperationSpec, route: Route, validators: Validators, s: Services): Middleware[] {
  return [
    async (ctx, next) => {
      ctx.state.op = op;
      ctx.state.params = { ...(ctx as unknown as { params: Record<string, string> }).params };
      await next();
    },
    authenticate(op, s),
    rateLimit(op, s),
    readBody(op),
    async (ctx, next) => {
      if (ctx.state.auth) {
        checkProjectAssertion(ctx.state.auth, ctx.get('x-project-id') || ctx.query.project_id || ctx.state.body?.project_id);
      }
      await next();
    },
    validate(op, validators),
    idempotency(op, route, s),
    (ctx) => route.handler(ctx),
  ];
}

function authenticate(op: OperationSpec, s: Services): Middleware {
  return async (ctx, next) => {
    if (op.plane === 'agent') {
      const { auth, window } = await authenticateAgent(s.db, ctx.get('authorization'), s.now());
      ctx.state.auth = auth;
      ctx.state.rateWindow = window;
      requirePermission(auth, op.permissions);
    } else if (op.plane === 'console') {
      const who = await authenticateConsole(s.identity, ctx.get('authorization'));
      ctx.state.console = await authorizeConsole(
        s.db,
        who,
        ctx.state.params.org_id ?? null,
        ctx.state.params.project_id ?? null,
        (op.consoleRole ?? 'read') as ConsoleNeed,
      );
    }
    await next();
  };
}

function rateLimit(op: OperationSpec, s: Services): Middleware {
  return async (ctx, next) => {
    const window = ctx.state.rateWindow;
    if (op.plane === 'agent' && window) {
      const decision = decideRate(window, s.config.rateLimitPerMinute);
      if (!decision.allowed) {
        throw new Problem('rate_limited', {
          detail: `Over ${s.config.rateLimitPerMinute} requests a minute for this key; retry in ${decision.retryAfterSeconds} s.`,
          headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        });
      }
    }
    await next();
  };
}

function readBody(op: OperationSpec): Middleware {
  return async (ctx, next) => {
    ctx.state.body = undefined;
    if (!op.bodyPointer) return next();
    const raw = await readRaw(ctx.req, op.maxBodyBytes);
    ctx.state.rawBody = raw;
    if (raw.length > 0) {
      if (!ctx.is('application/json', '+json')) {
        throw new Problem('bad_request', { status: 415, detail: 'Send the body as application/json.' });
      }
      try {
        ctx.state.body = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new Problem('bad_request', { detail: 'The body is not valid JSON.', errors: [{ field: 'body', code: 'invalid_json' }] });
      }
    } else if (op.bodyRequired) {
      throw new Problem('bad_request', { detail: 'A JSON body is required.', errors: [{ field: 'body', code: 'required' }] });
    }
    await next();
  };
}

function readRaw(req: NodeJS.ReadableStream & { headers: Record<string, unknown> }, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const tooLarge = (limit: number) =>
  new Problem('bad_request', { status: 413, detail: `The body is larger than ${limit} bytes.`, errors: [{ field: 'body', code: 'too_large' }] });

function validate(op: OperationSpec, v: Validators): Middleware {
  return async (ctx, next) => {
    if (v.params && !v.params(ctx.state.params)) throw validationProblem(v.params.errors ?? [], 'path');
    const query: Record<string, unknown> = { ...ctx.query };
    if (v.query && !v.query(query)) throw validationProblem(v.query.errors ?? [], 'query');
    ctx.state.query = query;
    // Checked on every operation, so an expansion asked of one that has none is refused, not ignored.
    ctx.state.include = parseInclude(query.include, op.includes);
    if (v.body && ctx.state.body !== undefined && !v.body(ctx.state.body)) {
      throw validationProblem(v.body.errors ?? [], 'body', v.bodyKeys);
    }
    await next();
  };
}

function idempotencyKeyOf(ctx: ApiContext): string | null {
  const header = ctx.get('idempotency-key');
  if (header) return header;
  // `idempotency_key` is the send body's name for it (the SDK's spelling).
  const clientId = ctx.state.body?.client_id ?? ctx.state.body?.idempotency_key;
  return typeof clientId === 'string' && clientId !== '' ? clientId : null;
}

async function scopeOf(ctx: ApiContext, route: Route, key: string): Promise<IdempotencyScope | null> {
  const { auth, console: human } = ctx.state;
  if (auth) return { org_id: auth.org_id, scope: `agent:${auth.agent_id}`, key };
  if (human?.org_id) return { org_id: human.org_id, scope: `console:${human.project_id ?? '-'}:${human.email}`, key };
  return route.idempotencyScope ? route.idempotencyScope(ctx, key) : null;
}

const WAIT_FOR_FIRST_MS = 10_000;

function idempotency(op: OperationSpec, route: Route, s: Services): Middleware {
  const sealer = sealerFor(s.config);
  return async (ctx, next) => {
    const key = op.idempotent ? idempotencyKeyOf(ctx) : null;
    const scope = key ? await scopeOf(ctx, route, key) : null;
    if (route.precheck && !(scope && (await readIdempotencyKey(s.db, scope, sealer))?.response)) await route.precheck(ctx);
    if (!scope) return next();
    // The exact bytes, so a retry that spells a field differently is a different request.
    const hash = crypto
      .createHash('sha256')
      .update(`${ctx.method} ${ctx.path}\n`)
      .update(ctx.state.rawBody ?? Buffer.alloc(0))
      .digest('hex');

    if (!(await claimIdempotencyKey(s.db, scope, hash))) {
      const deadline = Date.now() + WAIT_FOR_FIRST_MS;
      for (;;) {
        const found = await readIdempotencyKey(s.db, scope, sealer);
        if (found && found.request_hash !== hash) {
          throw new Problem('idempotency_conflict', {
            detail: 'This Idempotency-Key was used with a different request; use a new key for a new request.',
            errors: [{ field: ctx.get('idempotency-key') ? 'Idempotency-Key' : 'client_id', code: 'reused' }],
          });
        }
        if (found?.response) {
          ctx.status = found.response.status;
          for (const [h, v] of Object.entries(found.response.headers)) ctx.set(h, v);
          ctx.set('Idempotent-Replayed', 'true');
          ctx.body = found.response.body;
          return;
        }
        if (!found) {
          // The first request failed and released its claim: this one runs.
          if (await claimIdempotencyKey(s.db, scope, hash)) break;
          continue;
        }
        if (Date.now() > deadline) {
          throw new Problem('conflict', { detail: 'A request with this Idempotency-Key is still running; retry shortly.', headers: { 'Retry-After': '1' } });
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    try {
      await next();
    } catch (err) {
      const rendered = errorResponse(err, ctx.state.requestId, problemsBase(s), op.envelope);
      if (rendered.status < 500 && rendered.status !== 429) {
        await completeIdempotencyKey(
          s.db,
          scope,
          { status: rendered.status, body: rendered.body, headers: { ...rendered.headers, 'Content-Type': rendered.contentType } },
          sealer,
        );
      } else {
        await releaseIdempotencyKey(s.db, scope).catch(() => {});
      }
      throw err;
    }
    if (ctx.status >= 500 || ctx.status === 429 || Buffer.isBuffer(ctx.body) || isStream(ctx.body)) {
      await releaseIdempotencyKey(s.db, scope);
      return;
    }
    const headers: Record<string, string> = {};
    const location = ctx.response.get('Location');
    if (location) headers.Location = location;
    await completeIdempotencyKey(s.db, scope, { status: ctx.status, body: ctx.body ?? null, headers }, sealer);
  };
}

function isStream(body: unknown): boolean {
  return !!body && typeof (body as { pipe?: unknown }).pipe === 'function';
}

export const problemsBase = (s: Services): string => `${s.config.publicBaseUrl}/problems`;
