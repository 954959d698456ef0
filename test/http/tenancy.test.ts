// What each key ceiling reaches among inboxes and their messages: anything outside is 404.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });

const alice = await tenant.enroll('alice');
const bob = await tenant.enroll('bob');

async function createInbox(key: string, body: Record<string, unknown> = {}) {
  const r = await svc.api.post('/v1/inboxes', body, key);
  assert.equal(r.status, 201, r.text);
  return r.body as { id: string; address: string };
}

async function issueKey(agentId: string, body: Record<string, unknown>, orgId = tenant.orgId, projectId = tenant.projectId, token = tenant.consoleToken) {
  const r = await svc.api.post(`/v1/admin/orgs/${orgId}/projects/${projectId}/agents/${agentId}/keys`, body, token);
  assert.equal(r.status, 201, r.text);
  return r.body.key as string;
}

async function firstMessageId(inboxId: string, key: string): Promise<string> {
  const r = await svc.api.get(`/v1/inboxes/${inboxId}/messages`, key);
  return r.body.data[0].id;
}

const aliceInbox = await createInbox(alice.agentKey);
const aliceSecond = await createInbox(alice.agentKey);
const bobInbox = await createInbox(bob.agentKey);
await sendMail(svc, { from: 'x@example.org', to: [aliceInbox.address, aliceSecond.address, bobInbox.address], subject: 'hello all', text: 'hi' });
const bobMessage = await firstMessageId(bobInbox.id, bob.agentKey);
const aliceMessage = await firstMessageId(aliceInbox.id, alice.agentKey);
const aliceSecondMessage = await firstMessageId(aliceSecond.id, alice.agentKey);

test("a project key sees its own agent's inboxes; a sibling agent's inbox is 404 by id and by address", async () => {
  const list = await svc.api.get('/v1/inboxes', alice.agentKey);
  assert.deepEqual(list.body.data.map((i: any) => i.id).sort(), [aliceInbox.id, aliceSecond.id].sort());
  for (const ref of [bobInbox.id, bobInbox.address]) {
    const r = await svc.api.get(`/v1/inboxes/${ref}`, alice.agentKey);
    assert.equal(r.status, 404, ref);
    assert.equal(r.body.code, 'not_found');
  }
  for (const path of [
    `/v1/inboxes/${bobInbox.id}/messages`,
    `/v1/inboxes/${bobInbox.id}/threads`,
    `/v1/inboxes/${bobInbox.id}/messages/search?q=hello`,
    `/v1/messages/${bobMessage}`,
    `/v1/inboxes/${bobInbox.id}/messages/${bobMessage}/raw`,
    `/v1/inboxes/${bobInbox.id}/messages/${bobMessage}/attachments`,
  ]) {
    const r = await svc.api.get(path, alice.agentKey);
    assert.equal(r.status, 404, path);
    assert.equal(r.body.code, 'not_found');
  }
  const batch = await svc.api.patch(`/v1/inboxes/${bobInbox.id}/messages/batch`, { updates: [{ id: bobMessage, seen: true }] }, alice.agentKey);
  assert.equal(batch.status, 404);
  const wait = await svc.api.post(`/v1/inboxes/${bobInbox.id}/wait`, { timeout_seconds: 1 }, alice.agentKey);
  assert.equal(wait.status, 404);
  const stillUnseen = await svc.api.get(`/v1/messages/${bobMessage}`, bob.agentKey);
  assert.equal(stillUnseen.body.seen, false);
});

test('a message of one inbox is not found through another inbox of the same key', async () => {
  const raw = await svc.api.get(`/v1/inboxes/${aliceSecond.id}/messages/${aliceMessage}/raw`, alice.agentKey);
  assert.equal(raw.status, 404);
  const batch = await svc.api.patch(`/v1/inboxes/${aliceSecond.id}/messages/batch`, { updates: [{ id: aliceMessage, seen: true }] }, alice.agentKey);
  assert.equal(batch.status, 404);
  assert.deepEqual(batch.body.errors, [{ field: 'updates.id', code: 'not_found', detail: aliceMessage }]);
  assert.equal((await svc.api.get(`/v1/messages/${aliceMessage}`, alice.agentKey)).body.seen, false, 'nothing changed');
  const forged = await svc.api.get(`/v1/messages/msg_${'0'.repeat(16)}${aliceInbox.id.slice(4)}`, alice.agentKey);
  assert.equal(forged.status, 404);
  const garbage = await svc.api.get('/v1/messages/not-a-message-id', alice.agentKey);
  assert.equal(garbage.status, 404);
});

test('an inbox key reaches only its inbox, lists only it, and cannot create inboxes', async () => {
  const key = await issueKey(alice.agentId, { ceiling: 'inbox', inbox_id: aliceInbox.id, permissions: ['mailbox:read', 'mailbox:create'] });
  const list = await svc.api.get('/v1/inboxes', key);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.map((i: any) => i.id), [aliceInbox.id]);
  assert.equal((await svc.api.get(`/v1/inboxes/${aliceInbox.id}`, key)).status, 200);
  assert.equal((await svc.api.get(`/v1/inboxes/${aliceInbox.address}`, key)).status, 200);
  assert.equal((await svc.api.get(`/v1/messages/${aliceMessage}`, key)).status, 200);
  for (const path of [`/v1/inboxes/${aliceSecond.id}`, `/v1/inboxes/${aliceSecond.address}`, `/v1/messages/${aliceSecondMessage}`, `/v1/inboxes/${bobInbox.id}`]) {
    const r = await svc.api.get(path, key);
    assert.equal(r.status, 404, path);
  }
  const create = await svc.api.post('/v1/inboxes', {}, key);
  assert.equal(create.status, 403);
  assert.equal(create.body.code, 'forbidden_scope');
});

test('the address alias resolves only within the project', async () => {
  const otherProject = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/projects`, { name: 'Other' }, tenant.consoleToken);
  assert.equal(otherProject.status, 201, otherProject.text);
  const agent = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/projects/${otherProject.body.id}/agents`, { handle: 'carol' }, tenant.consoleToken);
  const carolKey = await issueKey(agent.body.id, {}, tenant.orgId, otherProject.body.id);
  const carolInbox = await createInbox(carolKey);
  assert.equal(carolInbox.address.endsWith('@agents.test'), true);
  for (const ref of [carolInbox.address, carolInbox.id]) {
    assert.equal((await svc.api.get(`/v1/inboxes/${ref}`, alice.agentKey)).status, 404, ref);
  }
  assert.equal((await svc.api.get(`/v1/inboxes/${aliceInbox.address}`, carolKey)).status, 404);
  assert.equal((await svc.api.get(`/v1/inboxes/${carolInbox.address}`, carolKey)).status, 200);

  const stranger = await createTenant(svc);
  const strangerKey = (await stranger.enroll()).agentKey;
  assert.equal((await svc.api.get(`/v1/inboxes/${aliceInbox.address}`, strangerKey)).status, 404);
  assert.equal((await svc.api.get(`/v1/messages/${aliceMessage}`, strangerKey)).status, 404);
});

test('an org key needs a breadth pick on the bare list, then sees every agent of the picked project', async () => {
  const orgKey = await issueKey(alice.agentId, { ceiling: 'org' });
  const bare = await svc.api.get('/v1/inboxes', orgKey);
  assert.equal(bare.status, 400);
  assert.equal(bare.body.code, 'breadth_required');
  assert.equal(bare.body.errors[0].field, 'X-Project-Id');
  assert.match(bare.body.detail, /X-Project-Id: \*/);
  const picked = await svc.api.get('/v1/inboxes', orgKey, { 'X-Project-Id': tenant.projectId });
  assert.equal(picked.status, 200);
  const ids = picked.body.data.map((i: any) => i.id);
  for (const id of [aliceInbox.id, aliceSecond.id, bobInbox.id]) assert.ok(ids.includes(id));
  assert.ok(picked.body.data.every((i: any) => i.project_id === tenant.projectId));
  const all = await svc.api.get('/v1/inboxes', orgKey, { 'X-Project-Id': '*' });
  assert.equal(all.status, 200);
  assert.ok(all.body.data.length >= ids.length + 1, 'every project of the org');
  const foreign = await createTenant(svc);
  const elsewhere = await svc.api.get('/v1/inboxes', orgKey, { 'X-Project-Id': foreign.projectId });
  assert.equal(elsewhere.status, 404);
  assert.equal((await svc.api.get(`/v1/inboxes/${bobInbox.id}`, orgKey)).status, 200, 'an org key reaches any inbox of the org');
  assert.equal((await svc.api.get(`/v1/messages/${bobMessage}`, orgKey)).status, 200);

  const projectWildcard = await svc.api.get('/v1/inboxes', alice.agentKey, { 'X-Project-Id': '*' });
  assert.equal(projectWildcard.status, 403, 'the org wildcard is for org keys');
  assert.equal(projectWildcard.body.code, 'forbidden_scope');
  const otherAssertion = await svc.api.get('/v1/inboxes', alice.agentKey, { 'X-Project-Id': foreign.projectId });
  assert.equal(otherAssertion.status, 403);
});
