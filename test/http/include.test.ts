// `include` on list and get endpoints: each operation expands only the paths it lists, at most
// two steps deep, and what it includes is read again within the caller's ceiling.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { findAgentsInScope } from '../../storage/agents.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const alice = await tenant.enroll('alice');
const bob = await tenant.enroll('bob');

async function inboxOf(key: string) {
  const r = await svc.api.post('/v1/inboxes', { display_name: 'Inbox' }, key);
  assert.equal(r.status, 201, r.text);
  return r.body as { id: string; address: string; agent_id: string };
}

async function orgKey(agentId: string) {
  const r = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}/agents/${agentId}/keys`, { ceiling: 'org' }, tenant.consoleToken);
  assert.equal(r.status, 201, r.text);
  return r.body.key as string;
}

const aliceInbox = await inboxOf(alice.agentKey);
const bobInbox = await inboxOf(bob.agentKey);
await sendMail(svc, { from: 'dana@acme.example', to: aliceInbox.address, subject: 'Hello', text: 'Hi Alice' });

test('inboxes expand agent and domain on get and list; without include there is no included member', async () => {
  const plain = await svc.api.get(`/v1/inboxes/${aliceInbox.id}`, alice.agentKey);
  assert.equal(plain.status, 200);
  assert.ok(!('included' in plain.body));

  const got = await svc.api.get(`/v1/inboxes/${aliceInbox.id}?include=agent,domain`, alice.agentKey);
  assert.equal(got.status, 200, got.text);
  assert.equal(got.body.included.agent.id, alice.agentId);
  assert.equal(got.body.included.agent.handle, 'alice');
  assert.equal(got.body.included.domain, null, 'an inbox on the service domain has no domain record');

  const listed = await svc.api.get('/v1/inboxes?include=agent', alice.agentKey);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data.map((i: any) => [i.id, i.included.agent.id]), [[aliceInbox.id, alice.agentId]]);
  assert.ok(!('domain' in listed.body.data[0].included), 'only what was asked for');

  // An org key reaches every agent of the project, and each inbox brings its own.
  const key = await orgKey(alice.agentId);
  const all = await svc.api.get('/v1/inboxes?include=agent', key, { 'X-Project-Id': tenant.projectId });
  assert.equal(all.status, 200, all.text);
  const owners = Object.fromEntries(all.body.data.map((i: any) => [i.id, i.included.agent.id]));
  assert.equal(owners[aliceInbox.id], alice.agentId);
  assert.equal(owners[bobInbox.id], bob.agentId);
});

test('messages and threads expand their inbox, the inbox\'s agent, and the thread', async () => {
  const list = await svc.api.get(`/v1/inboxes/${aliceInbox.id}/messages?include=inbox.agent,thread`, alice.agentKey);
  assert.equal(list.status, 200, list.text);
  const [m] = list.body.data;
  assert.equal(m.included.inbox.id, aliceInbox.id, 'inbox.agent brings the inbox');
  assert.equal(m.included.inbox.included.agent.id, alice.agentId);
  assert.equal(m.included.thread.id, m.thread_id);

  const one = await svc.api.get(`/v1/messages/${m.id}?include=inbox.domain`, alice.agentKey);
  assert.equal(one.status, 200, one.text);
  assert.equal(one.body.included.inbox.address, aliceInbox.address);
  assert.deepEqual(one.body.included.inbox.included, { domain: null });
  assert.equal(typeof one.body.text, 'string', 'the bodies are still there');

  const found = await svc.api.get(`/v1/inboxes/${aliceInbox.id}/messages/search?q=hello&include=thread`, alice.agentKey);
  assert.equal(found.status, 200, found.text);
  assert.equal(found.body.data[0].included.thread.id, m.thread_id);

  const threads = await svc.api.get(`/v1/inboxes/${aliceInbox.id}/threads?include=inbox`, alice.agentKey);
  assert.equal(threads.status, 200, threads.text);
  assert.equal(threads.body.data[0].included.inbox.id, aliceInbox.id);
  const thread = await svc.api.get(`/v1/inboxes/${aliceInbox.id}/threads/${m.thread_id}?include=inbox.agent`, alice.agentKey);
  assert.equal(thread.status, 200, thread.text);
  assert.equal(thread.body.included.inbox.included.agent.id, alice.agentId);
  assert.equal(thread.body.messages.length, 1);
});

test('a disallowed, too deep or empty include path is 400 bad_request naming include', async () => {
  const cases: Array<[string, string]> = [
    [`/v1/inboxes/${aliceInbox.id}?include=messages`, 'not_allowed'],
    [`/v1/inboxes/${aliceInbox.id}?include=agent,secrets`, 'not_allowed'],
    [`/v1/inboxes/${aliceInbox.id}/messages?include=inbox.agent.keys`, 'too_deep'],
    [`/v1/inboxes/${aliceInbox.id}/messages?include=agent`, 'not_allowed'],
    [`/v1/inboxes/${aliceInbox.id}/threads?include=thread`, 'not_allowed'],
    [`/v1/inboxes/${aliceInbox.id}?include=agent,,domain`, 'invalid'],
    ['/v1/webhooks?include=inbox', 'not_allowed'],
    ['/v1/auth/me?include=agent', 'not_allowed'],
  ];
  for (const [url, code] of cases) {
    const r = await svc.api.get(url, alice.agentKey);
    assert.equal(r.status, 400, `${url}: ${r.text}`);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(r.body.code, 'bad_request');
    assert.deepEqual(r.body.errors.map((e: any) => [e.field, e.code]), [['include', code]], url);
  }
});

test('an include never reaches past the key: outside the ceiling it is a 404 or nothing', async () => {
  // Bob's project key does not reach Alice's inbox, with or without include.
  const r = await svc.api.get(`/v1/inboxes/${aliceInbox.id}?include=agent`, bob.agentKey);
  assert.equal(r.status, 404);
  // The loader behind `agent` applies the caller's scope again: a sibling agent is not returned.
  const db = svc.services.db;
  const bobScope = { org_id: tenant.orgId, project_id: tenant.projectId, agent_id: bob.agentId };
  assert.deepEqual((await findAgentsInScope(db, bobScope, [alice.agentId, bob.agentId])).map((a) => a.id), [bob.agentId]);
  const otherProject = { org_id: tenant.orgId, project_id: 'prj_elsewhere', agent_id: null };
  assert.deepEqual(await findAgentsInScope(db, otherProject, [alice.agentId]), []);
  const otherOrg = { org_id: 'org_elsewhere', project_id: null, agent_id: null };
  assert.deepEqual(await findAgentsInScope(db, otherOrg, [alice.agentId]), []);
});
