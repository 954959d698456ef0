// The SDK against the real service: every agent-plane method at least once, paging, retries,
// typed errors and the event stream's resume.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from '../../../testkit/test.ts';
import { Ajv } from 'ajv';
import { AgentInbox, AgentInboxError, CONTRACT_VERSION, OPERATIONS, REVIEW_LOOP_MANIFEST, type OperationId } from '@agent-inbox/sdk';
import { createTenant, startTestService } from '../../../testkit/service.ts';
import { sendMail } from '../../../testkit/mail.ts';
import { startRelay } from '../../../testkit/relay.ts';
import { waitFor } from '../../../testkit/wait.ts';
import { writeSignupGate } from '../../../storage/signups.ts';

const relay = await startRelay('accept');
after(() => relay.close());
const STAFF = 'staff@support.example';
const svc = await startTestService({ env: { SMTP_URL: relay.url, SUPPORT_STAFF_EMAILS: STAFF } });
const tenant = await createTenant(svc, { plan: 'developer' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

// Counts each generated method the tests call, to show every one is exercised.
const called = new Set<string>();
function counted(client: AgentInbox): AgentInbox {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop === 'string' && prop in OPERATIONS && typeof value === 'function') {
        return (...args: unknown[]) => {
          called.add(prop);
          return value.apply(target, args);
        };
      }
      return value;
    },
  });
}

const anonymous = counted(new AgentInbox({ baseUrl: svc.url }));
const enrolled = await anonymous.redeemEnrollment({ token: tenant.enrollmentToken, agent_handle: 'sdk-agent' });
const client = counted(new AgentInbox({ baseUrl: svc.url, apiKey: enrolled.agent_key }));
const INTENT = { summary: 'Answer the pricing question from Dana at Acme' };

test('the contract version is the document\'s', async () => {
  assert.equal(CONTRACT_VERSION, '0.1.0-pre.6');
  assert.equal((await svc.api.get('/openapi.json')).body.info.version, CONTRACT_VERSION);
});

test('whoami and inboxes: create, get by id and by address, list with paging', async () => {
  const me = await client.whoami();
  assert.equal(me.agent_id, enrolled.agent_id);
  const created = [];
  for (let i = 0; i < 3; i++) created.push(await client.createInbox({ display_name: `Box ${i}` }));
  assert.equal((await client.getInbox(created[0]!.id)).id, created[0]!.id);
  assert.equal((await client.getInbox(created[1]!.address)).id, created[1]!.id);
  const seen: string[] = [];
  for await (const inbox of client.paginate((cursor) => client.listInboxes({ limit: 2, cursor }))) seen.push(inbox.id);
  for (const c of created) assert.ok(seen.includes(c.id));
  assert.equal(new Set(seen).size, seen.length, 'no inbox twice across pages');
});

test('mail in: wait, list, get, raw, attachments, search, threads, batch update', async () => {
  const inbox = await client.createInbox({ display_name: 'Reader' });
  // `since` fixed before sending: the wait may reach the server after the mail is stored.
  const since = new Date(Date.now() - 1000).toISOString();
  const waiting = client.waitForEmail(inbox.id, { subject_contains: 'verify', extract: 'code', timeout_seconds: 20, since });
  await sendMail(svc, {
    from: 'Service <noreply@service.example>',
    to: inbox.address,
    subject: 'Please verify your account',
    text: 'Your verification code is 482913.',
    attachments: [{ filename: 'note.txt', content: 'attached text' }],
  });
  const got: any = await waiting;
  assert.equal(got.code, '482913');
  const id = got.message.id;
  const list: any = await client.listMessages(inbox.id, { folder: 'INBOX' });
  assert.ok(list.data.some((m: any) => m.id === id));
  const msg: any = await client.getMessage(id, { format: 'text' });
  assert.equal(msg.subject, 'Please verify your account');
  const raw = await client.getMessageRaw(inbox.id, id);
  assert.ok(raw instanceof Uint8Array);
  assert.match(Buffer.from(raw).toString(), /Subject: Please verify your account/);
  const atts: any = await client.listAttachments(inbox.id, id);
  const att = atts.data.find((a: any) => a.filename === 'note.txt');
  assert.ok(att);
  assert.equal(Buffer.from(await client.getAttachment(inbox.id, id, att.id)).toString(), 'attached text');
  const found: any = await client.searchMessages(inbox.id, { q: 'verification' });
  assert.ok(found.data.some((m: any) => m.id === id));
  const threads: any = await client.listThreads(inbox.id);
  const thread: any = await client.getThread(inbox.id, threads.data[0].id);
  assert.equal(thread.last_message_id, id);
  const updated: any = await client.batchUpdateMessages(inbox.id, { updates: [{ id, seen: true }] });
  assert.ok(JSON.stringify(updated).includes(id));
  assert.equal(((await client.getMessage(id)) as any).seen, true);
});

test('webhooks: register, get, list, update, deliveries, redeliver, rotate, delete', async () => {
  const hits: string[] = [];
  const receiver = http.createServer((req, res) => {
    hits.push(String(req.headers['x-service-event']));
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  after(() => receiver.close());
  const inbox = await client.createInbox({ display_name: 'Hooked' });
  const hook: any = await client.registerWebhook({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, inbox: inbox.address });
  assert.match(hook.secret, /^whsec_/);
  assert.equal(((await client.getWebhook(hook.id)) as any).secret, undefined);
  assert.ok(((await client.listWebhooks()) as any).items.some((w: any) => w.id === hook.id));
  await sendMail(svc, { from: 'a@example.com', to: inbox.address, subject: 'hook me', text: 'x' });
  await waitFor(() => hits.length >= 1, 'webhook delivered');
  const deliveries: any = await client.listWebhookDeliveries(hook.id);
  const first = (deliveries.items ?? deliveries.data)[0];
  assert.ok(first);
  await client.redeliverWebhook(hook.id, first.id);
  await waitFor(() => hits.length >= 2, 'redelivered');
  const rotated: any = await client.rotateWebhookSecret(hook.id);
  assert.notEqual(rotated.secret, hook.secret);
  assert.equal(((await client.updateWebhook(hook.id, { active: false })) as any).active, false);
  assert.equal(await client.deleteWebhook(hook.id), undefined);
  await assert.rejects(client.getWebhook(hook.id), (e: any) => e instanceof AgentInboxError && e.status === 404 && e.code === 'not_found');
});

test('contacts and suppression', async () => {
  const inbox = await client.createInbox({ display_name: 'Contacts' });
  const c: any = await client.addContact({ inbox_id: inbox.id, kind: 'block', pattern: 'spam.example' });
  assert.ok(((await client.listContacts({ inbox_id: inbox.id })) as any).data.some((x: any) => x.id === c.id));
  await client.removeContact(c.id);
  await client.suppressEmail({ email: 'gone@example.com' });
  assert.equal(((await client.checkSuppression('gone@example.com')) as any).suppressed, true);
  assert.ok(((await client.listSuppressions()) as any).data.some((s: any) => s.email === 'gone@example.com'));
  await client.unsuppressEmail('gone@example.com');
  assert.equal(((await client.checkSuppression('gone@example.com')) as any).suppressed, false);
});

test('typed errors carry code, status, errors[] and the retry_with example of intent_required', async () => {
  const inbox = await client.createInbox({ display_name: 'Errors' });
  const err = await client.sendEmail(inbox.id, { to: 'dana@acme.example', subject: 'Hi', text: 'Hello' }).catch((e) => e);
  assert.ok(err instanceof AgentInboxError);
  assert.equal(err.status, 422);
  assert.equal(err.code, 'intent_required');
  assert.ok(err.errors.some((e) => e.field === 'intent.summary'));
  assert.ok(err.retryWith && typeof (err.retryWith as any).summary === 'string');
  assert.match(err.requestId ?? '', /^req_/);
});

test('a quota refusal is an AgentInboxError with code quota_exceeded and its figures', async () => {
  const free = await createTenant(svc, { plan: 'free' });
  const key = (await anonymous.redeemEnrollment({ token: free.enrollmentToken, agent_handle: 'sdk-quota' })).agent_key;
  const capped = new AgentInbox({ baseUrl: svc.url, apiKey: key });
  for (let i = 0; i < 3; i++) await capped.createInbox({});
  const err = await capped.createInbox({}).then(() => null, (e) => e);
  assert.ok(err instanceof AgentInboxError);
  assert.equal(err.status, 403);
  assert.equal(err.code, 'quota_exceeded');
  // An inbox count never resets: no next_reset_at.
  assert.deepEqual(
    err.quota,
    { reason: 'inbox_limit_exceeded', used: 3, delta: 1, limit: 3, remaining: 0, consumed: 3, reserved: 0, upgrade_required: true },
  );
  assert.equal(err.body.error, 'quota_exceeded');
});

test('the Review Loop through the SDK: send, revise, chat, restamp, cancel, feedback, events, reply and forward', async () => {
  const inbox = await client.createInbox({ display_name: 'Sales' });
  const queued: any = await client.sendEmail(inbox.id, { to: 'dana@acme.example', subject: 'Pricing', text: 'Draft one', intent: INTENT });
  assert.equal(queued.outcome, 'queued_for_review');
  const rr = queued.review_id;
  assert.match(rr, /^rr_/);
  const revised: any = await client.reviseReview(rr, { parent_revision: 1, text: 'Draft two' });
  assert.equal(revised.revision ?? revised.review?.revision, 2);
  await client.restampReview(rr, { parent_revision: 2 });
  const open = await svc.api.post(`${A}/reviews/${rr}/decision`, { action: 'open' }, tenant.consoleToken);
  assert.equal(open.status, 200, open.text);
  await client.chatReview(rr, { message: 'Is the discount fine?' });
  assert.equal(((await client.getReview(rr)) as any).state, 'chatting');
  const listed: any = await client.listReviews({ state: 'chatting' });
  assert.ok(listed.data.some((r: any) => r.id === rr));
  const stale = await client.reviseReview(rr, { parent_revision: 1, text: 'old' }).catch((e) => e);
  assert.ok(stale instanceof AgentInboxError && stale.code === 'stale');
  const approve = await svc.api.post(`${A}/reviews/${rr}/decision`, { action: 'approve' }, tenant.consoleToken);
  assert.equal(approve.status, 200, approve.text);
  await waitFor(async () => ((await client.getReview(rr)) as any).state === 'sent', 'review sent');
  assert.ok(Array.isArray(((await client.getReviewFeedback(rr)) as any).data));
  // What the service answers has the shapes the SDK's manifest publishes.
  const ajv = new Ajv({ strict: false });
  const review = await client.getReview(rr);
  assert.ok(ajv.validate(REVIEW_LOOP_MANIFEST.shapes.Review as object, review), JSON.stringify(ajv.errors));
  const drained: any = await client.listReviewEvents();
  const mine = drained.data.filter((e: any) => e.review_id === rr);
  assert.ok(mine.some((e: any) => e.type === 'review.sent'));
  await client.ackReviewEvents({ acks: [{ review_id: rr, through_seq: Math.max(...mine.map((e: any) => e.seq)) }], broadcast_ids: [] });
  const waited: any = await client.waitForReviewEvent({ timeout_seconds: 1 });
  assert.ok(!JSON.stringify(waited).includes(rr), 'acked events are not handed out again');
  const terminal = await client.cancelReview(rr, {}).catch((e) => e);
  assert.ok(terminal instanceof AgentInboxError && terminal.code === 'terminal');

  const second: any = await client.sendEmail(inbox.id, { to: 'dana@acme.example', subject: 'Withdrawn', text: 'x', intent: INTENT });
  assert.equal(((await client.cancelReview(second.review_id, { reason: 'not needed' })) as any).state ?? 'cancelled', 'cancelled');

  await sendMail(svc, { from: 'dana@acme.example', to: inbox.address, subject: 'Question', text: 'How much?' });
  const inbound: any = await client.waitForEmail(inbox.id, { from: 'dana@acme.example', timeout_seconds: 20, since: new Date(Date.now() - 60_000).toISOString() });
  const reply: any = await client.replyEmail(inbox.id, { thread_id: inbound.message.thread_id, text: 'It is 10 dollars.', intent: INTENT });
  assert.equal(reply.outcome, 'queued_for_review');
  const forward: any = await client.forwardEmail(inbox.id, inbound.message.id, { to: 'boss@acme.example', text: 'FYI', intent: INTENT });
  assert.equal(forward.outcome, 'queued_for_review');
});

test('a reviewer agent through the SDK: its queue, then open and hand back with feedback', async () => {
  // A tenant of its own, so the inboxes of the other tests keep their plan's room.
  const t = await createTenant(svc, { plan: 'enterprise' });
  const At = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;
  const composer = await t.enroll('sdk-composer');
  const inbox = (await svc.api.post('/v1/inboxes', { display_name: 'Reviewed' }, composer.agentKey)).body;
  const { agentId } = await t.enroll('sdk-reviewer');
  const issued = await svc.api.post(`${At}/agents/${agentId}/keys`, { permissions: ['review:act'] }, t.consoleToken);
  const reviewer = counted(new AgentInbox({ baseUrl: svc.url, apiKey: issued.body.key }));
  const link = await svc.api.post(`${At}/review-links`, { inbox_address: inbox.address, reviewer_agent_id: agentId, transport: 'websocket' }, t.consoleToken);
  assert.equal(link.status, 201, link.text);
  const queued = (await svc.api.post(`/v1/inboxes/${inbox.id}/send`, { to: 'dana@acme.example', text: 'Our price is 10.', intent: INTENT }, composer.agentKey)).body;

  const work: any = await reviewer.getReviewerQueue({ limit: 10 });
  assert.deepEqual(work.data.map((w: any) => [w.review_id, w.allowed_actions]), [[queued.review_id, ['open', 'approve', 'edit', 'reject']]]);
  await reviewer.decideReview(queued.review_id, { action: 'open', parent_revision: 1 });
  const back: any = await reviewer.decideReview(queued.review_id, { action: 'hand_back', feedback: 'give the currency' });
  assert.deepEqual([back.state, back.hops], ['needs_review', 1]);
  assert.equal((await svc.api.get(`/v1/reviews/${queued.review_id}`, composer.agentKey)).body.feedback, 'give the currency');
});

test('reviewEvents yields a review\'s events in order and acks each one the loop moves past', async () => {
  // An agent of its own, so no other test's events are in its queue.
  const own = await anonymous.redeemEnrollment({ token: tenant.enrollmentToken, agent_handle: 'sdk-review-events' });
  const agent = new AgentInbox({ baseUrl: svc.url, apiKey: own.agent_key });
  const inbox = await agent.createInbox({ display_name: 'Events' });
  const queued: any = await agent.sendEmail(inbox.id, { to: 'dana@acme.example', subject: 'Hi', text: 'Hello', intent: INTENT });
  const approve = await svc.api.post(`${A}/reviews/${queued.review_id}/decision`, { action: 'approve' }, tenant.consoleToken);
  assert.equal(approve.status, 200, approve.text);

  const seen: Array<{ type: string; seq: number }> = [];
  for await (const event of agent.reviewEvents({ timeoutSeconds: 10, signal: AbortSignal.timeout(30_000) })) {
    assert.equal(event.review_id, queued.review_id);
    seen.push({ type: event.type, seq: event.seq });
    if (event.type === 'review.sent') break;
  }
  assert.deepEqual(seen.map((e) => e.type), ['review.created', 'review.approved', 'review.sent']);
  assert.deepEqual(seen.map((e) => e.seq), [...seen.map((e) => e.seq)].sort((a, b) => a - b));
  // The loop left on review.sent before asking for more: that one alone is still pending.
  const pending: any = await agent.listReviewEvents();
  assert.deepEqual(pending.data.map((e: any) => e.type), ['review.sent']);
});

test('the event stream delivers live events and resumes after a reconnect without gaps or repeats', async () => {
  const inbox = await client.createInbox({ display_name: 'Streamed' });
  const ac = new AbortController();
  const got: string[] = [];
  const stream = client.events({ types: ['message.received'], signal: ac.signal, reconnectMs: 50 });
  const reading = (async () => {
    for await (const ev of stream) {
      got.push(ev.id);
      if (got.length === 3) break;
    }
  })();
  for (let i = 0; i < 3; i++) await sendMail(svc, { from: 'x@example.com', to: inbox.address, subject: `s${i}`, text: 'x' });
  await reading;
  ac.abort();
  assert.equal(new Set(got).size, 3);
  called.add('streamEvents');
  // Resume from the first: exactly the two after it, in order.
  const resumed: string[] = [];
  for await (const ev of client.events({ types: ['message.received'], lastEventId: got[0] })) {
    resumed.push(ev.id);
    if (resumed.length === 2) break;
  }
  assert.deepEqual(resumed, got.slice(1));
});

test('GET retries a 429 after Retry-After and then succeeds; a send is never retried', async () => {
  let calls = 0;
  let posts = 0;
  const flaky = http.createServer((req, res) => {
    if (req.method === 'POST') {
      posts++;
      res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '0' });
      return res.end(JSON.stringify({ type: 'x', title: 'Unavailable', status: 503, code: 'unavailable' }));
    }
    calls++;
    if (calls === 1) {
      res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1' });
      return res.end(JSON.stringify({ type: 'x', title: 'Rate limited', status: 429, code: 'rate_limited' }));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ agent_id: 'agt_x' }));
  });
  await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
  after(() => flaky.close());
  const c = new AgentInbox({ baseUrl: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`, apiKey: 'pk_agent_x_y' });
  const started = Date.now();
  assert.equal(((await c.whoami()) as any).agent_id, 'agt_x');
  assert.equal(calls, 2);
  assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
  const err = await c.sendEmail('inb_x', { to: 'a@b.example', text: 'x' } as any).catch((e) => e);
  assert.ok(err instanceof AgentInboxError && err.status === 503);
  assert.equal(posts, 1, 'a send without an idempotency key is not retried');
  await c.sendEmail('inb_x', { to: 'a@b.example', text: 'x' } as any, { idempotencyKey: 'k1' }).catch(() => {});
  assert.equal(posts, 1 + 4, 'with an idempotency key it is retried like a GET');
});

test('writing rules through the SDK: propose a rule, read the ladder and the rules version', async () => {
  const proposed: any = await client.proposeRule({ rule_text: 'Open with the customer\'s first name.' });
  assert.equal(proposed.status, 'proposed');
  assert.equal(proposed.author_kind, 'agent');
  const activated = await svc.api.post(`${A}/rules/${proposed.id}/activate`, {}, tenant.consoleToken);
  assert.equal(activated.status, 200, activated.text);
  const rules: any = await client.getRules();
  assert.ok(rules.data.some((r: any) => r.id === proposed.id));
  assert.ok(rules.rules_version >= 1);
});

test('categories through the SDK: listCategories, getCategory and getBacklogStatus; another agent\'s private category is a 404', async () => {
  const shared = await svc.api.post(`${A}/categories`, { name: 'SDK shared' }, tenant.consoleToken);
  const other = await tenant.enroll('sdk-other-agent');
  const hidden = await svc.api.post(`${A}/categories`, { name: 'Not yours', scope: 'agent_private', agent_id: other.agentId }, tenant.consoleToken);
  assert.equal(hidden.status, 201, hidden.text);
  const list: any = await client.listCategories();
  assert.ok(list.data.some((c: any) => c.id === shared.body.id));
  assert.ok(!list.data.some((c: any) => c.id === hidden.body.id));
  const one: any = await client.getCategory(shared.body.id);
  assert.deepEqual([one.name, one.rung, one.pinned], ['SDK shared', 'supervised', false]);
  const backlog: any = await client.getBacklogStatus(shared.body.id);
  assert.deepEqual([backlog.queued, backlog.current_enough, backlog.needs_redraft, backlog.staleness_tolerance], [0, 0, 0, 0]);
  const err = await client.getCategory(hidden.body.id).catch((e) => e);
  assert.ok(err instanceof AgentInboxError);
  assert.equal(err.status, 404);
});

test('self-signup: signupStatus, signUp refused while the gate is closed, then signUp and verifySignup with the mailed code', async () => {
  assert.deepEqual(await anonymous.signupStatus(), { enabled: false });
  const closed = await anonymous.signUp({ email: 'sdk-owner@people.example' }).catch((e) => e);
  assert.ok(closed instanceof AgentInboxError);
  assert.equal(closed.status, 403);
  assert.equal(closed.code, 'signup_disabled');
  await writeSignupGate(svc.services.db, true);
  const signed = await anonymous.signUp({ email: 'sdk-owner@people.example', agent_handle: 'sdk-signup' });
  const mail = await waitFor(() => relay.received.find((r) => r.to.includes('sdk-owner@people.example')), 'the code mail');
  const code = /verification code is (\d{6})/.exec(mail.mail.text ?? '')![1]!;
  const temporary = counted(new AgentInbox({ baseUrl: svc.url, apiKey: signed.temporary_key }));
  const verified = await temporary.verifySignup({ code });
  assert.equal(verified.inbox_address, signed.inbox_address);
  const me = await new AgentInbox({ baseUrl: svc.url, apiKey: verified.agent_key }).whoami();
  assert.equal(me.agent_id, signed.agent_id);
});

test('updateInbox and deleteInbox with a key holding mailbox:quota and mailbox:delete', async () => {
  const me: any = await client.whoami();
  const issued = await svc.api.post(
    `${A}/agents/${me.agent_id}/keys`,
    { permissions: ['mailbox:create', 'mailbox:read', 'mailbox:quota', 'mailbox:delete'] },
    tenant.consoleToken,
  );
  assert.equal(issued.status, 201, issued.text);
  const admin = counted(new AgentInbox({ baseUrl: svc.url, apiKey: issued.body.key }));
  // The plan's inboxes are all in use by now: the one the contacts test made is done with.
  const inbox = ((await admin.listInboxes({ limit: 100 })) as any).data.find((i: any) => i.display_name === 'Contacts');
  assert.equal(((await admin.updateInbox(inbox.id, { recipient_limit_24h: 7 })) as any).recipient_limit_24h, 7);
  await assert.rejects(
    admin.updateInbox(inbox.id, { recipient_limit_24h: -1 }),
    (e: any) => e instanceof AgentInboxError && e.status === 400 && e.errors?.[0]?.field === 'recipient_limit_24h',
  );
  assert.equal(await admin.deleteInbox(inbox.id, { idempotencyKey: `sdk-del-${inbox.id}` }), undefined);
  assert.equal(await admin.deleteInbox(inbox.id, { idempotencyKey: `sdk-del-${inbox.id}` }), undefined, 'the replay is the same 204');
  await assert.rejects(admin.getInbox(inbox.id), (e: any) => e instanceof AgentInboxError && e.status === 404);
});

test('support through the SDK: file feedback, list it, read the policy, read the case and reply to it', async () => {
  const me = await client.whoami();
  const project = me.project_id!;
  assert.equal((await client.getReportingPolicy(project)).automatic_feedback, false);
  const filed: any = await client.submitFeedback(project, {
    client_id: crypto.randomUUID(), category: 'incorrect_result', user_intent: 'Search my inbox', observed_behavior: 'No results for a known subject', outcome: 'blocked',
  });
  assert.equal(filed.repeat_count, 1);
  const caseId = filed.linked_cases[0].id;
  const list: any = await client.listFeedback(project, { limit: 25 });
  assert.equal(list.object, 'list');
  assert.ok(list.data.some((f: any) => f.id === filed.id));
  const staff = await svc.services.identity.mint!(STAFF);
  const moved = await svc.api.post(`/v1/admin/support/cases/${caseId}/updates`, { client_id: crypto.randomUUID(), body: 'Which subject?', status: 'waiting_on_customer' }, staff);
  assert.equal(moved.status, 201, moved.text);
  const got: any = await client.getSupportCase(project, caseId);
  assert.equal(got.status, 'waiting_on_customer');
  const replied: any = await client.replySupportCase(project, caseId, { client_id: crypto.randomUUID(), body: 'Quarterly numbers', sequence: got.updates.at(-1).sequence });
  assert.equal(replied.case.status, 'working');
  const again = await client.replySupportCase(project, caseId, { client_id: crypto.randomUUID(), body: 'And more', sequence: replied.update.sequence }).catch((e) => e);
  assert.ok(again instanceof AgentInboxError);
  assert.equal(again.code, 'reply_already_pending');
});

test('automatic feedback: an unexpected 5xx of a send is filed only after the org opted in, and the send is never retried', async () => {
  let sends = 0;
  // Forwards to the service, except that every send answers 503.
  const proxy = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method === 'POST' && req.url!.endsWith('/send')) {
      sends++;
      res.writeHead(503, { 'content-type': 'application/problem+json' });
      return res.end(JSON.stringify({ type: 'x', title: 'Unavailable', status: 503, code: 'unavailable', detail: 'forced failure' }));
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => ['authorization', 'content-type', 'accept'].includes(k))) as Record<string, string>;
    const upstream = await fetch(svc.url + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  after(() => proxy.close());
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const project = (await client.whoami()).project_id!;
  const automatic = async () => (await client.listFeedback(project, { limit: 100 })).data.filter((f: any) => f.evidence.submission_mode === 'automatic');
  const listed: any = await client.listInboxes({ limit: 1 });
  const inbox = (listed.data ?? listed.items)[0];

  const before = new AgentInbox({ baseUrl: base, apiKey: enrolled.agent_key, automaticFeedback: true });
  const first = await before.sendEmail(inbox.id, { to: 'a@b.example', subject: 's', text: 'x', intent: INTENT }).catch((e) => e);
  assert.ok(first instanceof AgentInboxError && first.status === 503);
  await before.flushFeedback();
  assert.equal(sends, 1);
  assert.deepEqual(await automatic(), [], 'nothing filed without the opt-in');

  const on = await svc.api.request('PUT', `/v1/admin/orgs/${tenant.orgId}/support-settings`, { body: { automatic_feedback: true }, token: tenant.consoleToken });
  assert.equal(on.status, 200, on.text);
  const opted = new AgentInbox({ baseUrl: base, apiKey: enrolled.agent_key, automaticFeedback: true });
  const second = await opted.sendEmail(inbox.id, { to: 'a@b.example', subject: 's', text: 'x', intent: INTENT }).catch((e) => e);
  assert.ok(second instanceof AgentInboxError && second.status === 503 && second.code === 'unavailable');
  await opted.flushFeedback();
  assert.equal(sends, 2, 'the failed send was not retried because of the report');
  const filed = await automatic();
  assert.equal(filed.length, 1);
  const evidence: any = filed[0]!.evidence;
  assert.equal(evidence.category, 'unexpected_error');
  assert.deepEqual(evidence.attempts[0], { operation: 'sendEmail', http_status: 503, error_code: 'unavailable' });
  assert.equal(evidence.client_versions.sdk, CONTRACT_VERSION);
});

test('streamReviewerWork: a key without review:act is refused 403 before any stream opens', async () => {
  await assert.rejects(
    client.streamReviewerWork(),
    (e: any) => e instanceof AgentInboxError && e.status === 403 && e.code === 'forbidden_scope',
  );
});

test('custom domains through the SDK: onboard, list, get, verify, offboard; a purchase request is not_configured', async () => {
  const key = await svc.api.post(`${A}/agents/${enrolled.agent_id}/keys`, { permissions: ['domain:manage', 'commerce:request'] }, tenant.consoleToken);
  assert.equal(key.status, 201, key.text);
  const domains = counted(new AgentInbox({ baseUrl: svc.url, apiKey: key.body.key }));
  const created: any = await domains.createDomain({ domain: 'sdk.example.org' });
  assert.equal(created.status, 'pending');
  assert.deepEqual(created.records.map((r: any) => r.kind), ['ownership', 'mx', 'spf', 'dkim', 'dmarc']);
  assert.deepEqual((await domains.listDomains()).items.map((d: any) => d.domain), ['sdk.example.org']);
  assert.equal((await domains.getDomain(created.id)).domain, 'sdk.example.org');
  // The test service's DNS_SERVERS answers nothing: every record is temperror and the domain stays pending.
  const checked: any = await domains.verifyDomain('sdk.example.org');
  assert.equal(checked.status, 'pending');
  const buy = await domains.requestDomainPurchase({ domain: 'new.example.org' }).catch((e) => e);
  assert.ok(buy instanceof AgentInboxError);
  assert.equal(buy.status, 503);
  assert.equal(buy.code, 'not_configured');
  await domains.deleteDomain('sdk.example.org', { delete_inboxes: false });
  assert.deepEqual((await domains.listDomains()).items, []);
});

test('every generated method was exercised against the service', () => {
  const all = Object.keys(OPERATIONS) as OperationId[];
  assert.deepEqual(all.filter((id) => !called.has(id)), []);
});

