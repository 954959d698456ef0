// Webhooks on the console plane, over real HTTP with a real receiver on loopback: a human lists every
// webhook of the project (secrets redacted), reads a webhook's delivery log, redelivers a delivery,
// changes a webhook (its URL, its active flag), rotates its secret and deletes it; another org's
// console user reaches none of it.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
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
  // A path of its own: the first agent's other webhooks (of the test above) get the same event.
  const hook = await register(first.agentId, { inbox: inbox.id, url: `${receiver.url}/redelivered` });
  const mine = () => receiver.requests.filter((r) => r.url === '/redelivered');
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
  await waitFor(() => mine().length === 2, 'the redelivery');
  const [sent, again] = mine();
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

/** The v1 signatures of a delivery, and whether one of them is the body's HMAC under `secret`. */
function signedWith(req: { headers: Record<string, unknown>; raw: Buffer }, secret: string): boolean {
  const header = String(req.headers['x-service-signature']);
  const t = /t=(\d+)/.exec(header)![1];
  const expected = crypto.createHmac('sha256', secret).update(`${t}.`).update(req.raw).digest('hex');
  return [...header.matchAll(/v1=([0-9a-f]+)/g)].some((m) => m[1] === expected);
}

test('the console moves a webhook to another URL, deactivates and reactivates it; redelivery waits for it to be active', async () => {
  const hook = await register(first.agentId, { inbox: inbox.id });
  const moved = await svc.api.patch(`${A}/webhooks/${hook.id}`, { url: `${receiver.url}/moved` }, tenant.consoleToken);
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual([moved.body.id, moved.body.url, moved.body.inbox_id, moved.body.active], [hook.id, `${receiver.url}/moved`, inbox.id, true]);
  assert.equal(moved.body.secret, undefined);
  await receiveMessage(svc, inbox);
  const [delivery] = await waitFor(async () => {
    const r = await svc.api.get(`${A}/webhooks/${hook.id}/deliveries`, tenant.consoleToken);
    return r.body.items[0]?.status === 'succeeded' ? r.body.items : null;
  }, 'the delivery to the new URL');
  assert.ok(receiver.requests.some((r) => r.url === '/moved'), 'the receiver got it at the new URL');

  const off = await svc.api.patch(`${A}/webhooks/${hook.id}`, { active: false }, tenant.consoleToken);
  assert.deepEqual([off.status, off.body.active], [200, false]);
  const refused = await svc.api.post(`${A}/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, {}, tenant.consoleToken);
  assert.deepEqual([refused.status, refused.body.code], [409, 'conflict']);
  const on = await svc.api.patch(`${A}/webhooks/${hook.id}`, { active: true }, tenant.consoleToken);
  assert.deepEqual([on.status, on.body.active, on.body.consec_failures], [200, true, 0]);
  const redo = await svc.api.post(`${A}/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, {}, tenant.consoleToken);
  assert.equal(redo.status, 202, redo.text);

  const bad = await svc.api.patch(`${A}/webhooks/${hook.id}`, { url: 'not a url' }, tenant.consoleToken);
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.body.errors[0].field, 'url');
  const unknown = await svc.api.patch(`${A}/webhooks/${hook.id}`, { colour: 'red' }, tenant.consoleToken);
  assert.equal(unknown.status, 400, unknown.text);
  assert.equal((await svc.api.get(`${A}/webhooks/${hook.id}`, tenant.consoleToken)).body.url, `${receiver.url}/moved`, 'the refused changes changed nothing');
});

test('the console rotates a secret: shown once, and deliveries carry the new and the old signature', async () => {
  const hook = await register(first.agentId, { inbox: inbox.id });
  const rotated = await svc.api.post(`${A}/webhooks/${hook.id}/rotate-secret`, {}, tenant.consoleToken);
  assert.equal(rotated.status, 200, rotated.text);
  assert.match(rotated.body.secret, /^whsec_/);
  assert.notEqual(rotated.body.secret, hook.secret);
  assert.equal(rotated.body.secret_prefix, rotated.body.secret.slice(0, 10));
  assert.ok(Date.parse(rotated.body.previous_secret_expires_at) > Date.now() + 23 * 3600 * 1000);
  const read = await svc.api.get(`${A}/webhooks/${hook.id}`, tenant.consoleToken);
  assert.equal(read.text.includes(rotated.body.secret), false, 'the new secret is not read back');

  const before = receiver.requests.length;
  await receiveMessage(svc, inbox);
  const req = await waitFor(() => receiver.requests.slice(before).find((r) => signedWith(r, rotated.body.secret)), 'a delivery signed with the new secret');
  assert.ok(signedWith(req, hook.secret), 'and with the old one while receivers switch');
});

test("another org's console user gets 404 on this project's webhooks, their log, redelivery and deletion, and nothing changes", async () => {
  const hook = await register(first.agentId);
  const t = stranger.consoleToken;
  const own = `/v1/admin/orgs/${stranger.orgId}/projects/${stranger.projectId}`;
  assert.equal((await svc.api.get(`${A}/webhooks`, t)).status, 404);
  assert.equal((await svc.api.get(`${A}/webhooks/${hook.id}/deliveries`, t)).status, 404);
  assert.equal((await svc.api.post(`${A}/webhooks/${hook.id}/deliveries/whd_x/redeliver`, {}, t)).status, 404);
  assert.equal((await svc.api.del(`${A}/webhooks/${hook.id}`, t)).status, 404);
  assert.equal((await svc.api.patch(`${A}/webhooks/${hook.id}`, { active: false }, t)).status, 404);
  assert.equal((await svc.api.post(`${A}/webhooks/${hook.id}/rotate-secret`, {}, t)).status, 404);
  assert.equal((await svc.api.patch(`${own}/webhooks/${hook.id}`, { active: false }, t)).status, 404);
  assert.equal((await svc.api.post(`${own}/webhooks/${hook.id}/rotate-secret`, {}, t)).status, 404);
  // Through its own project's path, the id is not found either.
  const viaOwn = await svc.api.del(`${own}/webhooks/${hook.id}`, t);
  assert.equal(viaOwn.status, 404);
  assert.equal(viaOwn.body.code, 'not_found');
  assert.equal((await svc.api.get(`${own}/webhooks`, t)).body.items.length, 0);
  const still = await svc.api.get(`${A}/webhooks/${hook.id}`, tenant.consoleToken);
  assert.deepEqual([still.status, still.body.active, still.body.secret_prefix], [200, true, hook.secret_prefix], 'the webhook is still there, unchanged');
});
