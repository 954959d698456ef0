import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const other = await createTenant(svc);
const admin = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

async function newAgent(handle: string) {
  const r = await svc.api.post(`${admin}/agents`, { handle }, tenant.consoleToken);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function issueKey(agentId: string, body: Record<string, unknown> = {}) {
  return svc.api.post(`${admin}/agents/${agentId}/keys`, body, tenant.consoleToken);
}

test('a missing, malformed or unknown key is 401 unauthorized', async () => {
  for (const token of [undefined, 'nonsense', 'pk_agent_0000000000000000_00000000000000000000000000000000']) {
    const r = await svc.api.get('/v1/auth/me', token);
    assert.equal(r.status, 401, String(token));
    assert.equal(r.body.code, 'unauthorized');
    assert.match(r.headers.get('www-authenticate') ?? '', /Bearer/);
  }
});

test('the console issues project, org and inbox-less keys with their prefixes, shown once', async () => {
  const agent = await newAgent('prefixes');
  const project = await issueKey(agent.id);
  assert.equal(project.status, 201);
  assert.match(project.body.key, /^pk_agent_[0-9a-z]+_/);
  assert.equal(project.body.ceiling, 'project');
  const org = await issueKey(agent.id, { ceiling: 'org' });
  assert.equal(org.status, 201);
  assert.match(org.body.key, /^pk_agent_org_/);
  const me = await svc.api.get('/v1/auth/me', org.body.key);
  assert.equal(me.body.ceiling, 'org');
  assert.equal(me.body.project_id, null);
  const listed = await svc.api.get(`${admin}/agents/${agent.id}/keys`, tenant.consoleToken);
  assert.equal(listed.body.items.length, 2);
  assert.ok(listed.body.items.every((k: any) => !('key' in k)), 'the list never shows a raw key');
});

test('an inbox-ceiling key needs an inbox of the agent', async () => {
  const agent = await newAgent('inbox-keys');
  const missing = await issueKey(agent.id, { ceiling: 'inbox' });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error, 'invalid');
  assert.match(missing.body.message, /inbox_id/);
  const foreign = await issueKey(agent.id, { ceiling: 'inbox', inbox_id: 'inb_doesnotexist' });
  assert.equal(foreign.status, 400);
  await svc.services.db.query(
    `INSERT INTO inboxes (org_id, project_id, id, agent_id, address, domain) VALUES ($1, $2, 'inb_keytest', $3, 'keytest@agents.test', 'agents.test')`,
    [tenant.orgId, tenant.projectId, agent.id],
  );
  const ok = await issueKey(agent.id, { ceiling: 'inbox', inbox_id: 'inb_keytest' });
  assert.equal(ok.status, 201);
  assert.match(ok.body.key, /^pk_agent_inbox_/);
  const me = await svc.api.get('/v1/auth/me', ok.body.key);
  assert.deepEqual([me.body.ceiling, me.body.inbox_id], ['inbox', 'inb_keytest']);
});

test('the pk_agent_proj_ compatibility form of a project key is accepted', async () => {
  const { agentKey, agentId } = await tenant.enroll();
  const compat = agentKey.replace(/^pk_agent_/, 'pk_agent_proj_');
  const r = await svc.api.get('/v1/auth/me', compat);
  assert.equal(r.status, 200);
  assert.equal(r.body.agent_id, agentId);
});

test('a project key presented with another ceiling prefix is refused', async () => {
  const { agentKey } = await tenant.enroll();
  const r = await svc.api.get('/v1/auth/me', agentKey.replace(/^pk_agent_/, 'pk_agent_inbox_'));
  assert.equal(r.status, 401);
});

test('a revoked key is 401 from then on', async () => {
  const agent = await newAgent('revoked');
  const k = (await issueKey(agent.id)).body;
  assert.equal((await svc.api.get('/v1/auth/me', k.key)).status, 200);
  assert.equal((await svc.api.del(`${admin}/agents/${agent.id}/keys/${k.id}`, tenant.consoleToken)).status, 204);
  const r = await svc.api.get('/v1/auth/me', k.key);
  assert.equal(r.status, 401);
  assert.equal(r.body.code, 'unauthorized');
  assert.match(r.body.detail, /revoked/);
});

test('an expired key is 401', async () => {
  const agent = await newAgent('expiring');
  const k = (await issueKey(agent.id, { expires_in_hours: 1 })).body;
  assert.ok(k.expires_at);
  await svc.services.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [k.id]);
  const r = await svc.api.get('/v1/auth/me', k.key);
  assert.equal(r.status, 401);
  assert.match(r.body.detail, /expired/);
});

test('permissions named at issuance are exactly what the key holds; privileged ones are opt-in', async () => {
  const agent = await newAgent('narrow');
  const k = (await issueKey(agent.id, { permissions: ['mailbox:read'] })).body;
  assert.deepEqual((await svc.api.get('/v1/auth/me', k.key)).body.permissions, ['mailbox:read']);
  const d = (await issueKey(agent.id)).body;
  assert.equal(d.permissions.includes('review:act'), false);
  assert.equal(d.permissions.includes('mailbox:delete'), false);
});

test('signup:verify cannot be granted to an API key', async () => {
  const agent = await newAgent('no-verify');
  const r = await issueKey(agent.id, { permissions: ['signup:verify'] });
  assert.equal(r.status, 400);
});

test('an unknown permission is 400 naming permissions', async () => {
  const agent = await newAgent('unknown-perm');
  const r = await issueKey(agent.id, { permissions: ['mailbox:everything'] });
  assert.equal(r.status, 400);
  assert.match(r.body.message, /permissions/);
});

test('a project asserted in X-Project-Id, a query or the body must be the key\'s own project', async () => {
  const { agentKey } = await tenant.enroll();
  const ok = await svc.api.get('/v1/auth/me', agentKey, { 'x-project-id': tenant.projectId });
  assert.equal(ok.status, 200);
  for (const r of [
    await svc.api.get('/v1/auth/me', agentKey, { 'x-project-id': other.projectId }),
    await svc.api.get(`/v1/auth/me?project_id=${other.projectId}`, agentKey),
  ]) {
    assert.equal(r.status, 403);
    assert.equal(r.body.code, 'forbidden_scope');
    assert.equal(r.body.errors[0].field, 'project_id');
  }
});

test('a key of one org cannot be revoked through another org\'s console: 404', async () => {
  const agent = await newAgent('cross');
  const k = (await issueKey(agent.id)).body;
  const r = await svc.api.del(`/v1/admin/orgs/${other.orgId}/projects/${other.projectId}/agents/${agent.id}/keys/${k.id}`, other.consoleToken);
  assert.equal(r.status, 404);
  assert.equal((await svc.api.get('/v1/auth/me', k.key)).status, 200);
});
