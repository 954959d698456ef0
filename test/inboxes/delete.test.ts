// Deleting an inbox (agent and console planes) and changing its recipient limit, through real
// HTTP, real SMTP in and a real relay out.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService, type Tenant } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startReceiver } from '../events/helpers.ts';
import { openStream } from '../../testkit/sse-client.ts';
import { eventIdsFor } from '../../storage/opaque-ids.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, deliverInbound, setPolicy, type Agent } from '../reviews/setup.ts';

const relay = await startRelay('accept');
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url } });
const db = svc.services.db;

/** A key of the agent holding `extra` permissions beside the default ones. */
async function keyWith(tenant: Tenant, agent: Agent, extra: string[], opts: { ceiling?: string; inbox_id?: string } = {}): Promise<string> {
  const permissions = ['mailbox:create', 'mailbox:read', 'mailbox:send', 'webhook:write', ...extra];
  const r = await svc.api.post(`${agent.A}/agents/${agent.agentId}/keys`, { permissions, ...opts }, tenant.consoleToken);
  assert.equal(r.status, 201, r.text);
  return r.body.key;
}

async function rowsOf(inboxId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['messages', 'message_sources', 'attachments', 'message_search', 'threads', 'thread_keys', 'contacts', 'inboxes']) {
    const column = table === 'inboxes' ? 'id' : 'inbox_id';
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [inboxId]);
    counts[table] = rows[0].n;
  }
  return counts;
}

/** The first event of `type` the key's stream replays from the start of the log, as its parsed data. */
async function firstReplayed(key: string, type: string): Promise<Record<string, any>> {
  const stream = await openStream(svc.url, `/v1/events/stream?types=${type}`, { token: key, headers: { 'Last-Event-ID': (await eventIdsFor(db)).encode(0) } });
  assert.equal(stream.status, 200, stream.body);
  try {
    const [first] = await stream.waitForEvents(1);
    assert.equal(first!.event, type);
    return JSON.parse(first!.data);
  } finally {
    stream.close();
  }
}

test('deleting an inbox removes its mail, cancels its live reviews with inbox_deleted, answers 550 and keeps the id 404', async () => {
  const tenant = await createTenant(svc);
  const agent = await agentWithInbox(svc, tenant);
  const deleter = await keyWith(tenant, agent, ['mailbox:delete']);
  const inboxKey = await keyWith(tenant, agent, [], { ceiling: 'inbox', inbox_id: agent.inboxId });

  await deliverInbound(svc, agent.address, {
    from: 'dana@acme.example',
    subject: 'Quote for the demo',
    text: 'Here is the quote.',
    attachments: [{ filename: 'quote.txt', content: 'price: 10' }],
  });
  const inbox = await waitFor(async () => {
    const r = await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key);
    return r.body.data?.length === 1 ? r.body.data : null;
  }, 'the inbound message');
  const messageId = inbox[0].id;
  const threadId = inbox[0].thread_id;
  const contact = await svc.api.post('/v1/contacts', { inbox_id: agent.inboxId, kind: 'block', pattern: 'spam@example.com' }, agent.key);
  assert.equal(contact.status, 201, contact.text);
  const hook = await svc.api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', inbox: agent.inboxId }, agent.key);
  assert.equal(hook.status, 201, hook.text);
  const held = await agent.send({ to: 'dana@acme.example', subject: 'Demo', text: 'Tuesday?', intent: INTENT });
  assert.equal(held.status, 202, held.text);
  const reviewId = held.body.review_id;
  const before = await rowsOf(agent.inboxId);
  assert.ok(before.messages === 1 && before.attachments === 1 && before.threads === 1 && before.contacts === 1, JSON.stringify(before));

  const refused = await svc.api.del(`/v1/inboxes/${agent.inboxId}`, agent.key);
  assert.equal(refused.status, 403, 'the default permissions do not include mailbox:delete');
  assert.equal(refused.body.code, 'forbidden_scope');
  assert.equal((await rowsOf(agent.inboxId)).inboxes, 1, 'a refused deletion deletes nothing');

  const deleted = await svc.api.del(`/v1/inboxes/${agent.inboxId}`, deleter);
  assert.equal(deleted.status, 204, deleted.text);
  assert.equal(deleted.text, '');

  assert.deepEqual(await rowsOf(agent.inboxId), {
    messages: 0, message_sources: 0, attachments: 0, message_search: 0, threads: 0, thread_keys: 0, contacts: 0, inboxes: 0,
  });
  const { rows: hooks } = await db.query('SELECT count(*)::int AS n FROM webhooks WHERE inbox_id = $1', [agent.inboxId]);
  assert.equal(hooks[0].n, 0, 'the webhook naming the inbox is gone');

  // The review was cancelled through the machine, with its event on the durable queue.
  const review = await agent.review(reviewId);
  assert.equal(review.status, 200, 'the review record stays as history');
  assert.equal(review.body.state, 'cancelled');
  assert.equal(review.body.cancel_reason, 'inbox_deleted');
  assert.equal(review.body.cancelled_by, 'composer');
  const events = (await agent.drain()).filter((e: any) => e.review_id === reviewId);
  assert.deepEqual(events.map((e: any) => e.type), ['review.created', 'review.cancelled']);
  assert.equal(events[1].reason, 'inbox_deleted');
  const { rows: transitions } = await db.query(
    `SELECT from_state, to_state, event->>'reason' AS reason FROM machine_transitions WHERE kind = 'review' AND id = $1 ORDER BY version`,
    [reviewId],
  );
  assert.deepEqual(transitions.at(-1), { from_state: 'needs_review', to_state: 'cancelled', reason: 'inbox_deleted' });
  // The event log carries it too: the agent's stream replays it though the inbox is gone.
  const cancelled = await firstReplayed(agent.key, 'review.cancelled');
  assert.deepEqual([cancelled.review_id, cancelled.reason], [reviewId, 'inbox_deleted']);

  // The id is 404 on every route, the address refuses mail.
  for (const path of [
    `/v1/inboxes/${agent.inboxId}`,
    `/v1/inboxes/${encodeURIComponent(agent.address)}`,
    `/v1/inboxes/${agent.inboxId}/messages`,
    `/v1/messages/${messageId}`,
    `/v1/inboxes/${agent.inboxId}/threads/${threadId}`,
  ]) {
    const r = await svc.api.get(path, agent.key);
    assert.equal(r.status, 404, path);
    assert.equal(r.body.code, 'not_found', path);
  }
  const send = await agent.send({ to: 'dana@acme.example', subject: 'again', text: 'x', intent: INTENT });
  assert.equal(send.status, 404);
  assert.equal((await svc.api.del(`/v1/inboxes/${agent.inboxId}`, deleter)).status, 404, 'a second deletion without a key is 404');
  assert.equal((await svc.api.get('/v1/auth/me', inboxKey)).status, 401, 'a key reaching only this inbox is revoked');
  const refusal: any = await sendMail(svc, { from: 'dana@acme.example', to: agent.address, subject: 'hello?', text: 'x' }).then(
    () => assert.fail('mail to a deleted inbox was accepted'),
    (e) => e,
  );
  assert.equal(refusal.responseCode, 550, refusal.response);
  assert.match(refusal.response, /^550 5\.1\.1 /);
  const { rows: stray } = await db.query('SELECT count(*)::int AS n FROM messages WHERE inbox_id = $1', [agent.inboxId]);
  assert.equal(stray[0].n, 0, 'nothing was stored for the deleted inbox');
  const { rows: tomb } = await db.query('SELECT org_id, address FROM inbox_tombstones WHERE id = $1', [agent.inboxId]);
  assert.deepEqual(tomb, [{ org_id: tenant.orgId, address: agent.address }]);
});

test('mail to a deleted inbox is refused with 550 at once on every SMTP process, even one that took mail for it a moment before', async () => {
  // A second process with only the SMTP role, on the same database: each had remembered the
  // address for 5 s after taking mail for it, and answered a 451 at DATA meanwhile.
  const second = await startTestService({ roles: ['smtp'], databaseUrl: svc.databaseUrl, env: { SMTP_URL: relay.url } });
  const tenant = await createTenant(svc);
  const agent = await agentWithInbox(svc, tenant);
  const deleter = await keyWith(tenant, agent, ['mailbox:delete']);
  for (const node of [svc, second]) {
    await sendMail(node, { from: 'dana@acme.example', to: agent.address, subject: 'Before', text: 'x' });
  }
  await waitFor(async () => (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key)).body.data?.length === 2, 'both messages stored');

  const deleted = await svc.api.del(`/v1/inboxes/${agent.inboxId}`, deleter);
  assert.equal(deleted.status, 204, deleted.text);
  for (const node of [svc, second]) {
    const err: any = await sendMail(node, { from: 'dana@acme.example', to: agent.address, subject: 'After', text: 'x' }).then(
      () => assert.fail('mail to a deleted inbox was accepted'),
      (e) => e,
    );
    assert.equal(err.responseCode, 550, err.response);
    assert.match(err.response, /^550 5\.1\.1 /);
  }
  const { rows } = await db.query('SELECT count(*)::int AS n FROM messages WHERE inbox_id = $1', [agent.inboxId]);
  assert.equal(rows[0].n, 0, 'nothing was stored for the deleted inbox');
});

test('deleting an inbox takes its received mail out of the event log: no stream replay or webhook redelivery brings it back', async () => {
  const tenant = await createTenant(svc);
  const agent = await agentWithInbox(svc, tenant);
  const deleter = await keyWith(tenant, agent, ['mailbox:delete']);
  const receiver = await startReceiver();
  // A webhook naming no inbox: it gets the mail of each of the agent's inboxes, and outlives this one.
  const hook = await svc.api.post('/v1/webhooks', { url: `${receiver.url}/hook` }, agent.key);
  assert.equal(hook.status, 201, hook.text);
  await deliverInbound(svc, agent.address, { from: 'dana@acme.example', subject: 'Private numbers', text: 'Wire it to account 12-34-56.' });
  await waitFor(() => receiver.requests.some((r) => r.raw.toString('utf8').includes('account 12-34-56')), 'the webhook delivery of the mail');
  const done = await waitFor(async () => {
    const r = await svc.api.get(`/v1/webhooks/${hook.body.id}/deliveries`, agent.key);
    return r.body.items?.[0]?.status === 'succeeded' ? r.body.items[0] : null;
  }, 'the delivery to be recorded');

  const holding = async () =>
    (await db.query(`SELECT type FROM events WHERE org_id = $1 AND (inbox_id = $2 OR payload::text LIKE '%12-34-56%')`, [tenant.orgId, agent.inboxId])).rows.map((r) => r.type);
  assert.deepEqual(await holding(), ['message.received'], 'the log holds the mail while its inbox lives');

  assert.equal((await svc.api.del(`/v1/inboxes/${agent.inboxId}`, deleter)).status, 204);

  assert.deepEqual(await holding(), [], 'no event of the log holds the deleted mail');
  const listed = await svc.api.get(`/v1/webhooks/${hook.body.id}/deliveries`, agent.key);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.items, [], 'the delivery of the deleted mail is gone from the webhook\'s log');
  const redeliver = await svc.api.post(`/v1/webhooks/${hook.body.id}/deliveries/${done.id}/redeliver`, {}, agent.key);
  assert.equal(redeliver.status, 404, redeliver.text);
  assert.equal(redeliver.body.code, 'not_found');

  // A replay of the agent's stream from the start of the log brings the mail of its live inbox only.
  const second = await svc.api.post('/v1/inboxes', { display_name: 'Second' }, agent.key);
  assert.equal(second.status, 201, second.text);
  await deliverInbound(svc, second.body.address, { from: 'dana@acme.example', subject: 'Still here', text: 'Hello again.' });
  const first = await firstReplayed(agent.key, 'message.received');
  assert.deepEqual([first.inbox, first.message.subject], [second.body.address, 'Still here']);
});

test('a deletion frees a slot of the plan, and the address can be taken by a new inbox with a new id', async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const { agentKey, agentId } = await tenant.enroll();
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const key = await svc.api.post(`${A}/agents/${agentId}/keys`, { permissions: ['mailbox:create', 'mailbox:read', 'mailbox:delete'] }, tenant.consoleToken);
  const deleter = key.body.key;
  const username = `reused-${Date.now()}`;
  const first = await svc.api.post('/v1/inboxes', { username }, agentKey);
  assert.equal(first.status, 201, first.text);
  for (let i = 0; i < 2; i++) assert.equal((await svc.api.post('/v1/inboxes', {}, agentKey)).status, 201);
  const full = await svc.api.post('/v1/inboxes', {}, agentKey);
  assert.equal(full.status, 403);
  assert.equal(full.body.reason, 'inbox_limit_exceeded');

  assert.equal((await svc.api.del(`/v1/inboxes/${first.body.id}`, deleter)).status, 204);
  const again = await svc.api.post('/v1/inboxes', { username }, agentKey);
  assert.equal(again.status, 201, again.text);
  assert.equal(again.body.address, first.body.address);
  assert.notEqual(again.body.id, first.body.id);
  assert.equal((await svc.api.get(`/v1/inboxes/${first.body.id}`, agentKey)).status, 404, 'the old id stays 404');
  assert.equal((await svc.api.get(`/v1/inboxes/${again.body.id}/messages`, agentKey)).body.data.length, 0, 'none of the old mail');
  const fourth = await svc.api.post('/v1/inboxes', {}, agentKey);
  assert.equal(fourth.status, 403, 'three live inboxes again fill the free plan');
});

test('a deletion retried with its Idempotency-Key replays the 204', async () => {
  const tenant = await createTenant(svc);
  const agent = await agentWithInbox(svc, tenant);
  const deleter = await keyWith(tenant, agent, ['mailbox:delete']);
  const headers = { 'Idempotency-Key': `del-${agent.inboxId}` };
  const first = await svc.api.del(`/v1/inboxes/${agent.inboxId}`, deleter, headers);
  assert.equal(first.status, 204);
  const replay = await svc.api.del(`/v1/inboxes/${agent.inboxId}`, deleter, headers);
  assert.equal(replay.status, 204, replay.text);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  const { rows } = await db.query('SELECT count(*)::int AS n FROM inbox_tombstones WHERE id = $1', [agent.inboxId]);
  assert.equal(rows[0].n, 1);
});

test('an org admin deletes an inbox on the console; its reviews are cancelled by a human; other projects and viewers cannot', async () => {
  const tenant = await createTenant(svc);
  const agent = await agentWithInbox(svc, tenant);
  const held = await agent.send({ to: 'dana@acme.example', subject: 'Demo', text: 'Tuesday?', intent: INTENT });
  const other = await createTenant(svc);
  const foreign = await svc.api.del(`/v1/admin/orgs/${other.orgId}/projects/${other.projectId}/inboxes/${agent.inboxId}`, other.consoleToken);
  assert.equal(foreign.status, 404, 'another org\'s inbox is not found');
  assert.equal((await rowsOf(agent.inboxId)).inboxes, 1);

  const r = await svc.api.del(`${agent.A}/inboxes/${encodeURIComponent(agent.address)}`, tenant.consoleToken);
  assert.equal(r.status, 204, r.text);
  const review = await agent.review(held.body.review_id);
  assert.deepEqual([review.body.state, review.body.cancelled_by, review.body.cancel_reason], ['cancelled', 'human', 'inbox_deleted']);
  assert.equal((await svc.api.get(`${agent.A}/inboxes`, tenant.consoleToken)).body.data.length, 0);
  const { rows } = await db.query('SELECT deleted_by FROM inbox_tombstones WHERE id = $1', [agent.inboxId]);
  assert.equal(rows[0].deleted_by, tenant.email);
});

test('a deletion during the delivery of an approved mail waits for it: the mail goes out once and is recorded, then the inbox goes', async () => {
  const tenant = await createTenant(svc);
  const agent = await agentWithInbox(svc, tenant);
  const deleter = await keyWith(tenant, agent, ['mailbox:delete']);
  await setPolicy(agent, 'require_review');
  const held = await agent.send({ to: 'dana@acme.example', subject: 'Going out', text: 'Once.', intent: INTENT });
  assert.equal(held.status, 202, held.text);
  relay.mode = 'hold-data';
  try {
    const approved = await agent.decide(held.body.review_id, { action: 'approve', parent_revision: 1 });
    assert.equal(approved.status, 200, approved.text);
    await relay.held;

    let settled = false;
    const deletion = svc.api.del(`/v1/inboxes/${agent.inboxId}`, deleter).finally(() => (settled = true));
    // The deletion is waiting on the delivery, not done without it.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(settled, false, 'the deletion waits while the relay holds the message');
    assert.equal((await rowsOf(agent.inboxId)).inboxes, 1);
    relay.release();
    const done = await deletion;
    assert.equal(done.status, 204, done.text);
  } finally {
    relay.mode = 'accept';
  }
  const sent = relay.received.filter((m) => m.mail.subject === 'Going out');
  assert.equal(sent.length, 1, 'sent exactly once');
  const review = await agent.review(held.body.review_id);
  assert.equal(review.body.state, 'sent', 'the delivery outcome was recorded before the inbox went');
  assert.equal((await svc.api.get(`/v1/inboxes/${agent.inboxId}`, agent.key)).status, 404);
  // Nothing sends it again later.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(relay.received.filter((m) => m.mail.subject === 'Going out').length, 1);
});

test('PATCH /v1/inboxes/{id} changes recipient_limit_24h with mailbox:quota; bad values are 400 naming the field', async () => {
  const tenant = await createTenant(svc);
  const agent = await agentWithInbox(svc, tenant);
  await setPolicy(agent, 'allow_direct');
  const quota = await keyWith(tenant, agent, ['mailbox:quota']);
  const path = `/v1/inboxes/${agent.inboxId}`;

  const noPermission = await svc.api.patch(path, { recipient_limit_24h: 1 }, agent.key);
  assert.equal(noPermission.status, 403);
  assert.equal(noPermission.body.code, 'forbidden_scope');

  for (const bad of [-1, 1.5, 'ten', null, 1_000_001]) {
    const r = await svc.api.patch(path, { recipient_limit_24h: bad }, quota);
    assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
    assert.equal(r.body.code, 'bad_request');
    assert.equal(r.body.errors[0].field, 'recipient_limit_24h', JSON.stringify(bad));
  }
  const unknown = await svc.api.patch(path, { recipient_limit_24h: 5, review_policy: 'allow_direct' }, quota);
  assert.equal(unknown.status, 400, 'the review policy is not the agent\'s to change');
  const empty = await svc.api.patch(path, {}, quota);
  assert.equal(empty.status, 400);
  assert.equal(empty.body.errors[0].field, 'recipient_limit_24h');
  assert.equal((await svc.api.get(path, agent.key)).body.recipient_limit_24h, 500, 'refused changes change nothing');

  const ok = await svc.api.patch(path, { recipient_limit_24h: 2 }, quota);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.recipient_limit_24h, 2);
  assert.equal(ok.body.id, agent.inboxId);
  assert.equal((await agent.send({ to: ['a@example.com', 'b@example.com'], subject: 's', text: 't' })).status, 202);
  const over = await agent.send({ to: 'c@example.com', subject: 's', text: 't' });
  assert.equal(over.status, 403);
  assert.equal(over.body.reason, 'recipient_limit_exceeded');
  assert.equal(over.body.limit, 2);

  // Another agent's inbox is outside a project key's reach.
  const stranger = await agentWithInbox(svc, tenant);
  assert.equal((await svc.api.patch(`/v1/inboxes/${stranger.inboxId}`, { recipient_limit_24h: 1 }, quota)).status, 404);
});

test('a send parked for reconciliation (its outcome unknown) keeps the inbox: 409 naming the review, nothing deleted', async () => {
  const tenant = await createTenant(svc);
  const agent = await agentWithInbox(svc, tenant);
  const deleter = await keyWith(tenant, agent, ['mailbox:delete']);
  const held = await agent.send({ to: 'dana@acme.example', subject: 'Unknown fate', text: 'x', intent: INTENT });
  relay.mode = 'drop-after-data';
  try {
    assert.equal((await agent.decide(held.body.review_id, { action: 'approve', parent_revision: 1 })).status, 200);
    await waitFor(async () => ((await agent.review(held.body.review_id)).body.send_needs_reconciliation ? true : null), 'the review to be parked');
  } finally {
    relay.mode = 'accept';
  }
  const r = await svc.api.del(`/v1/inboxes/${agent.inboxId}`, deleter);
  assert.equal(r.status, 409, r.text);
  assert.equal(r.body.code, 'conflict');
  assert.deepEqual(r.body.errors, [{ field: 'review_id', code: 'delivery_in_flight', detail: held.body.review_id }]);
  assert.ok(Number(r.headers.get('retry-after')) > 0);
  assert.equal((await rowsOf(agent.inboxId)).inboxes, 1, 'nothing was deleted');
  assert.equal((await agent.review(held.body.review_id)).body.state, 'approved', 'the parked review was not touched');
});
