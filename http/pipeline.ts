// The chain every operation runs, in order: authenticate, rate limit, read the body, check the
// asserted project, validate, idempotency, then the handler. Each step is driven by the
// operation's entry in the OpenAPI document.
import crypto from 'node:crypto';
import { Sema } from 'async-sema';
import type Koa from 'koa';
import { decideRate } from '../machines/policy/rate-limit.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  readIdempotencyKey,
  releaseIdempotencyKey,
  renewIdempotencyKey,
  type IdempotencyScope,
} from '../storage/idempotency.ts';
import { sealerFor } from '../service/encryption.ts';
import { SESSION_COOKIE } from '../service/identity.ts';
import { authenticateAgent, authenticateConsole, authorizeConsole, bearerToken, checkProjectAssertion, requirePermission } from './auth.ts';
import type { ApiContext, ApiState, Route, Services } from './context.ts';
import { errorResponse } from './errors.ts';
import { Problem } from '../machines/problems.ts';
import type { OperationSpec } from './openapi.ts';
import { jsonTooDeep, nulProblem, tooDeepProblem, validationProblem, type Validators } from './validate.ts';
import { parseInclude } from './include.ts';
import { liftBase64Strings, placeDecoded, restoreLifted } from './attachment-bytes.ts';
import { crossOriginProblem, originOf } from './same-origin.ts';
import type { ConsoleNeed } from '../machines/policy/console-roles.ts';

type Middleware = Koa.Middleware<ApiState>;

export function operationChain(op: OperationSpec, route: Route, validators: Validators, s: Services): Middleware[] {
  return [
    async (ctx, next) => {
      ctx.state.op = op;
      ctx.state.params = { ...(ctx as unknown as { params: Record<string, string> }).params };
      // Before authentication, which already looks path parameters up (a console org, a project).
      const nul = nulProblem(ctx.state.params, ctx.query);
      if (nul) throw nul;
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
  const configured = originOf(s.config.publicBaseUrl);
  return async (ctx, next) => {
    if (op.plane === 'agent') {
      const { auth, window } = await authenticateAgent(s.db, ctx.get('authorization'), s.now(), { spentSignupKey: op.spentSignupKey });
      ctx.state.auth = auth;
      ctx.state.rateWindow = window;
      requirePermission(auth, op.permissions);
    } else if (op.plane === 'console') {
      const cookie = ctx.cookies.get(SESSION_COOKIE);
      // Before the session is even verified: a forged write learns nothing about the cookie.
      if (cookie && !bearerToken(ctx.get('authorization'))) {
        // The console's origin: this request's own scheme and host, or PUBLIC_BASE_URL's (behind a proxy).
        const own = [`${ctx.protocol}://${ctx.host}`.toLowerCase(), ...(configured ? [configured] : [])];
        const refused = crossOriginProblem({ method: ctx.method, origin: ctx.get('origin'), fetchSite: ctx.get('sec-fetch-site'), own });
        if (refused) throw refused;
      }
      const who = await authenticateConsole(s.identity, ctx.get('authorization'), cookie);
      ctx.state.console = await authorizeConsole(
        s.db,
        who,
        ctx.state.params.org_id ?? null,
        ctx.state.params.project_id ?? null,
        op.consoleRole as ConsoleNeed,
        s.config.supportStaffEmails,
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

// A large body is held more than once while it is handled (its bytes, then its decoded
// attachments and the statements that write them): eight concurrent 33 MB sends took the process
// from 252 MB to 923 MB of memory when nothing bounded them. Bodies that may pass
// LARGE_BODY_BYTES are read and handled LARGE_BODY_SLOTS at a time; the others wait unread, their
// bytes left in the socket.
const LARGE_BODY_BYTES = 1024 * 1024;
const LARGE_BODY_SLOTS = 2;
const largeBodies = new Sema(LARGE_BODY_SLOTS);

function readBody(op: OperationSpec): Middleware {
  return async (ctx, next) => {
    ctx.state.body = undefined;
    if (!op.bodyPointer) return next();
    const declared = ctx.get('content-length') === '' ? null : Number(ctx.get('content-length'));
    // Refused before a byte is read, and before waiting for a slot.
    if (declared !== null && declared > op.maxBodyBytes) throw tooLarge(op.maxBodyBytes);
    const large = op.maxBodyBytes > LARGE_BODY_BYTES && (declared === null || declared > LARGE_BODY_BYTES);
    if (large) await largeBodies.acquire();
    try {
      await parseBody(ctx, op, declared);
      await next();
    } finally {
      if (large) largeBodies.release();
    }
  };
}

async function parseBody(ctx: ApiContext, op: OperationSpec, declared: number | null): Promise<void> {
  const raw = await readRaw(ctx.req, op.maxBodyBytes, declared);
  // The exact bytes, so a retry that spells a field differently is a different request. Only the
  // digest is kept: the bytes are not held for the rest of the request.
  if (op.idempotent) ctx.state.requestHash = requestHash(ctx, raw);
  if (raw.length > 0) {
    if (!ctx.is('application/json', '+json')) {
      throw new Problem('bad_request', { status: 415, detail: 'Send the body as application/json.' });
    }
    // A large body with attachments is parsed with their base64 left out of its text (attachment-bytes.ts).
    const lifted = op.attachmentsInBody && raw.length > LARGE_BODY_BYTES ? liftBase64Strings(raw) : null;
    const text = lifted ? lifted.text : raw.toString('utf8');
    if (jsonTooDeep(text)) throw tooDeepProblem();
    try {
      ctx.state.body = JSON.parse(text);
    } catch {
      throw new Problem('bad_request', { detail: 'The body is not valid JSON.', errors: [{ field: 'body', code: 'invalid_json' }] });
    }
    if (lifted) ctx.state.attachmentBytes = restoreLifted(ctx.state.body, lifted);
    const nul = nulProblem({}, {}, ctx.state.body);
    if (nul) throw nul;
  } else if (op.bodyRequired) {
    throw new Problem('bad_request', { detail: 'A JSON body is required.', errors: [{ field: 'body', code: 'required' }] });
  }
}

const requestHash = (ctx: ApiContext, raw: Buffer): string =>
  crypto.createHash('sha256').update(`${ctx.method} ${ctx.path}\n`).update(raw).digest('hex');

/**
 * The body's bytes, counted as they arrive: past the limit it is refused without reading on. With
 * a Content-Length (which Node's parser holds the body to) each chunk is copied into one buffer of
 * that size, instead of gathering the chunks and joining them, which held the body twice.
 */
function readRaw(req: NodeJS.ReadableStream, limit: number, declared: number | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const into = declared === null ? null : Buffer.allocUnsafe(declared);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size + chunk.length > limit || (into && size + chunk.length > into.length)) {
        req.removeAllListeners('data');
        reject(tooLarge(limit));
        return;
      }
      if (into) chunk.copy(into, size);
      else chunks.push(chunk);
      size += chunk.length;
    });
    req.on('end', () => resolve(into ? into.subarray(0, size) : Buffer.concat(chunks, size)));
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
    if (ctx.state.attachmentBytes) placeDecoded(ctx.state.body, ctx.state.attachmentBytes);
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
    const hash = ctx.state.requestHash ?? requestHash(ctx, Buffer.alloc(0));

    const claim = { owner: crypto.randomUUID(), leaseSeconds: s.config.idempotencyLeaseSeconds };
    if (!(await claimIdempotencyKey(s.db, scope, hash, claim))) {
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
        // Free (the first request failed and released it), or its lease lapsed: this one runs.
        if (await claimIdempotencyKey(s.db, scope, hash, claim)) break;
        if (Date.now() > deadline) {
          throw new Problem('conflict', { detail: 'A request with this Idempotency-Key is still running; retry shortly.', headers: { 'Retry-After': '1' } });
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    // The lease is renewed while this request runs; it lapses only when this process is gone.
    const renewal = setInterval(() => {
      renewIdempotencyKey(s.db, scope, claim).catch(() => {});
    }, (claim.leaseSeconds * 1000) / 3);
    renewal.unref();
    let completed = false;
    ctx.state.idempotency = {
      // A route calls this inside the transaction of its effect: the effect and its replay commit
      // together, so a retry after a crash finds one or runs the request on neither.
      async completeIn(tx, response) {
        if (!(await completeIdempotencyKey(tx, scope, response, sealer, claim.owner))) {
          throw new Problem('conflict', { detail: 'A request with this Idempotency-Key is still running; retry shortly.', headers: { 'Retry-After': '1' } });
        }
        completed = true;
      },
    };
    try {
      await next();
    } catch (err) {
      if (completed) throw err;
      const rendered = errorResponse(err, ctx.state.requestId, problemsBase(s), op.envelope);
      if (rendered.status < 500 && rendered.status !== 429) {
        await completeIdempotencyKey(
          s.db,
          scope,
          { status: rendered.status, body: rendered.body, headers: { ...rendered.headers, 'Content-Type': rendered.contentType } },
          sealer,
          claim.owner,
        );
      } else {
        await releaseIdempotencyKey(s.db, scope, claim.owner).catch(() => {});
      }
      throw err;
    } finally {
      clearInterval(renewal);
    }
    if (completed) return;
    if (ctx.status >= 500 || ctx.status === 429 || Buffer.isBuffer(ctx.body) || isStream(ctx.body)) {
      await releaseIdempotencyKey(s.db, scope, claim.owner);
      return;
    }
    const headers: Record<string, string> = {};
    const location = ctx.response.get('Location');
    if (location) headers.Location = location;
    await completeIdempotencyKey(s.db, scope, { status: ctx.status, body: ctx.body ?? null, headers }, sealer, claim.owner);
  };
}

function isStream(body: unknown): boolean {
  return !!body && typeof (body as { pipe?: unknown }).pipe === 'function';
}

export const problemsBase = (s: Services): string => `${s.config.publicBaseUrl}/problems`;
