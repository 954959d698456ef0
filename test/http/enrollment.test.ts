import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const admin = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

async function issueToken(body: Record<string, unknown> = {}) {
  const r = await svc.api.post(`${admin}/enrollment-tokens`, body, tenant.consoleToken);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

test('redeeming a token creates an agent and a project key that whoami recognises', async () => {
  const r = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'billing-bot' });
  assert.equal(r.status, 201);
  assert.match(r.body.agent_key, /^pk_agent_[0-9a-z]+_[0-9a-z]+$/);
  assert.equal(r.body.org_id, tenant.orgId);
  assert.equal(r.body.project_id, tenant.projectId);
  assert.match(r.body.agent_id, /^agt_/);
  assert.equal(r.body.created, true);
  const me = await svc.api.get('/v1/auth/me', r.body.agent_key);
  assert.equal(me.status, 200);
  assert.deepEqual(
    { org_id: me.body.org_id, project_id: me.body.project_id, agent_id: me.body.agent_id, key_id: me.body.key_id, ceiling: me.body.ceiling },
    { org_id: tenant.orgId, project_id: tenant.projectId, agent_id: r.body.agent_id, key_id: r.body.key_id, ceiling: 'project' },
  );
  assert.deepEqual(me.body.permissions, ['mailbox:create', 'mailbox:read', 'mailbox:send', 'webhook:write', 'commerce:request', 'support:submit']);
});

test('two enrollments with one handle return the same agent with two working keys', async () => {
  const first = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'same-handle' });
  const second = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'same-handle' });
  assert.equal(first.status, 201);
  assert.equal(second.status, 200);
  assert.equal(second.body.created, false);
  assert.equal(second.body.agent_id, first.body.agent_id);
  assert.notEqual(second.body.agent_key, first.body.agent_key);
  for (const key of [first.body.agent_key, second.body.agent_key]) {
    assert.equal((await svc.api.get('/v1/auth/me', key)).body.agent_id, first.body.agent_id);
  }
  const agents = await svc.api.get(`${admin}/agents`, tenant.consoleToken);
  assert.equal(agents.body.items.filter((a: any) => a.handle === 'same-handle').length, 1);
});

test('the token scopes are carried into the agent key', async () => {
  const t = await issueToken({ scopes: ['mailbox:read', 'review:act'] });
  assert.deepEqual(t.scopes, ['mailbox:read', 'review:act']);
  const r = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'reviewer' });
  assert.equal(r.status, 201);
  assert.deepEqual((await svc.api.get('/v1/auth/me', r.body.agent_key)).body.permissions, ['mailbox:read', 'review:act']);
});

test('a single-use token enrolls one handle; a retry with that handle still works, another handle is 401', async () => {
  const t = await issueToken({ reusable: false });
  const first = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'one' });
  assert.equal(first.status, 201);
  const retry = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'one' });
  assert.equal(retry.status, 200);
  assert.equal(retry.body.agent_id, first.body.agent_id);
  const other = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'two' });
  assert.equal(other.status, 401);
  assert.equal(other.body.code, 'unauthorized');
  const agents = await svc.api.get(`${admin}/agents`, tenant.consoleToken);
  assert.equal(agents.body.items.some((a: any) => a.handle === 'two'), false, 'no agent was created for the refused handle');
});

test('a reusable token enrolls many handles', async () => {
  const t = await issueToken({ reusable: true });
  for (const h of ['r1', 'r2', 'r3']) assert.equal((await svc.api.post('/v1/enroll', { token: t.token, agent_handle: h })).status, 201);
  const listed = (await svc.api.get(`${admin}/enrollment-tokens`, tenant.consoleToken)).body.items.find((x: any) => x.id === t.id);
  assert.equal(listed.redemptions, 3);
});

test('a revoked token is refused with 401 and creates nothing; keys it issued keep working', async () => {
  const t = await issueToken({ reusable: true });
  const before = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'pre-revoke' });
  assert.equal(before.status, 201);
  assert.equal((await svc.api.del(`${admin}/enrollment-tokens/${t.id}`, tenant.consoleToken)).status, 204);
  const r = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'post-revoke' });
  assert.equal(r.status, 401);
  assert.equal(r.body.code, 'unauthorized');
  assert.match(r.body.detail, /revoked/);
  assert.equal((await svc.api.get('/v1/auth/me', before.body.agent_key)).status, 200);
});

test('an expired token is refused with 401', async () => {
  const t = await issueToken({ expires_in_hours: 1 });
  await svc.services.db.query(`UPDATE enrollment_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [t.id]);
  const r = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'late' });
  assert.equal(r.status, 401);
  assert.match(r.body.detail, /expired/);
});

test('a malformed token is 400 naming token; an unknown or wrong secret is 401', async () => {
  const bad = await svc.api.post('/v1/enroll', { token: 'hello', agent_handle: 'x' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'bad_request');
  assert.equal(bad.body.errors[0].field, 'token');
  const wrong = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')), agent_handle: 'x' });
  assert.equal(wrong.status, 401);
  const unknown = await svc.api.post('/v1/enroll', { token: 'pk_enroll_0000000000000000_11111111111111111111111111111111', agent_handle: 'x' });
  assert.equal(unknown.status, 401);
});

test('a missing agent_handle is 400 naming the field', async () => {
  const r = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken });
  assert.equal(r.status, 400);
  assert.deepEqual(r.body.errors.map((e: any) => [e.field, e.code]), [['agent_handle', 'required']]);
});

test('Idempotency-Key replays the first response exactly, including the one-time key', async () => {
  const body = { token: tenant.enrollmentToken, agent_handle: 'idem-bot' };
  const h = { 'idempotency-key': 'enroll-1' };
  const first = await svc.api.post('/v1/enroll', body, undefined, h);
  const again = await svc.api.post('/v1/enroll', body, undefined, h);
  assert.equal(first.status, 201);
  assert.equal(again.status, 201);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  const keys = await svc.api.get(`${admin}/agents/${first.body.agent_id}/keys`, tenant.consoleToken);
  assert.equal(keys.body.items.length, 1, 'the replay issued no second key');
});

test('the same Idempotency-Key with a different body is 409 idempotency_conflict', async () => {
  const h = { 'idempotency-key': 'enroll-2' };
  assert.equal((await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'a-1' }, undefined, h)).status, 201);
  const r = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'a-2' }, undefined, h);
  assert.equal(r.status, 409);
  assert.equal(r.body.code, 'idempotency_conflict');
});

test('client_id in the body is an alias of Idempotency-Key, tied to the exact bytes', async () => {
  const first = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'cid', client_id: 'c-1' });
  const again = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'cid', client_id: 'c-1' });
  assert.deepEqual(again.body, first.body);
  // Same meaning, other spelling (key order): a different request for the same key.
  const respelled = await svc.api.request('POST', '/v1/enroll', {
    raw: JSON.stringify({ agent_handle: 'cid', token: tenant.enrollmentToken, client_id: 'c-1' }),
  });
  assert.equal(respelled.status, 409);
  assert.equal(respelled.body.code, 'idempotency_conflict');
});

test('a refused request is replayed as refused, and a new key is a new attempt', async () => {
  const t = await issueToken({ reusable: false });
  await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'owner-of-token' });
  const h = { 'idempotency-key': 'refused-1' };
  const refused = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'intruder' }, undefined, h);
  const replay = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'intruder' }, undefined, h);
  assert.equal(refused.status, 401);
  assert.equal(replay.status, 401);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
});

test('an enrollment token is not accepted as an agent key', async () => {
  const r = await svc.api.get('/v1/auth/me', tenant.enrollmentToken);
  assert.equal(r.status, 401);
  assert.match(r.body.detail, /enroll/);
});

test('a token cannot take over an agent made on the console: 409 conflict and no key for it', async () => {
  const made = await svc.api.post(`${admin}/agents`, { handle: 'console-made' }, tenant.consoleToken);
  assert.equal(made.status, 201, made.text);
  const r = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'console-made' });
  assert.equal(r.status, 409);
  assert.equal(r.body.code, 'conflict');
  assert.deepEqual(r.body.errors.map((e: any) => [e.field, e.code]), [['agent_handle', 'taken']]);
  assert.equal(r.body.agent_key, undefined);
  const keys = await svc.api.get(`${admin}/agents/${made.body.id}/keys`, tenant.consoleToken);
  assert.deepEqual(keys.body.items, []);
});

test('a reusable token cannot take over an agent another token enrolled', async () => {
  const other = await issueToken({ reusable: true });
  const owner = await svc.api.post('/v1/enroll', { token: other.token, agent_handle: 'owned-elsewhere' });
  assert.equal(owner.status, 201);
  const r = await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'owned-elsewhere' });
  assert.equal(r.status, 409);
  assert.equal(r.body.code, 'conflict');
  const keys = await svc.api.get(`${admin}/agents/${owner.body.agent_id}/keys`, tenant.consoleToken);
  assert.equal(keys.body.items.length, 1, 'only the key of its own enrollment');
  // The enrolling token still returns its own agent.
  const again = await svc.api.post('/v1/enroll', { token: other.token, agent_handle: 'owned-elsewhere' });
  assert.equal(again.status, 200);
  assert.equal(again.body.agent_id, owner.body.agent_id);
});

test('an agent holds at most 20 working keys; past that redemption and console issue are 409 until one is revoked', async () => {
  const t = await issueToken({ reusable: true });
  const issued: any[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'many-keys' });
    assert.ok(r.status === 200 || r.status === 201, r.text);
    issued.push(r.body);
  }
  const over = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'many-keys' });
  assert.equal(over.status, 409);
  assert.equal(over.body.code, 'conflict');
  assert.deepEqual(over.body.errors.map((e: any) => [e.field, e.code]), [['agent_handle', 'key_limit']]);
  const agentId = issued[0].agent_id;
  const consoleOver = await svc.api.post(`${admin}/agents/${agentId}/keys`, {}, tenant.consoleToken);
  assert.equal(consoleOver.status, 409);
  assert.equal(consoleOver.body.error, 'conflict');
  assert.equal((await svc.api.get(`${admin}/agents/${agentId}/keys`, tenant.consoleToken)).body.items.length, 20);
  assert.equal((await svc.api.del(`${admin}/agents/${agentId}/keys/${issued[0].key_id}`, tenant.consoleToken)).status, 204);
  const after = await svc.api.post('/v1/enroll', { token: t.token, agent_handle: 'many-keys' });
  assert.equal(after.status, 200);
});
