// The whole Review Loop through real HTTP, the real workers and a real SMTP relay on loopback:
// send, reply and forward, a human's decisions, delivery, and the durable review event queue.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { deliverReview } from '../../actors/delivery.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, deliverInbound, setPolicy } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url } });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const deps = { db: svc.services.db, queue: svc.services.queue, config: svc.config, log: svc.services.log };
const count = async (sql: string, values: unknown[] = []) => (await svc.services.db.query(sql, values)).rows[0].n as number;

test('send: 422 without intent (nothing stored), 202 with it; a human opens and edits; the relay gets the edited mail once; the agent drains and acks', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const draft = { to: 'Dana <dana@acme.example>', subject: 'Tuesday demo', text: 'Tuesday 10:00 works for us.' };

  const refused = await agent.send(draft, { 'Idempotency-Key': 'demo-1' });
  assert.equal(refused.status, 422);
  assert.equal(refused.body.code, 'intent_required');
  assert.equal(await count('SELECT count(*)::int AS n FROM reviews WHERE agent_id = $1', [agent.agentId]), 0);
  assert.equal(await count(`SELECT count(*)::int AS n FROM machine_instances WHERE agent_id = $1`, [agent.agentId]), 0);
  assert.equal(await count(`SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'demo-1'`), 0, 'the refused request left its key unused');

  const accepted = await agent.send({ ...draft, intent: INTENT }, { 'Idempotency-Key': 'demo-1' });
  assert.equal(accepted.status, 202);
  assert.equal(accepted.body.outcome, 'queued_for_review');
  assert.match(accepted.body.review_id, /^rr_/);
  assert.equal(accepted.body.state, 'needs_review');
  assert.deepEqual(accepted.body.effective_review_policy, { policy: 'require_review', source: 'account_default' });
  assert.deepEqual(accepted.body.review.draft.to, [{ name: 'Dana', email: 'dana@acme.example' }]);
  assert.deepEqual(accepted.body.review.allowed_actions, ['revise', 'restamp', 'cancel']);
  const id = accepted.body.review_id;
  // The review's row goes in with a later statement of its transaction: the 202 and the stored
  // review agree on its times.
  const stored = await agent.review(id);
  assert.equal(stored.status, 200);
  assert.match(accepted.body.review.created_at, /^\d{4}-\d{2}-\d{2}T/);
  assert.deepEqual([stored.body.created_at, stored.body.updated_at], [accepted.body.review.created_at, accepted.body.review.updated_at]);
  assert.equal(await count('SELECT count(*)::int AS n FROM machine_transitions WHERE id = $1 AND version = 1', [id]), 1);

  const created = await agent.drain();
  assert.deepEqual(created.map((e) => [e.review_id, e.seq, e.type, e.state, e.from_state, e.revision, e.effective_mode]), [
    [id, 1, 'review.created', 'needs_review', null, 1, 'review'],
  ]);
  assert.equal(created[0].category_id, null);

  const queue = await svc.api.get(`${agent.A}/reviews?state=needs_review`, tenant.consoleToken);
  assert.equal(queue.status, 200);
  assert.ok(queue.body.data.some((r: any) => r.id === id && r.allowed_actions.includes('open')));

  const opened = await agent.decide(id, { action: 'open' });
  assert.equal(opened.status, 200);
  assert.equal(opened.body.state, 'in_review');
  const edited = await agent.decide(id, { action: 'edit', parent_revision: 1, text: 'Tuesday 10:00 works for us.\nSee you then!', feedback: 'warmer close' });
  assert.equal(edited.status, 200);
  assert.equal(edited.body.state, 'edited');

  const sent = await agent.until(id, 'sent');
  assert.match(sent.sent_message_id, /^msg_/);
  assert.equal(relay.received.length, 1);
  const mail = relay.received[0]!;
  // The envelope sender is the signed return path its bounces come back to.
  assert.match(mail.from, new RegExp(`^bounce\\+${id}\\.[0-9a-f]{16}@agents\\.test$`));
  assert.deepEqual(mail.to, ['dana@acme.example']);
  assert.equal(mail.mail.text?.trim(), 'Tuesday 10:00 works for us.\nSee you then!');
  assert.equal(mail.mail.subject, 'Tuesday demo');
  assert.equal(mail.mail.from?.value[0]?.address, agent.address);
  assert.equal(mail.mail.from?.value[0]?.name, 'Sales Bot');
  assert.equal(mail.mail.messageId, `<${id}.1@agents.test>`);
  assert.match(mail.raw.toString(), /\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n/);
  assert.match(mail.raw.toString(), /\r\nList-Unsubscribe:\s+<http:\/\/[^>]+\/v1\/unsubscribe\/[\w-]+\.[\w-]+>,\s+<mailto:/);

  // A retried delivery job finds the outcome recorded and sends nothing.
  await deliverReview(deps, { org_id: tenant.orgId, review_id: id });
  assert.equal(relay.received.length, 1);

  const sentCopy = await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages?folder=SENT`, agent.key);
  assert.equal(sentCopy.status, 200);
  assert.deepEqual(sentCopy.body.data.map((m: any) => [m.id, m.review_id, m.folder]), [[sent.sent_message_id, id, 'SENT']]);

  const feedback = await svc.api.get(`/v1/reviews/${id}/feedback`, agent.key);
  assert.equal(feedback.status, 200);
  assert.equal(feedback.body.data.length, 1);
  assert.equal(feedback.body.data[0].kind, 'edit');
  assert.equal(feedback.body.data[0].feedback, 'warmer close');
  assert.deepEqual(feedback.body.data[0].diff.map((d: any) => d.field), ['text']);
  assert.deepEqual(feedback.body.data[0].diff[0].lines, [
    { op: ' ', line: 'Tuesday 10:00 works for us.' },
    { op: '+', line: 'See you then!' },
  ]);

  const events = await agent.drain();
  assert.deepEqual(events.map((e) => [e.seq, e.type, e.from_state, e.state]), [
    [1, 'review.created', null, 'needs_review'],
    [2, 'review.in_review', 'needs_review', 'in_review'],
    [3, 'review.edited', 'in_review', 'edited'],
    [4, 'review.sent', 'edited', 'sent'],
  ]);
  const acked = await agent.ack(id, 4);
  assert.equal(acked.status, 200);
  assert.deepEqual(acked.body.cursors, [{ review_id: id, through_seq: 4 }]);
  assert.deepEqual(await agent.drain(), []);

  // The same events reach the event log (webhooks and the stream read it), and the relay's taking
  // the mail is the recipient's message.delivered.
  const logged = await svc.services.db.query(`SELECT type, payload FROM events WHERE payload->>'review_id' = $1 ORDER BY id`, [id]);
  assert.deepEqual(logged.rows.map((r) => r.type), ['review.created', 'review.in_review', 'review.edited', 'review.sent', 'message.delivered']);
  assert.equal(logged.rows[4].payload.recipient, 'dana@acme.example');
  assert.equal(logged.rows[3].payload.state, 'sent');

  // The replayed request returns the original answer and creates nothing.
  const replay = await agent.send({ ...draft, intent: INTENT }, { 'Idempotency-Key': 'demo-1' });
  assert.equal(replay.status, 202);
  assert.equal(replay.body.review_id, id);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
});

test('reply: answers the newest message of the thread with In-Reply-To and References, and files the sent copy in that thread', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await deliverInbound(svc, agent.address, {
    from: 'Dana <dana@acme.example>',
    subject: 'Demo next week?',
    text: 'Could we do a demo next week?',
    messageId: '<first@acme.example>',
    references: '<root@acme.example>',
  });
  const threads = await waitFor(async () => {
    const r = await svc.api.get(`/v1/inboxes/${agent.inboxId}/threads`, agent.key);
    return r.body.data?.length ? r.body.data : null;
  }, 'the inbound message to be stored');
  const thread = threads[0];

  const stale = await svc.api.post(
    `/v1/inboxes/${agent.inboxId}/reply`,
    { thread_id: thread.id, expected_last_message_id: 'msg_not_the_last', text: 'Yes', intent: INTENT },
    agent.key,
  );
  assert.equal(stale.status, 409);
  assert.equal(stale.body.code, 'reply_context_changed');
  assert.equal(stale.body.last_message_id, thread.last_message_id);

  const reply = await svc.api.post(
    `/v1/inboxes/${agent.inboxId}/reply`,
    { thread_id: thread.id, expected_last_message_id: thread.last_message_id, text: 'Tuesday 10:00?', intent: INTENT },
    agent.key,
  );
  assert.equal(reply.status, 202);
  assert.equal(reply.body.review.kind, 'reply');
  assert.equal(reply.body.review.draft.thread_id, thread.id);
  assert.equal(reply.body.review.draft.in_reply_to, '<first@acme.example>');
  assert.equal(reply.body.review.draft.subject, 'Re: Demo next week?');
  assert.deepEqual(reply.body.review.draft.to, [{ name: 'Dana', email: 'dana@acme.example' }]);
  const id = reply.body.review_id;

  assert.equal((await agent.decide(id, { action: 'approve' })).status, 200);
  const sent = await agent.until(id, 'sent');
  const mail = await waitFor(() => relay.received.find((m) => m.mail.messageId === `<${id}.1@agents.test>`), 'the reply at the relay');
  assert.equal(mail.mail.inReplyTo, '<first@acme.example>');
  assert.deepEqual(mail.mail.references, ['<root@acme.example>', '<first@acme.example>']);
  assert.equal(mail.mail.subject, 'Re: Demo next week?');

  const after = await svc.api.get(`/v1/inboxes/${agent.inboxId}/threads/${thread.id}`, agent.key);
  assert.equal(after.status, 200);
  assert.deepEqual(after.body.messages.map((m: any) => m.folder), ['INBOX', 'SENT']);
  assert.equal(after.body.messages[1].id, sent.sent_message_id);
  assert.equal(after.body.messages[1].review_id, id);
});

test('forward: the original travels quoted and attached as message/rfc822', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await deliverInbound(svc, agent.address, {
    from: 'Lee <lee@vendor.example>',
    subject: 'Quote 1142',
    text: 'Our quote is 4,200 EUR.',
    attachments: [{ filename: 'quote.txt', content: 'total 4200' }],
  });
  const messages = await waitFor(async () => {
    const r = await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key);
    return r.body.data?.length ? r.body.data : null;
  }, 'the inbound message to be stored');
  const original = messages[0];

  const fwd = await svc.api.post(
    `/v1/inboxes/${agent.inboxId}/messages/${original.id}/forward`,
    { to: 'boss@acme.example', text: 'FYI, the vendor quote.', intent: INTENT },
    agent.key,
  );
  assert.equal(fwd.status, 202);
  assert.equal(fwd.body.review.kind, 'forward');
  assert.equal(fwd.body.review.parent_message_id, original.id);
  assert.equal(fwd.body.review.draft.subject, 'Fwd: Quote 1142');
  assert.match(fwd.body.review.draft.text, /^FYI, the vendor quote\.\n\n---------- Forwarded message ---------\nFrom: Lee <lee@vendor\.example>/);
  assert.match(fwd.body.review.draft.text, /Our quote is 4,200 EUR\./);

  const missing = await svc.api.post(`/v1/inboxes/${agent.inboxId}/messages/msg_nope/forward`, { to: 'boss@acme.example', intent: INTENT }, agent.key);
  assert.equal(missing.status, 404);

  const id = fwd.body.review_id;
  assert.equal((await agent.decide(id, { action: 'approve' })).status, 200);
  await agent.until(id, 'sent');
  const mail = relay.received.find((m) => m.mail.messageId === `<${id}.1@agents.test>`)!;
  assert.deepEqual(mail.to, ['boss@acme.example']);
  const attached = mail.mail.attachments.find((a) => a.contentType === 'message/rfc822');
  assert.ok(attached, 'the original is attached');
  assert.match(attached!.content.toString(), /Subject: Quote 1142/);
  assert.match(attached!.content.toString(), /quote\.txt/);
});

test('allow_direct: the send is a review released at once, ending auto_sent with review.auto_sent', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await setPolicy(agent, 'allow_direct');
  const inbox = await svc.api.get(`/v1/inboxes/${agent.inboxId}`, agent.key);
  assert.deepEqual(inbox.body.effective_review_policy, { policy: 'allow_direct', source: 'inbox_override' });

  const r = await agent.send({ to: 'ops@acme.example', subject: 'Status', text: 'All green.' });
  assert.equal(r.status, 202);
  assert.equal(r.body.outcome, 'released');
  assert.equal(r.body.effective_mode, 'auto');
  assert.match(r.body.review_id, /^rr_/);
  const id = r.body.review_id;
  const done = await agent.until(id, 'auto_sent');
  assert.match(done.sent_message_id, /^msg_/);
  assert.equal(relay.received.filter((m) => m.mail.messageId === `<${id}.1@agents.test>`).length, 1);
  const events = await agent.drain(`?review_id=${id}`);
  assert.deepEqual(events.map((e) => [e.type, e.from_state, e.state, e.effective_mode]), [['review.auto_sent', 'sending_auto', 'auto_sent', 'auto']]);
  const acked = await agent.ack(id, 1);
  assert.deepEqual(acked.body.cursors, [{ review_id: id, through_seq: 1 }]);
  assert.deepEqual(await agent.drain(`?review_id=${id}`), []);

  // An intent, when given under allow_direct, must still be valid.
  const bad = await agent.send({ to: 'ops@acme.example', text: 'x', intent: { summary: 'short' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'bad_request');
});

test('a recipient hosted here is delivered internally through the ingestion path, not the relay', async () => {
  const sender = await agentWithInbox(svc, tenant);
  const receiver = await agentWithInbox(svc, tenant);
  const before = relay.received.length;
  const r = await sender.send({ to: receiver.address, subject: 'Handover', text: 'The Acme account is yours.', intent: INTENT });
  assert.equal(r.status, 202);
  assert.equal((await sender.decide(r.body.review_id, { action: 'approve' })).status, 200);
  await sender.until(r.body.review_id, 'sent');
  assert.equal(relay.received.length, before, 'nothing went to the relay');
  const inbox = await svc.api.get(`/v1/inboxes/${receiver.inboxId}/messages`, receiver.key);
  assert.equal(inbox.body.data.length, 1);
  assert.equal(inbox.body.data[0].subject, 'Handover');
  assert.equal(inbox.body.data[0].from.email, sender.address);
  assert.equal(inbox.body.data[0].message_id, `<${r.body.review_id}.1@agents.test>`);
  const received = await svc.services.db.query(`SELECT count(*)::int AS n FROM events WHERE type = 'message.received' AND inbox_id = $1`, [receiver.inboxId]);
  assert.equal(received.rows[0].n, 1, 'the receiver is told as for any inbound mail');
});

test('with no relay configured, mail to other domains is kept in the local outbox', async () => {
  const local = await startTestService({ roles: ['api', 'worker'] });
  const t = await createTenant(local);
  const agent = await agentWithInbox(local, t);
  const r = await agent.send({ to: 'dana@acme.example', subject: 'Kept', text: 'Stays here.', intent: INTENT });
  assert.equal((await agent.decide(r.body.review_id, { action: 'approve' })).status, 200);
  await agent.until(r.body.review_id, 'sent');
  const { rows } = await local.services.db.query('SELECT review_id, envelope_from, envelope_to, subject, raw FROM outbound_outbox');
  assert.equal(rows.length, 1);
  assert.equal(rows[0].review_id, r.body.review_id);
  assert.match(rows[0].envelope_from, new RegExp(`^bounce\\+${r.body.review_id}\\.[0-9a-f]{16}@agents\\.test$`));
  assert.deepEqual(rows[0].envelope_to, ['dana@acme.example']);
  assert.match(rows[0].raw.toString(), /Stays here\./);
});
