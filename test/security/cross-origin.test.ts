// Cross-site request forgery on the console plane: every state-changing console operation that
// authenticates with the page's session cookie is refused (403 cross_origin_refused) unless its
// Origin, or without one its Sec-Fetch-Site, says it comes from the console's own origin. Before,
// the cookie alone was enough, so a page on a sibling subdomain (same site, so SameSite=Strict does
// not stop it) could post to every console write. Bearer-token callers are not affected.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { loadApiDocument, type OperationSpec } from '../../http/openapi.ts';
import { SESSION_COOKIE } from '../../service/identity.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const api = loadApiDocument();
const cookie = `${SESSION_COOKIE}=${tenant.consoleToken}`;
const writes = api.operations.filter((op) => op.plane === 'console' && op.method !== 'get');

function pathOf(op: OperationSpec): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'org_id' ? tenant.orgId : name === 'project_id' ? tenant.projectId : 'x1'));
}

/** The request with no body at all: the refusal must not depend on one being sent. */
const send = (op: OperationSpec, headers: Record<string, string>) => svc.api.request(op.method.toUpperCase(), pathOf(op), { headers });

const codeOf = (r: { body: any }): string | undefined => r.body?.code ?? r.body?.error;

function assertRefused(op: OperationSpec, r: { status: number; body: any; text: string }, how: string): void {
  const label = `${op.method.toUpperCase()} ${op.path} (${how})`;
  assert.equal(r.status, 403, `${label}: ${r.status} ${r.text}`);
  assert.equal(codeOf(r), 'cross_origin_refused', label);
}

function assertPassed(op: OperationSpec, r: { status: number; body: any; text: string }, how: string): void {
  assert.notEqual(codeOf(r), 'cross_origin_refused', `${op.method.toUpperCase()} ${op.path} (${how}): ${r.text}`);
  assert.ok(r.status < 500, `${op.method.toUpperCase()} ${op.path} (${how}): ${r.status} ${r.text}`);
}

test('the document has console writes to check', () => {
  assert.ok(writes.length > 40, `only ${writes.length} console writes`);
});

test('a cookie write from another origin is refused on every console write, body or none', async () => {
  for (const op of writes) {
    assertRefused(op, await send(op, { cookie, origin: 'https://evil.example' }), 'foreign Origin');
    // A sandboxed frame (the mail viewer's) sends Origin: null.
    assertRefused(op, await send(op, { cookie, origin: 'null' }), 'Origin null');
    assertRefused(op, await send(op, { cookie, origin: svc.url.replace('127.0.0.1', 'localhost') }), 'another host of the machine');
  }
});

test('a cookie write without Origin is refused unless Sec-Fetch-Site says same-origin, on every console write', async () => {
  for (const op of writes) {
    assertRefused(op, await send(op, { cookie }), 'no Origin, no Sec-Fetch-Site');
    assertRefused(op, await send(op, { cookie, 'sec-fetch-site': 'same-site' }), 'Sec-Fetch-Site same-site');
    assertRefused(op, await send(op, { cookie, 'sec-fetch-site': 'cross-site' }), 'Sec-Fetch-Site cross-site');
  }
});

test('a cookie write from the console\'s own origin passes the check on every console write', async () => {
  for (const op of writes) {
    assertPassed(op, await send(op, { cookie, origin: svc.url }), 'own Origin');
    assertPassed(op, await send(op, { cookie, 'sec-fetch-site': 'same-origin' }), 'Sec-Fetch-Site same-origin');
    assertPassed(op, await send(op, { cookie, origin: svc.config.publicBaseUrl }), 'PUBLIC_BASE_URL');
  }
});

test('a bearer-token write is not checked, whatever its Origin', async () => {
  for (const op of writes) {
    assertPassed(op, await send(op, { authorization: `Bearer ${tenant.consoleToken}`, origin: 'https://evil.example' }), 'bearer, foreign Origin');
    // The cookie beside a bearer token does not make the request the page's.
    assertPassed(op, await send(op, { authorization: `Bearer ${tenant.consoleToken}`, cookie }), 'bearer and cookie, no Origin');
  }
});

test('a refused cross-origin write changes nothing, and the same write from the console itself does', async () => {
  const path = `/v1/admin/orgs/${tenant.orgId}/projects`;
  const body = { name: 'Forged project' };
  const forged = await svc.api.request('POST', path, { body, headers: { cookie, origin: 'https://evil.example' } });
  assert.equal(forged.status, 403, forged.text);
  const count = async () =>
    (await svc.services.db.query('SELECT count(*)::int AS n FROM projects WHERE org_id = $1 AND name = $2', [tenant.orgId, body.name])).rows[0].n;
  assert.equal(await count(), 0);
  const own = await svc.api.request('POST', path, { body, headers: { cookie, origin: svc.url } });
  assert.equal(own.status, 201, own.text);
  assert.equal(await count(), 1);
});

test('reads with the cookie need no Origin', async () => {
  const r = await svc.api.request('GET', `/v1/admin/orgs/${tenant.orgId}/members`, { headers: { cookie } });
  assert.equal(r.status, 200, r.text);
});
