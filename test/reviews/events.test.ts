// The durable review event queue: drain, long-poll, acknowledge; what each agent may see; and the
// events the composer's and reviewer's verbs leave (chat, rejection, revision, front-run).
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { INTENT, agentWithInbox, type Agent } from './setup.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });

async function queued(agent: Agent, text = 'Draft'): Promise<string> {
  const r = await agent.send({ to: 'dana@acme.example', subject: 'Hi', text, intent: INTENT });
  assert.equal(r.status, 202, r.text);
  return r.body.review_id;
}

test('the drain pages oldest first across reviews and keeps events until they are acknowledged', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const a = await queued(agent);
  const b = await queued(agent);
  await agent.decide(a, { action: 'open' });

  const first = await svc.api.get('/v1/reviews/events?limit=2', agent.key);
  assert.equal(first.status, 200);
  assert.deepEqual(first.body.data.map((e: any) => [e.review_id, e.seq, e.type]), [[a, 1, 'review.created'], [b, 1, 'review.created']]);
  assert.equal(first.body.has_more, true);
  const second = await svc.api.get(`/v1/reviews/events?limit=2&cursor=${first.body.next_cursor}`, agent.key);
  assert.deepEqual(second.body.data.map((e: any) => [e.review_id, e.seq, e.type]), [[a, 2, 'review.in_review']]);
  assert.equal(second.body.has_more, false);
  assert.equal(second.body.next_cursor, null);

  const bad = await svc.api.get('/v1/reviews/events?cursor=garbage', agent.key);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'bad_request');

  // Still there: draining is not acknowledging.
  assert.equal((await agent.drain()).length, 3);
});

test('acks are per review, monotonic, idempotent, clamped to the last event; a foreign review is 404 and acks nothing', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const other = await agentWithInbox(svc, tenant);
  const id = await queued(agent);
  await agent.decide(id, { action: 'open' });
  await agent.decide(id, { action: 'reject', feedback: 'too stiff' });
  const theirs = await queued(other);

  assert.deepEqual((await agent.ack(id, 2)).body.cursors, [{ review_id: id, through_seq: 2 }]);
  assert.deepEqual((await agent.drain()).map((e) => e.seq), [3]);
  assert.deepEqual((await agent.ack(id, 1)).body.cursors, [{ review_id: id, through_seq: 2 }], 'an older sequence changes nothing');
  assert.deepEqual((await agent.ack(id, 2)).body.cursors, [{ review_id: id, through_seq: 2 }]);
  assert.deepEqual((await agent.ack(id, 999)).body.cursors, [{ review_id: id, through_seq: 3 }], 'clamped to the last event');
  assert.deepEqual(await agent.drain(), []);

  // A later event is not swallowed by the earlier over-ack.
  const revised = await svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'Warmer draft' }, agent.key);
  assert.equal(revised.status, 200);
  assert.deepEqual((await agent.drain()).map((e) => [e.seq, e.type, e.revision]), [[4, 'review.needs_review', 2]]);

  const foreign = await svc.api.post('/v1/reviews/events/ack', { acks: [{ review_id: id, through_seq: 4 }, { review_id: theirs, through_seq: 1 }] }, agent.key);
  assert.equal(foreign.status, 404);
  assert.deepEqual(foreign.body.errors, [{ field: 'acks.review_id', code: 'not_found', detail: theirs }]);
  assert.equal((await agent.drain()).length, 1, 'nothing was acknowledged');
  assert.equal((await other.drain()).length, 1, 'and the other agent\'s queue is untouched');

  const empty = await svc.api.post('/v1/reviews/events/ack', { acks: [], broadcast_ids: ['bc_1'] }, agent.key);
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body.cursors, []);
});

test('the long poll answers at once when events are pending, wakes on a new event, and times out empty', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const timedOut = await svc.api.get('/v1/reviews/events/wait?timeout_seconds=1', agent.key);
  assert.equal(timedOut.status, 200);
  assert.deepEqual(timedOut.body.data, []);
  assert.equal(timedOut.body.timed_out, true);

  const started = Date.now();
  const waiting = svc.api.get('/v1/reviews/events/wait?timeout_seconds=30', agent.key);
  await new Promise((r) => setTimeout(r, 200));
  const id = await queued(agent);
  const woken = await waiting;
  assert.equal(woken.status, 200);
  assert.equal(woken.body.timed_out, false);
  assert.deepEqual(woken.body.data.map((e: any) => [e.review_id, e.type]), [[id, 'review.created']]);
  assert.ok(Date.now() - started < 5_000, 'woken by the event, not by the timeout');

  const pending = await svc.api.get('/v1/reviews/events/wait?timeout_seconds=30', agent.key);
  assert.equal(pending.body.data.length, 1);
  assert.equal(pending.body.timed_out, false);

  const tooLong = await svc.api.get('/v1/reviews/events/wait?timeout_seconds=500', agent.key);
  assert.equal(tooLong.status, 400);
});

test('a composer sees only its own reviews: another agent\'s review is 404 on every verb and absent from its queue', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const other = await agentWithInbox(svc, tenant);
  const id = await queued(agent);
  assert.equal((await other.review(id)).status, 404);
  for (const [path, body] of [
    ['cancel', {}],
    ['restamp', { parent_revision: 1 }],
    ['revisions', { parent_revision: 1, text: 'x' }],
    ['chat', { message: 'x' }],
  ] as const) {
    const r = await svc.api.post(`/v1/reviews/${id}/${path}`, body, other.key);
    assert.equal(r.status, 404, path);
    assert.equal(r.body.code, 'not_found');
  }
  assert.equal((await svc.api.get(`/v1/reviews/${id}/feedback`, other.key)).status, 404);
  assert.deepEqual(await other.drain(), []);
  const list = await svc.api.get('/v1/reviews', other.key);
  assert.deepEqual(list.body.data, []);
  assert.equal((await agent.review(id)).body.state, 'needs_review');
});

test('chat: the reviewer\'s messages reach the composer as review.chat events and in the feedback', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const id = await queued(agent);
  const early = await svc.api.post(`/v1/reviews/${id}/chat`, { message: 'Anything?' }, agent.key);
  assert.equal(early.status, 409);
  assert.equal(early.body.code, 'wrong_state');
  assert.deepEqual(early.body.errors.filter((e: any) => e.field === 'allowed_action').map((e: any) => e.code), ['revise', 'restamp', 'cancel']);

  await agent.decide(id, { action: 'open' });
  const asked = await agent.decide(id, { action: 'chat', message: 'Who is Dana?' });
  assert.equal(asked.body.state, 'chatting');
  const answered = await svc.api.post(`/v1/reviews/${id}/chat`, { message: 'Head of ops at Acme.' }, agent.key);
  assert.equal(answered.status, 200);
  assert.equal(answered.body.state, 'chatting');
  await agent.decide(id, { action: 'chat', message: 'Thanks, approving.' });

  const chats = (await agent.drain(`?review_id=${id}`)).filter((e) => e.type === 'review.chat');
  assert.equal(chats.length, 2, 'the chat began, then the reviewer wrote again; the composer\'s own message is not echoed');
  const feedback = await svc.api.get(`/v1/reviews/${id}/feedback`, agent.key);
  assert.deepEqual(feedback.body.data.map((f: any) => [f.kind, f.author, f.message]), [
    ['chat', 'human', 'Who is Dana?'],
    ['chat', 'composer', 'Head of ops at Acme.'],
    ['chat', 'human', 'Thanks, approving.'],
  ]);
});

test('a stale parent_revision is 409 stale with the current state, revision, version and legal verbs; nothing changes', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const id = await queued(agent);
  const v2 = await svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, subject: 'Hello again', to: 'lee@acme.example' }, agent.key);
  assert.equal(v2.status, 200);
  assert.equal(v2.body.revision, 2);
  assert.equal(v2.body.draft.subject, 'Hello again');
  assert.deepEqual(v2.body.draft.to, [{ name: '', email: 'lee@acme.example' }]);
  assert.equal(v2.body.draft.text, 'Draft', 'fields not named are kept');

  const stale = await svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'late' }, agent.key);
  assert.equal(stale.status, 409);
  assert.equal(stale.body.code, 'stale');
  assert.deepEqual(stale.body.errors.map((e: any) => [e.field, e.code]), [
    ['state', 'needs_review'],
    ['revision', '2'],
    ['version', String(v2.body.version)],
    ['allowed_action', 'revise'],
    ['allowed_action', 'restamp'],
    ['allowed_action', 'cancel'],
  ]);
  const human = await agent.decide(id, { action: 'approve', parent_revision: 1 });
  assert.equal(human.status, 409);
  assert.equal(human.body.code, 'stale');
  assert.equal((await agent.review(id)).body.version, v2.body.version);

  const restamp = await svc.api.post(`/v1/reviews/${id}/restamp`, { parent_revision: 2 }, agent.key);
  assert.equal(restamp.status, 200);
  assert.equal(restamp.body.rules_version, 0);

  const blocked = await svc.api.post('/v1/contacts', { inbox_id: agent.inboxId, kind: 'block', pattern: 'nope@acme.example' }, agent.key);
  assert.equal(blocked.status, 201);
  const toBlocked = await svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 2, to: 'nope@acme.example' }, agent.key);
  assert.equal(toBlocked.status, 403);
  assert.equal(toBlocked.body.code, 'recipient_blocked');
});

test('a verb on a finished review is 409 terminal and leaves a review.front_run_next event with the outcome', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const id = await queued(agent);
  const cancelled = await svc.api.post(`/v1/reviews/${id}/cancel`, { reason: 'not needed' }, agent.key);
  assert.equal(cancelled.body.state, 'cancelled');
  assert.equal(cancelled.body.cancel_reason, 'not needed');
  const late = await svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'late' }, agent.key);
  assert.equal(late.status, 409);
  assert.equal(late.body.code, 'terminal');
  assert.equal(late.body.sent_message_id, null);
  assert.equal(late.body.errors, undefined);
  const human = await agent.decide(id, { action: 'approve' });
  assert.equal(human.status, 409);
  assert.equal(human.body.code, 'terminal');

  const events = await agent.drain(`?review_id=${id}`);
  assert.deepEqual(events.map((e) => [e.seq, e.type]), [
    [1, 'review.created'],
    [2, 'review.cancelled'],
    [3, 'review.front_run_next'],
    [4, 'review.front_run_next'],
  ]);
  assert.deepEqual([events[2].outcome, events[2].attempted_action, events[2].state], ['cancelled', 'revise', 'cancelled']);
  assert.equal(events[3].attempted_action, 'approve');
});

test('an inbox key sees only its inbox\'s reviews and events', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const second = await svc.api.post('/v1/inboxes', { display_name: 'Second' }, agent.key);
  assert.equal(second.status, 201);
  const inFirst = await queued(agent);
  const inSecond = (await svc.api.post(`/v1/inboxes/${second.body.id}/send`, { to: 'x@acme.example', intent: INTENT }, agent.key)).body.review_id;
  const issued = await svc.api.post(
    `${agent.A}/agents/${agent.agentId}/keys`,
    { ceiling: 'inbox', inbox_id: second.body.id, permissions: ['mailbox:read', 'mailbox:send'] },
    tenant.consoleToken,
  );
  assert.equal(issued.status, 201, issued.text);
  const key = issued.body.key;
  const events = await svc.api.get('/v1/reviews/events', key);
  assert.deepEqual(events.body.data.map((e: any) => e.review_id), [inSecond]);
  assert.equal((await svc.api.get(`/v1/reviews/${inFirst}`, key)).status, 404);
  assert.equal((await svc.api.get(`/v1/reviews/${inSecond}`, key)).status, 200);
  const list = await svc.api.get('/v1/reviews', key);
  assert.deepEqual(list.body.data.map((r: any) => r.id), [inSecond]);
});
