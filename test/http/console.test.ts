import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import * as jose from 'jose';
import { createTenant, startTestService, testConfig } from '../../testkit/service.ts';
import { insertMembership, upsertUser } from '../../storage/tenancy.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const other = await createTenant(svc);
const admin = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

async function member(role: string, projectId: string | null = null) {
  const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
  const user = await upsertUser(svc.services.db, `usr_${Math.random().toString(36).slice(2)}`, email);
  await insertMembership(svc.services.db, { org_id: tenant.orgId, user_id: user.id, project_id: projectId, role: role as any });
  return svc.services.identity.mint!(email);
}

test('the console plane without a token, or with a bad one, is 401 in the legacy envelope', async () => {
  for (const token of [undefined, 'not-a-jwt']) {
    const r = await svc.api.get(`/v1/admin/orgs/${tenant.orgId}`, token);
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'unauthorized');
    assert.equal(typeof r.body.message, 'string');
    assert.equal(r.body.code, undefined);
  }
});

test('an agent key is not a console credential', async () => {
  const { agentKey } = await tenant.enroll();
  assert.equal((await svc.api.get(`/v1/admin/orgs/${tenant.orgId}`, agentKey)).status, 401);
});

test('another org is answered 404, never confirmed', async () => {
  const r = await svc.api.get(`/v1/admin/orgs/${other.orgId}`, tenant.consoleToken);
  assert.equal(r.status, 404);
  assert.equal(r.body.error, 'not_found');
  const p = await svc.api.get(`/v1/admin/orgs/${tenant.orgId}/projects/${other.projectId}/agents`, tenant.consoleToken);
  assert.equal(p.status, 404);
});

test('a signed-in user creates an org and becomes its owner', async () => {
  const token = await svc.services.identity.mint!('founder@example.com');
  const r = await svc.api.post('/v1/admin/orgs', { name: 'Acme', project_name: 'Support' }, token);
  assert.equal(r.status, 201);
  assert.match(r.body.id, /^org_/);
  assert.equal(r.body.plan_tier, 'free');
  assert.equal(r.body.default_review_policy, 'require_review');
  assert.equal(r.body.projects[0].name, 'Support');
  const p = await svc.api.post(`/v1/admin/orgs/${r.body.id}/projects`, { name: 'Sales' }, token);
  assert.equal(p.status, 201);
  const got = await svc.api.get(`/v1/admin/orgs/${r.body.id}`, token);
  assert.deepEqual(got.body.projects.map((x: any) => x.name), ['Support', 'Sales']);
});

test('unknown keys in a console body are 400 naming the key', async () => {
  const r = await svc.api.post(`${admin}/agents`, { handle: 'x', colour: 'blue' }, tenant.consoleToken);
  assert.equal(r.status, 400);
  assert.equal(r.body.error, 'invalid');
  assert.match(r.body.message, /colour/);
  assert.match(r.body.message, /handle/);
});

test('agents: create, list, and a duplicate handle is 409', async () => {
  const a = await svc.api.post(`${admin}/agents`, { handle: 'support-bot', display_name: 'Support' }, tenant.consoleToken);
  assert.equal(a.status, 201);
  assert.match(a.body.id, /^agt_/);
  assert.equal(a.body.status, 'active');
  const dup = await svc.api.post(`${admin}/agents`, { handle: 'support-bot' }, tenant.consoleToken);
  assert.equal(dup.status, 409);
  assert.equal(dup.body.error, 'conflict');
  const list = await svc.api.get(`${admin}/agents`, tenant.consoleToken);
  assert.ok(list.body.items.some((x: any) => x.id === a.body.id));
});

test('enrollment tokens: issued with every field, listed without the secret, revoked', async () => {
  const r = await svc.api.post(
    `${admin}/enrollment-tokens`,
    { label: 'fleet', scopes: ['mailbox:read', 'mailbox:send'], allowed_domains: ['Example.com'], max_mailboxes: 5, daily_send_limit: 200, reusable: true, expires_in_hours: 48 },
    tenant.consoleToken,
  );
  assert.equal(r.status, 201);
  assert.match(r.body.token, /^pk_enroll_[0-9a-z]+_[0-9a-z]+$/);
  assert.equal(r.body.token.startsWith(r.body.prefix + '_'), true);
  assert.equal(r.body.id, `enr_${r.body.token.split('_')[2]}`);
  assert.deepEqual(
    [r.body.label, r.body.scopes, r.body.allowed_domains, r.body.max_mailboxes, r.body.daily_send_limit, r.body.reusable],
    ['fleet', ['mailbox:read', 'mailbox:send'], ['example.com'], 5, 200, true],
  );
  const hours = (Date.parse(r.body.expires_at) - Date.now()) / 3600_000;
  assert.ok(hours > 47.9 && hours <= 48);
  const list = await svc.api.get(`${admin}/enrollment-tokens`, tenant.consoleToken);
  const listed = list.body.items.find((t: any) => t.id === r.body.id);
  assert.equal(listed.token, undefined);
  assert.equal(JSON.stringify(list.body).includes(r.body.token), false);
  assert.equal((await svc.api.del(`${admin}/enrollment-tokens/${r.body.id}`, tenant.consoleToken)).status, 204);
  const after = (await svc.api.get(`${admin}/enrollment-tokens`, tenant.consoleToken)).body.items.find((t: any) => t.id === r.body.id);
  assert.ok(after.revoked_at);
  assert.equal((await svc.api.del(`${admin}/enrollment-tokens/enr_nope`, tenant.consoleToken)).status, 404);
});

test('a viewer reads but may not write; a member may not issue an org key', async () => {
  const viewer = await member('viewer');
  assert.equal((await svc.api.get(`${admin}/agents`, viewer)).status, 200);
  const w = await svc.api.post(`${admin}/agents`, { handle: 'by-viewer' }, viewer);
  assert.equal(w.status, 403);
  assert.equal(w.body.error, 'forbidden');
  const m = await member('member');
  const agent = (await svc.api.post(`${admin}/agents`, { handle: 'by-member' }, m)).body;
  assert.equal((await svc.api.post(`${admin}/agents/${agent.id}/keys`, { ceiling: 'org' }, m)).status, 403);
  assert.equal((await svc.api.post(`${admin}/agents/${agent.id}/keys`, {}, m)).status, 201);
});

test('a billing member sees no project data', async () => {
  const billing = await member('billing');
  assert.equal((await svc.api.get(`${admin}/agents`, billing)).status, 403);
});

test('a project-scoped member reaches that project only', async () => {
  const second = (await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/projects`, { name: 'Second' }, tenant.consoleToken)).body;
  const scoped = await member('admin', second.id);
  assert.equal((await svc.api.get(`/v1/admin/orgs/${tenant.orgId}/projects/${second.id}/agents`, scoped)).status, 200);
  assert.equal((await svc.api.get(`${admin}/agents`, scoped)).status, 404);
});

test('with CONSOLE_JWKS_URL set, tokens from that identity provider are verified against its JWKS and issuer', async () => {
  const { publicKey, privateKey } = await jose.generateKeyPair('RS256');
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
  const idp = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  const jwksUrl = `http://127.0.0.1:${(idp.address() as AddressInfo).port}/.well-known/jwks.json`;
  const config = await testConfig({ CONSOLE_JWKS_URL: jwksUrl, CONSOLE_ISSUER: 'https://idp.example' });
  const second = await startTestService({ roles: ['api'], databaseUrl: svc.databaseUrl, config });
  const sign = (iss: string) =>
    new jose.SignJWT({ email: tenant.email }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(iss).setSubject('user_1').setIssuedAt().setExpirationTime('5m').sign(privateKey);
  try {
    assert.equal(second.services.identity.mint, null, 'no development tokens when an identity provider is configured');
    assert.equal((await second.api.get(`/v1/admin/orgs/${tenant.orgId}`, await sign('https://idp.example'))).status, 200);
    assert.equal((await second.api.get(`/v1/admin/orgs/${tenant.orgId}`, await sign('https://evil.example'))).status, 401);
    assert.equal((await second.api.get(`/v1/admin/orgs/${tenant.orgId}`, tenant.consoleToken)).status, 401, 'a development token is not accepted');
  } finally {
    await second.stop();
    idp.close();
  }
});

/** A token signed with the development provider's own key, with the claims given (times in seconds). */
async function devToken(claims: { iat?: number; exp?: number }): Promise<string> {
  const stored = JSON.parse(await fs.readFile(path.join(svc.config.dataDir, 'console-signing-key.json'), 'utf8'));
  const key = await jose.importJWK(stored.private, 'ES256');
  const jwt = new jose.SignJWT({ email: tenant.email, email_verified: true, ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: stored.public.kid })
    .setIssuer('agent-inbox-dev')
    .setAudience('agent-inbox-console')
    .setSubject(`user:${tenant.email}`);
  return jwt.sign(key);
}

test('a console token must carry exp and iat, not be issued in the future, and live at most 24 hours', async () => {
  const now = Math.floor(Date.now() / 1000);
  const get = async (token: string) => svc.api.get(`/v1/admin/orgs/${tenant.orgId}`, token);
  // Signed with the right key: only the claims make the difference.
  assert.equal((await get(await devToken({ iat: now, exp: now + 3600 }))).status, 200);
  assert.equal((await get(await devToken({ iat: now - 30, exp: now + 24 * 3600 - 30 }))).status, 200, 'exactly 24 hours is allowed');
  const refused = {
    'no exp': await devToken({ iat: now }),
    'no iat': await devToken({ exp: now + 3600 }),
    'iat ten minutes ahead': await devToken({ iat: now + 600, exp: now + 1200 }),
    'a 25-hour lifetime': await devToken({ iat: now, exp: now + 25 * 3600 }),
    'a 30-day lifetime': await devToken({ iat: now - 60, exp: now + 30 * 24 * 3600 }),
  };
  for (const [why, token] of Object.entries(refused)) {
    const r = await get(token);
    assert.equal(r.status, 401, why);
    assert.equal(r.body.error, 'unauthorized', why);
  }
});
