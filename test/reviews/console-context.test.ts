// The console plane gives a reviewer the context of a draft: the conversation a reply belongs to
// (read through the console membership, not an agent key) and where the draft stands against the
// project's rules now.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { INTENT, agentWithInbox, deliverInbound } from './setup.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const agent = await agentWithInbox(svc, tenant);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

test("a review's thread reads on the console plane, every message oldest first; another org's member gets 404", async () => {
  await deliverInbound(svc, agent.address, { from: 'dana@acme.example', subject: 'Refund please', text: 'It broke.' });
  const message = await waitFor(async () => (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key)).body.data[0], 'the mail to be stored');
  const reply = await svc.api.post(`/v1/inboxes/${agent.inboxId}/reply`, { thread_id: message.thread_id, text: 'We refund you.', intent: INTENT }, agent.key);
  assert.equal(reply.status, 202, reply.text);
  const review = (await svc.api.get(`${A}/reviews/${reply.body.review_id}`, tenant.consoleToken)).body;
  assert.equal(review.draft.thread_id, message.thread_id);
  assert.equal(review.parent_message_id, message.id);

  const t = await svc.api.get(`${A}/inboxes/${review.inbox_id}/threads/${review.draft.thread_id}`, tenant.consoleToken);
  assert.equal(t.status, 200, t.text);
  assert.equal(t.body.id, message.thread_id);
  assert.deepEqual(t.body.messages.map((m: any) => [m.id, m.text?.trim()]), [[message.id, 'It broke.']]);

  const other = await createTenant(svc);
  const OA = `/v1/admin/orgs/${other.orgId}/projects/${other.projectId}`;
  assert.equal((await svc.api.get(`${OA}/inboxes/${review.inbox_id}/threads/${message.thread_id}`, other.consoleToken)).status, 404);
  assert.equal((await svc.api.get(`${A}/inboxes/${review.inbox_id}/threads/thr_nope`, tenant.consoleToken)).status, 404);
});

test('a review says whether its draft was composed under the current rules', async () => {
  const send = await agent.send({ to: 'dana@acme.example', subject: 'Rules', text: 'Hello.', intent: INTENT });
  assert.equal(send.status, 202, send.text);
  const before = (await svc.api.get(`${A}/reviews/${send.body.review_id}`, tenant.consoleToken)).body;
  assert.deepEqual([before.rules_version, before.current_rules_version, before.rules_stale], [before.current_rules_version, before.rules_version, false]);
  const rule = await svc.api.post(`${A}/rules`, { rule_text: 'Sign off with "Best, Dana".' }, tenant.consoleToken);
  assert.equal(rule.status, 201, rule.text);
  const after = (await svc.api.get(`${A}/reviews/${send.body.review_id}`, tenant.consoleToken)).body;
  assert.equal(after.rules_version, before.rules_version);
  assert.equal(after.current_rules_version, before.rules_version + 1);
  assert.equal(after.rules_stale, true);
});

test('every console decision on a revision no longer current is 409 stale with the current revision, and decides nothing', async () => {
  const send = await agent.send({ to: 'dana@acme.example', subject: 'Refund', text: 'We refund $50.', intent: INTENT });
  const id = send.body.review_id;
  const revised = await svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'We refund $5,000.' }, agent.key);
  assert.equal(revised.status, 200, revised.text);
  const before = (await svc.api.get(`${A}/reviews/${id}`, tenant.consoleToken)).body;
  const bodies = [{ action: 'open' }, { action: 'approve' }, { action: 'edit', text: 'We refund $50.' }, { action: 'reject', feedback: 'No.' }, { action: 'cancel' }];
  for (const body of bodies) {
    const r = await svc.api.post(`${A}/reviews/${id}/decision`, { ...body, parent_revision: 1 }, tenant.consoleToken);
    assert.equal(r.status, 409, `${body.action}: ${r.text}`);
    assert.equal(r.body.code, 'stale', body.action);
    assert.ok(r.body.errors.some((e: any) => e.field === 'revision' && e.code === '2'), body.action);
  }
  // Chat is legal only on an open review and a revision sends it back to needs_review, so a stale
  // chat is refused for the state it would act on as well.
  const chat = await svc.api.post(`${A}/reviews/${id}/decision`, { action: 'chat', message: 'Why?', parent_revision: 1 }, tenant.consoleToken);
  assert.equal(chat.status, 409, chat.text);
  const after = (await svc.api.get(`${A}/reviews/${id}`, tenant.consoleToken)).body;
  assert.deepEqual([after.state, after.revision, after.version, after.feedback_history.length], [before.state, 2, before.version, before.feedback_history.length]);
});
