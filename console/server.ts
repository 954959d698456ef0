// The web console as a transport beside the REST API: its static page and ES modules, and the
// session endpoints that turn a one-time link or a pasted token into an HttpOnly cookie. It is
// mounted by the HTTP app like /mcp; everything the page shows comes from the console plane's
// public API, which accepts the cookie as it accepts a bearer token.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Koa from 'koa';
import { signInWithCode, signInWithToken, type ConsoleSession } from '../actors/console-sessions.ts';
import { badRequest, Problem } from '../machines/problems.ts';
import { SESSION_COOKIE, type IdentityProvider } from '../service/identity.ts';
import type { Executor } from '../storage/db.ts';

export type ConsoleDeps = { db: Executor; identity: IdentityProvider; now: () => Date };

const require = createRequire(import.meta.url);
const APP_DIR = path.join(import.meta.dirname, 'app');

/** The libraries the page imports by bare name, served from their installed packages. */
const VENDOR: Record<string, { file: string; path: string }> = {
  preact: { file: require.resolve('preact'), path: '/console/vendor/preact.js' },
  'preact/hooks': { file: require.resolve('preact/hooks'), path: '/console/vendor/hooks.js' },
  // htm's own ES module build, beside the CommonJS one that require() finds.
  htm: { file: path.join(path.dirname(require.resolve('htm')), 'htm.module.js'), path: '/console/vendor/htm.js' },
};

const IMPORT_MAP = JSON.stringify({ imports: Object.fromEntries(Object.entries(VENDOR).map(([name, v]) => [name, v.path])) });
const IMPORT_MAP_HASH = crypto.createHash('sha256').update(IMPORT_MAP).digest('base64');

// Only this origin, no inline script but the import map (by its hash), no eval, no inline style.
// Mail html goes into a sandboxed frame of its own (frame-src), never into this document.
export const CONSOLE_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${IMPORT_MAP_HASH}'`,
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // The mail viewer's frame: the message's html, served by the API under a sandboxing policy of its own.
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
  '<title>agent-inbox console</title><link rel="stylesheet" href="/console/style.css"><link rel="icon" href="data:,">' +
  `<script type="importmap">${IMPORT_MAP}</script>` +
  '<script type="module" src="/console/app/main.js"></script>' +
  '</head><body><div id="root"><p>Loading the console…</p></div></body></html>';

type Asset = { body: Buffer; type: string };

/** Every file the page may load, read once at start: the page is small and does not change. */
function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const v of Object.values(VENDOR)) assets.set(v.path, { body: fs.readFileSync(v.file), type: 'application/javascript; charset=utf-8' });
  for (const name of fs.readdirSync(APP_DIR)) {
    if (name.endsWith('.js')) assets.set(`/console/app/${name}`, { body: fs.readFileSync(path.join(APP_DIR, name)), type: 'application/javascript; charset=utf-8' });
  }
  assets.set('/console/style.css', { body: fs.readFileSync(path.join(import.meta.dirname, 'style.css')), type: 'text/css; charset=utf-8' });
  return assets;
}

/** The paths of every script the page loads (the budget test weighs them). */
export function consoleScriptPaths(): string[] {
  return [...loadAssets().entries()].filter(([, a]) => a.type.startsWith('application/javascript')).map(([p]) => p);
}

const SESSION_BODY_LIMIT = 16 * 1024;

async function readJson(ctx: Koa.Context): Promise<Record<string, unknown>> {
  if (!ctx.is('application/json')) throw badRequest('content-type', 'Send the sign-in as application/json.', 'invalid_value');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > SESSION_BODY_LIMIT) throw new Problem('bad_request', { status: 413, detail: `A sign-in body is at most ${SESSION_BODY_LIMIT} bytes.`, errors: [{ field: 'body', code: 'too_large' }] });
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest('body', 'The body is not JSON.', 'invalid_json');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('body', 'The body must be a JSON object.', 'invalid_type');
  return body as Record<string, unknown>;
}

/** `{code}` from a sign-in link, or `{token}` pasted: exactly one, a non-empty string. */
function sessionRequest(body: Record<string, unknown>): { code: string } | { token: string } {
  const extra = Object.keys(body).filter((k) => k !== 'code' && k !== 'token');
  if (extra.length) throw badRequest(extra[0]!, `Unknown field ${extra[0]}; the accepted fields are code and token.`, 'unknown_field');
  const given = (['code', 'token'] as const).filter((k) => body[k] !== undefined);
  if (given.length !== 1) throw badRequest('code', 'Send either code (from a sign-in link) or token (a session token).', 'required');
  const key = given[0]!;
  const value = body[key];
  if (typeof value !== 'string' || value.length === 0 || value.length > 8192 || value.includes('\0')) {
    throw badRequest(key, `${key} must be a non-empty string of at most 8192 characters.`, 'invalid_value');
  }
  return key === 'code' ? { code: value } : { token: value };
}

function setSession(ctx: Koa.Context, session: ConsoleSession, now: Date): void {
  // The cookie ends when the token does, so the session cannot outlive it.
  ctx.cookies.set(SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.protocol === 'https',
    path: '/',
    maxAge: Math.max(0, session.expires_at.getTime() - now.getTime()),
    overwrite: true,
  });
}

/**
 * The page's own addresses (`/console/reviews/rr_...`, `/console/mail/...`, any route the page
 * registers): each is the same shell, so a reload or a shared link lands on that page. Files have
 * an extension, and the page's modules and libraries live under app/ and vendor/.
 */
export function isPageAddress(p: string): boolean {
  if (p === '/console/') return true;
  if (p.startsWith('/console/app/') || p.startsWith('/console/vendor/')) return false;
  const last = p.slice(p.lastIndexOf('/') + 1);
  return !last.includes('.');
}

function sendAsset(ctx: Koa.Context, asset: Asset): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = asset.type;
  ctx.body = asset.body;
}

export function consoleTransport(deps: ConsoleDeps): Koa.Middleware {
  const assets = loadAssets();
  return async (ctx, next) => {
    const p = ctx.path;
    if (p === '/' || p === '/console') {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      ctx.redirect('/console/');
      return;
    }
    if (!p.startsWith('/console/')) return next();
    if (p === '/console/session') {
      if (ctx.method === 'POST') {
        const req = sessionRequest(await readJson(ctx));
        const now = deps.now();
        const session = 'code' in req ? await signInWithCode(deps.db, deps.identity, req.code, now) : await signInWithToken(deps.identity, req.token);
        setSession(ctx, session, now);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { email: session.email, expires_at: session.expires_at.toISOString() };
        return;
      }
      if (ctx.method === 'DELETE') {
        ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0, overwrite: true });
        ctx.status = 204;
        return;
      }
      throw new Problem('bad_request', { status: 405, detail: 'POST signs in, DELETE signs out.' });
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new Problem('bad_request', { status: 405, detail: 'Method not allowed on this path.' });
    if (isPageAddress(p)) {
      ctx.set('Content-Security-Policy', CONSOLE_CSP);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
      return;
    }
    const asset = assets.get(p);
    if (!asset) throw new Problem('not_found', { detail: `No console file ${p}.` });
    sendAsset(ctx, asset);
  };
}
