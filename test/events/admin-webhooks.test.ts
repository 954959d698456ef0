// Webhooks on the console plane, over real HTTP with a real receiver on loopback: a human lists every
// webhook of the project (secrets redacted), reads a webhook's delivery log, redelivers a delivery
// and deletes a webhook; another org's console user reaches none of it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTenant, startTestService } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import { addInbox, receiveMessage, startReceiver } from './helpers.ts';

const svc = await startTestService();
const tenant = await createTenant(svc, { plan: 'enterprise' });
const stranger = await createTenant(svc);
const first = await tenant.enroll('hook-owner-one');
const second = await tenant.enroll('hook-owner-two');
const inbox = await addInbox(svc, tenant, first.agentId);
const receiver = await startReceiver();
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

async function register(agentId: string, body: Record<string, unknown> = {}) {
  const r = await svc.api.post(`${A}/webhooks`, { url: `${receiver.url}/hook`, agent_id: agentId, ...body }, tenant.consoleToken);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

test('the console lists every webhook of the project, of every agent, with no secret in the answer', async () => {
  const a = await register(first.agentId);
  const b = await register(second.agentId);
  const r = await svc.api.get(`${A}/webhooks`, tenant.consoleToken);
  assert.equal(r.status, 200, r.text);
  const mine = r.body.items.filter((w: any) => w.id === a.id || w.id === b.id);
  assert.deepEqual(mine.map((w: any) => [w.id, w.agent_id]), [[a.id, first.agentId], [b.id, second.agentId]]);
  assert.equal(r.body.total, r.body.items.length);
  assert.ok(r.body.items.every((w: any) => w.secret === undefined));
  assert.equal(r.text.includes(a.secret) || r.text.includes(b.secret), false, 'no secret is read back');
});

test('the console reads a delivery log and redelivers a delivery: the receiver gets the same event again', async () => {
  const hook = await register(first.agentId, { inbox: inbox.id });
  const before = receiver.requests.length;
  await receiveMessage(svc, inbox);
  const [original] = await waitFor(async () => {
    const r = await svc.api.get(`${A}/webhooks/${hook.id}/deliveries`, tenant.consoleToken);
    assert.equal(r.status, 200, r.text);
    return r.body.items[0]?.status === 'succeeded' ? r.body.items : null;
  }, 'the delivery recorded as succeeded');
  assert.equal(original.attempts[0].status_code, 200);
  const redo = await svc.api.post(`${A}/webhooks/${hook.id}/deliveries/${original.id}/redeliver`, {}, tenant.consoleToken);
  assert.equal(redo.status, 202, redo.text);
  assert.equal(redo.body.redelivery_of, original.id);
  assert.equal(redo.body.event_id, original.event_id);
  await waitFor(() => receiver.requests.length === before + 2, 'the redelivery');
  const [sent, again] = receiver.requests.slice(before);
  assert.equal(again!.raw.toString('utf8'), sent!.raw.toString('utf8'), 'the same body, the same event id');
  const log = await svc.api.get(`${A}/webhooks/${hook.id}/deliveries`, tenant.consoleToken);
  assert.deepEqual(log.body.items.map((d: any) => d.id), [redo.body.id, original.id], 'newest first');
});

test('a deleted webhook is gone from the list and its log; deleting it again is 404', async () => {
  const hook = await register(second.agentId);
  const del = await svc.api.del(`${A}/webhooks/${hook.id}`, tenant.consoleToken);
  assert.equal(del.status, 204, del.text);
  const list = await svc.api.get(`${A}/webhooks`, tenant.consoleToken);
  assert.equal(list.body.items.some((w: any) => w.id === hook.id), false);
  assert.equal((await svc.api.get(`${A}/webhooks/${hook.id}/deliveries`, tenant.consoleToken)).status, 404);
  const again = await svc.api.del(`${A}/webhooks/${hook.id}`, tenant.consoleToken);
  assert.equal(again.status, 404);
  assert.equal(again.body.code, 'not_found');
});

test("another org's console user gets 404 on this project's webhooks, their log, redelivery and deletion, and nothing changes", async () => {
  const hook = await register(first.agentId);
  const t = stranger.consoleToken;
  const own = `/v1/admin/orgs/${stranger.orgId}/projects/${stranger.projectId}`;
  assert.equal((await svc.api.get(`${A}/webhooks`, t)).status, 404);
  assert.equal((await svc.api.get(`${A}/webhooks/${hook.id}/deliveries`, t)).status, 404);
  assert.equal((await svc.api.post(`${A}/webhooks/${hook.id}/deliveries/whd_x/redeliver`, {}, t)).status, 404);
  assert.equal((await svc.api.del(`${A}/webhooks/${hook.id}`, t)).status, 404);
  // Through its own project's path, the id is not found either.
  const viaOwn = await svc.api.del(`${own}/webhooks/${hook.id}`, t);
  assert.equal(viaOwn.status, 404);
  assert.equal(viaOwn.body.code, 'not_found');
  assert.equal((await svc.api.get(`${own}/webhooks`, t)).body.items.length, 0);
  assert.equal((await svc.api.get(`${A}/webhooks/${hook.id}`, tenant.consoleToken)).status, 200, 'the webhook is still there');
});
