// The console transport over real HTTP: the page and its modules, its Content-Security-Policy and
// script budget, and sessions (one-time link, pasted token, sign-out) that the API accepts.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import zlib from 'node:zlib';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { consoleScriptPaths } from '../../console/server.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const other = await createTenant(svc);

async function linkCode(email: string): Promise<string> {
  const { url } = await createSignInLink(svc.services.db, svc.services.identity, { email, baseUrl: svc.url, now: new Date() });
  return new URL(url).hash.slice('#sign-in='.length);
}

/** The session cookie a sign-in answer sets, as a `cookie:` request header. */
const cookieOf = (res: Response): string => res.headers.getSetCookie()[0]!.split(';')[0]!;

const signIn = (body: unknown) =>
  fetch(`${svc.url}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('/ and /console redirect to the console page', async () => {
  for (const p of ['/', '/console']) {
    const r = await fetch(svc.url + p, { redirect: 'manual' });
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), '/console/');
  }
});

test('the page loads only its own origin, with no inline script but the import map, and no framing', async () => {
  const r = await fetch(`${svc.url}/console/`);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type')!, /text\/html/);
  const csp = r.headers.get('content-security-policy')!;
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.match(csp, /frame-ancestors 'none'/);
  const page = await r.text();
  const map = /<script type="importmap">(.*?)<\/script>/.exec(page)![1]!;
  const hash = (await import('node:crypto')).createHash('sha256').update(map).digest('base64');
  assert.ok(csp.includes(`'sha256-${hash}'`), 'the hash in the policy is the import map\'s');
  assert.deepEqual(Object.keys(JSON.parse(map).imports), ['preact', 'preact/hooks', 'htm']);
});

test('every script the page loads is served as JavaScript, and together they stay under 100 KB gzipped', async () => {
  const paths = consoleScriptPaths();
  assert.ok(paths.includes('/console/app/main.js') && paths.includes('/console/vendor/preact.js'));
  let gzipped = 0;
  for (const p of paths) {
    const r = await fetch(svc.url + p);
    assert.equal(r.status, 200, p);
    assert.match(r.headers.get('content-type')!, /^application\/javascript/, p);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    gzipped += zlib.gzipSync(Buffer.from(await r.arrayBuffer()), { level: 9 }).length;
  }
  assert.ok(gzipped < 100 * 1024, `the console's scripts weigh ${gzipped} bytes gzipped`);
});

test("the page's own addresses (a review, a message, any page it routes) are the page, so a reload lands there", async () => {
  const shell = await (await fetch(`${svc.url}/console/`)).text();
  for (const p of ['/console/reviews/rr_0123456789abcdef', '/console/mail/inb_abc/msg_0123456789abcdefabc', '/console/settings']) {
    const r = await fetch(svc.url + p);
    assert.equal(r.status, 200, p);
    assert.match(r.headers.get('content-type')!, /text\/html/);
    assert.match(r.headers.get('content-security-policy')!, /default-src 'none'/);
    assert.equal(await r.text(), shell);
  }
});

test('an unknown console file is a 404 problem', async () => {
  for (const p of ['/console/app/nope.js', '/console/app/nope', '/console/nope.css']) {
    const r = await svc.api.get(p);
    assert.equal(r.status, 404, p);
    assert.equal(r.body.code, 'not_found');
  }
});

test('a sign-in link works once: the session cookie is HttpOnly, SameSite=Strict and ends with the token', async () => {
  const code = await linkCode(tenant.email);
  const r = await signIn({ code });
  assert.equal(r.status, 200);
  const body = await r.json();
  assert.equal(body.email, tenant.email);
  const set = r.headers.getSetCookie()[0]!;
  assert.match(set, /^agent_inbox_session=[\w-]+\.[\w-]+\.[\w-]+;/);
  assert.match(set, /httponly/i);
  assert.match(set, /samesite=strict/i);
  const maxAge = Date.parse(/expires=([^;]+)/i.exec(set)![1]!) - Date.now();
  assert.ok(maxAge > 23 * 3600_000 && maxAge <= 24 * 3600_000 + 1000, `the cookie lives ${maxAge} ms, as the token`);
  assert.equal(Date.parse(body.expires_at) / 1000, JSON.parse(Buffer.from(cookieOf(r).split('.')[1]!, 'base64url').toString()).exp);

  const me = await svc.api.get('/v1/admin/me', undefined, { cookie: cookieOf(r) });
  assert.equal(me.status, 200);
  assert.equal(me.body.email, tenant.email);
  assert.deepEqual(me.body.orgs.map((o: any) => [o.id, o.role, o.projects.map((p: any) => p.id)]), [[tenant.orgId, 'owner', [tenant.projectId]]]);

  const again = await signIn({ code });
  assert.equal(again.status, 401);
  assert.equal((await again.json()).code, 'unauthorized');
  assert.equal(again.headers.getSetCookie().length, 0, 'a spent link sets no session');
});

test('a made-up code, an empty body or an unknown field is refused and sets nothing', async () => {
  const made = await signIn({ code: 'x'.repeat(43) });
  assert.equal(made.status, 401);
  const cases: Array<[unknown, string]> = [[{}, 'code'], [{ code: 'a', token: 'b' }, 'code'], [{ code: 'a', remember: true }, 'remember'], [{ token: '' }, 'token']];
  for (const [body, field] of cases) {
    const r = await signIn(body);
    assert.equal(r.status, 400, JSON.stringify(body));
    const p = await r.json();
    assert.equal(p.code, 'bad_request');
    assert.equal(p.errors[0].field, field);
    assert.equal(r.headers.getSetCookie().length, 0);
  }
});

test('a pasted token becomes the session; a bad token is 401; sign-out clears the cookie', async () => {
  const bad = await signIn({ token: 'not-a-jwt' });
  assert.equal(bad.status, 401);
  const r = await signIn({ token: tenant.consoleToken });
  assert.equal(r.status, 200);
  assert.equal(cookieOf(r), `agent_inbox_session=${tenant.consoleToken}`);
  const out = await fetch(`${svc.url}/console/session`, { method: 'DELETE', headers: { cookie: cookieOf(r) } });
  assert.equal(out.status, 204);
  const cleared = out.headers.getSetCookie()[0]!;
  assert.match(cleared, /^agent_inbox_session=;/);
  assert.match(cleared, /expires=Thu, 01 Jan 1970/i);
});

test('the session cookie reaches only its own orgs: another org and its event stream are 404', async () => {
  const cookie = cookieOf(await signIn({ code: await linkCode(tenant.email) }));
  const A = `/v1/admin/orgs/${other.orgId}/projects/${other.projectId}`;
  assert.equal((await svc.api.get(`${A}/reviews`, undefined, { cookie })).status, 404);
  const stream = await fetch(`${svc.url}${A}/events/stream`, { headers: { cookie } });
  assert.equal(stream.status, 404);
  assert.equal((await svc.api.get('/v1/admin/me', undefined, { cookie: 'agent_inbox_session=forged' })).status, 401);
});
