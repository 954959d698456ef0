import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { ORG_OWNER } from '../../machines/policy/console-roles.ts';
import { issueEnrollmentToken } from '../../actors/enrollment.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const db = svc.services.db;

async function inboxCount(orgId: string): Promise<number> {
  const { rows } = await db.query('SELECT count(*)::int AS n FROM inboxes WHERE org_id = $1', [orgId]);
  return rows[0].n;
}

test('an agent creates an inbox with a generated address on INBOX_DOMAIN and reads it back', async () => {
  const tenant = await createTenant(svc);
  const { agentKey, agentId } = await tenant.enroll('creator');
  const r = await svc.api.post('/v1/inboxes', { display_name: 'Support Bot', webhook_url: 'https://hooks.example.com/in' }, agentKey);
  assert.equal(r.status, 201, r.text);
  assert.match(r.body.id, /^inb_/);
  assert.match(r.body.address, /^support-bot-[0-9a-z]{6}@agents\.test$/);
  assert.equal(r.body.domain, 'agents.test');
  assert.equal(r.body.display_name, 'Support Bot');
  assert.equal(r.body.agent_id, agentId);
  assert.equal(r.body.org_id, tenant.orgId);
  assert.equal(r.body.project_id, tenant.projectId);
  assert.equal(r.body.webhook_url, 'https://hooks.example.com/in');
  assert.equal(r.body.review_policy, null);
  assert.deepEqual(r.body.effective_review_policy, { policy: 'require_review', source: 'account_default' });
  assert.equal(r.body.recipient_limit_24h, 500);

  const byId = await svc.api.get(`/v1/inboxes/${r.body.id}`, agentKey);
  assert.equal(byId.status, 200);
  assert.deepEqual(byId.body, r.body);
  const byAddress = await svc.api.get(`/v1/inboxes/${encodeURIComponent(r.body.address)}`, agentKey);
  assert.equal(byAddress.status, 200);
  assert.equal(byAddress.body.id, r.body.id);
  const upper = await svc.api.get(`/v1/inboxes/${r.body.address.toUpperCase()}`, agentKey);
  assert.equal(upper.body.id, r.body.id, 'the address alias ignores case');

  const bare = await svc.api.post('/v1/inboxes', undefined, agentKey);
  assert.equal(bare.status, 201, 'the body is optional');
  assert.match(bare.body.address, /^agent-[0-9a-z]{6}@agents\.test$/);
});

test('effective_review_policy follows the per-inbox override over the org default', async () => {
  const tenant = await createTenant(svc);
  const { agentKey } = await tenant.enroll();
  await db.query(`UPDATE orgs SET default_review_policy = 'allow_direct' WHERE id = $1`, [tenant.orgId]);
  const a = await svc.api.post('/v1/inboxes', {}, agentKey);
  assert.deepEqual(a.body.effective_review_policy, { policy: 'allow_direct', source: 'account_default' });
  await db.query(`UPDATE inboxes SET review_policy = 'require_review' WHERE id = $1`, [a.body.id]);
  const again = await svc.api.get(`/v1/inboxes/${a.body.id}`, agentKey);
  assert.equal(again.body.review_policy, 'require_review');
  assert.deepEqual(again.body.effective_review_policy, { policy: 'require_review', source: 'inbox_override' });
});

test('a chosen username becomes the address; a taken or unusable one is refused', async () => {
  const tenant = await createTenant(svc);
  const { agentKey } = await tenant.enroll();
  const name = `Chosen.Name-${Date.now()}`;
  const r = await svc.api.post('/v1/inboxes', { username: name }, agentKey);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.address, `${name.toLowerCase()}@agents.test`);
  const taken = await svc.api.post('/v1/inboxes', { username: name.toLowerCase() }, agentKey);
  assert.equal(taken.status, 409);
  assert.equal(taken.body.code, 'conflict');
  assert.deepEqual(taken.body.errors, [{ field: 'username', code: 'taken' }]);
  for (const bad of ['-dash', 'a..b', 'white space', 'postmaster', 'ünï']) {
    const refused = await svc.api.post('/v1/inboxes', { username: bad }, agentKey);
    assert.equal(refused.status, 400, bad);
    assert.equal(refused.body.code, 'bad_request');
    assert.equal(refused.body.errors[0].field, 'username');
  }
  assert.equal(await inboxCount(tenant.orgId), 1, 'refused creations store nothing');
});

test('unknown body keys are refused with the accepted ones listed', async () => {
  const tenant = await createTenant(svc);
  const { agentKey } = await tenant.enroll();
  const r = await svc.api.post('/v1/inboxes', { display_name: 'x', domain_name: 'elsewhere.example' }, agentKey);
  assert.equal(r.status, 400);
  assert.equal(r.body.code, 'bad_request');
  assert.deepEqual(r.body.errors[0], {
    field: 'domain_name',
    code: 'unknown_key',
    detail: 'unknown key "domain_name"; accepted keys: client_id, display_name, domain, username, webhook_url',
  });
  const badUrl = await svc.api.post('/v1/inboxes', { webhook_url: 'ftp://x.example' }, agentKey);
  assert.equal(badUrl.status, 400);
  assert.equal(badUrl.body.errors[0].field, 'webhook_url');
});

test('client_id makes inbox creation idempotent; a different body with it is a conflict', async () => {
  const tenant = await createTenant(svc);
  const { agentKey } = await tenant.enroll();
  const first = await svc.api.post('/v1/inboxes', { display_name: 'Once', client_id: 'create-1' }, agentKey);
  assert.equal(first.status, 201);
  const retry = await svc.api.post('/v1/inboxes', { display_name: 'Once', client_id: 'create-1' }, agentKey);
  assert.equal(retry.status, 201);
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(retry.body, first.body);
  const header = await svc.api.post('/v1/inboxes', { display_name: 'Once' }, agentKey, { 'Idempotency-Key': 'create-2' });
  const headerRetry = await svc.api.post('/v1/inboxes', { display_name: 'Once' }, agentKey, { 'Idempotency-Key': 'create-2' });
  assert.equal(headerRetry.body.id, header.body.id);
  const changed = await svc.api.post('/v1/inboxes', { display_name: 'Twice', client_id: 'create-1' }, agentKey);
  assert.equal(changed.status, 409);
  assert.equal(changed.body.code, 'idempotency_conflict');
  assert.equal(await inboxCount(tenant.orgId), 2);
});

test('the plan inbox limit is refused as problem+json quota_exceeded with the quota figures but no next_reset_at, and nothing is created', async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const { agentKey } = await tenant.enroll();
  for (let i = 0; i < 3; i++) assert.equal((await svc.api.post('/v1/inboxes', {}, agentKey)).status, 201);
  const r = await svc.api.post('/v1/inboxes', {}, agentKey);
  assert.equal(r.status, 403);
  // It used to come back as application/json {error, message} with no `code`.
  assert.match(r.headers.get('content-type')!, /^application\/problem\+json/);
  assert.equal(r.body.code, 'quota_exceeded');
  assert.equal(r.body.status, 403);
  assert.equal(typeof r.body.detail, 'string');
  assert.equal(r.body.error, 'quota_exceeded', 'the older envelope members stay beside the problem');
  assert.equal(r.body.message, r.body.detail);
  assert.equal(r.body.reason, 'inbox_limit_exceeded');
  assert.equal(r.body.used, 3);
  assert.equal(r.body.limit, 3);
  assert.equal(r.body.remaining, 0);
  assert.equal(r.body.delta, 1);
  assert.equal(r.body.consumed, 3);
  assert.equal(r.body.reserved, 0);
  assert.equal(r.body.upgrade_required, true);
  // An inbox count never resets (a deletion frees a slot): it used to name the next month's start.
  assert.equal('next_reset_at' in r.body, false);
  assert.equal(typeof r.body.message, 'string');
  assert.equal(await inboxCount(tenant.orgId), 3);
});

test('concurrent creations never pass the plan limit', async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const { agentKey } = await tenant.enroll();
  const results = await Promise.all(Array.from({ length: 8 }, () => svc.api.post('/v1/inboxes', {}, agentKey)));
  assert.deepEqual(results.map((r) => r.status).sort(), [201, 201, 201, 403, 403, 403, 403, 403]);
  assert.equal(await inboxCount(tenant.orgId), 3);
});

test("an enrollment token's max_mailboxes is a lifetime allowance across its agents", async () => {
  const tenant = await createTenant(svc, { plan: 'startup' });
  const { raw, row } = await issueEnrollmentToken(db, {
    issuer: ORG_OWNER,
    org_id: tenant.orgId,
    project_id: tenant.projectId,
    reusable: true,
    max_mailboxes: 2,
    created_by: tenant.email,
    now: new Date(),
  });
  const enroll = async (handle: string) => (await svc.api.post('/v1/enroll', { token: raw, agent_handle: handle })).body.agent_key as string;
  const first = await enroll('budget-a');
  const second = await enroll('budget-b');
  assert.equal((await svc.api.post('/v1/inboxes', {}, first)).status, 201);
  const concurrent = await Promise.all([svc.api.post('/v1/inboxes', {}, second), svc.api.post('/v1/inboxes', {}, second)]);
  assert.deepEqual(concurrent.map((r) => r.status).sort(), [201, 403]);
  const refused = concurrent.find((r) => r.status === 403)!;
  assert.match(refused.headers.get('content-type')!, /^application\/problem\+json/);
  assert.equal(refused.body.code, 'quota_exceeded');
  assert.equal(refused.body.error, 'quota_exceeded');
  assert.equal(refused.body.reason, 'enrollment_token_mailbox_budget_exhausted');
  assert.equal(refused.body.used, 2);
  assert.equal(refused.body.limit, 2);
  assert.equal(refused.body.upgrade_required, false);
  const { rows } = await db.query('SELECT mailboxes_created FROM enrollment_tokens WHERE id = $1', [row.id]);
  assert.equal(rows[0].mailboxes_created, 2);
  // A console member may still create inboxes for these agents.
  const agentId = (await svc.api.get('/v1/auth/me', second)).body.agent_id;
  const admin = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}/inboxes`, { agent_id: agentId }, tenant.consoleToken);
  assert.equal(admin.status, 201, admin.text);
});

test('a key without mailbox:create is 403 forbidden_scope on create; one without mailbox:read on list', async () => {
  const tenant = await createTenant(svc);
  const { agentId } = await tenant.enroll('scoped');
  const admin = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const readOnly = await svc.api.post(`${admin}/agents/${agentId}/keys`, { permissions: ['mailbox:read'] }, tenant.consoleToken);
  const createOnly = await svc.api.post(`${admin}/agents/${agentId}/keys`, { permissions: ['mailbox:create'] }, tenant.consoleToken);
  assert.equal(readOnly.status, 201, readOnly.text);
  const create = await svc.api.post('/v1/inboxes', {}, readOnly.body.key);
  assert.equal(create.status, 403);
  assert.equal(create.body.code, 'forbidden_scope');
  assert.equal(create.body.errors[0].field, 'permission');
  assert.equal(await inboxCount(tenant.orgId), 0);
  const list = await svc.api.get('/v1/inboxes', createOnly.body.key);
  assert.equal(list.status, 403);
  assert.equal(list.body.code, 'forbidden_scope');
  const made = await svc.api.post('/v1/inboxes', {}, createOnly.body.key);
  assert.equal(made.status, 201);
  const get = await svc.api.get(`/v1/inboxes/${made.body.id}`, createOnly.body.key);
  assert.equal(get.status, 403, 'reading needs mailbox:read even for the creator');
  assert.equal((await svc.api.get(`/v1/inboxes/${made.body.id}`, readOnly.body.key)).status, 200);
});

test('the inbox list pages oldest first with limit and next_cursor, limit clamped to 1-100', async () => {
  const tenant = await createTenant(svc, { plan: 'developer' });
  const { agentKey } = await tenant.enroll();
  const made: string[] = [];
  for (let i = 0; i < 5; i++) made.push((await svc.api.post('/v1/inboxes', { display_name: `n${i}` }, agentKey)).body.id);
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r: any = await svc.api.get(`/v1/inboxes?limit=2${cursor ? `&cursor=${cursor}` : ''}`, agentKey);
    assert.equal(r.status, 200);
    assert.equal(r.body.object, 'list');
    assert.ok(r.body.data.length <= 2);
    seen.push(...r.body.data.map((i: any) => i.id));
    cursor = r.body.next_cursor;
    assert.equal(r.body.has_more, cursor !== null);
    pages++;
  } while (cursor);
  assert.deepEqual(seen, made);
  assert.equal(pages, 3);
  const zero = await svc.api.get('/v1/inboxes?limit=0', agentKey);
  assert.equal(zero.body.data.length, 1, 'limit 0 is clamped to 1');
  const huge = await svc.api.get('/v1/inboxes?limit=5000', agentKey);
  assert.equal(huge.body.data.length, 5);
  const badCursor = await svc.api.get('/v1/inboxes?cursor=not-a-cursor', agentKey);
  assert.equal(badCursor.status, 400);
  assert.equal(badCursor.body.code, 'bad_request');
  assert.equal(badCursor.body.errors[0].field, 'cursor');
});

test('the console creates an inbox for an agent with a username and domain, and lists the project', async () => {
  const tenant = await createTenant(svc);
  const { agentId, agentKey } = await tenant.enroll('console-owned');
  const admin = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const name = `desk-${Date.now()}`;
  const r = await svc.api.post(`${admin}/inboxes`, { agent_id: agentId, display_name: 'Desk', username: name, domain: 'AGENTS.test' }, tenant.consoleToken);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.address, `${name}@agents.test`);
  assert.equal(r.body.agent_id, agentId);
  assert.equal(r.body.display_name, 'Desk');
  const seenByAgent = await svc.api.get(`/v1/inboxes/${r.body.id}`, agentKey);
  assert.equal(seenByAgent.status, 200, 'the owning agent reaches it');

  const otherDomain = await svc.api.post(`${admin}/inboxes`, { agent_id: agentId, domain: 'custom.example' }, tenant.consoleToken);
  assert.equal(otherDomain.status, 400);
  assert.equal(otherDomain.body.error, 'invalid');
  assert.match(otherDomain.body.message, /custom\.example/);
  const domainId = await svc.api.post(`${admin}/inboxes`, { agent_id: agentId, domain_id: 'dom_unknown' }, tenant.consoleToken);
  assert.equal(domainId.status, 400);
  const noAgent = await svc.api.post(`${admin}/inboxes`, { agent_id: 'agt_nope' }, tenant.consoleToken);
  assert.equal(noAgent.status, 400);
  assert.equal(noAgent.body.error, 'invalid');
  const missing = await svc.api.post(`${admin}/inboxes`, {}, tenant.consoleToken);
  assert.equal(missing.status, 400);

  const { agentId: sibling } = await tenant.enroll('console-sibling');
  await svc.api.post(`${admin}/inboxes`, { agent_id: sibling }, tenant.consoleToken);
  const list = await svc.api.get(`${admin}/inboxes`, tenant.consoleToken);
  assert.equal(list.status, 200);
  assert.deepEqual(new Set(list.body.data.map((i: any) => i.agent_id)), new Set([agentId, sibling]));

  const stranger = await createTenant(svc);
  const foreign = await svc.api.get(`${admin}/inboxes`, stranger.consoleToken);
  assert.equal(foreign.status, 404);
});
