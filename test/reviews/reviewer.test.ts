// Reviewer agents through real HTTP, the real workers, a real webhook receiver checking signatures
// and a real SMTP relay: review links on the console, routing, the reviewer's decisions and queue,
// webhook pushes, and the timers (hops, escalation, deadline) at second scale.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { linkReviewer, reviewerAgent, SECRET, workReceiver } from './reviewer-setup.ts';
import { INTENT, agentWithInbox } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({
  env: { SMTP_URL: relay.url, WEBHOOK_RETRY_SCHEDULE: '1', REVIEW_LINK_UNHEALTHY_AFTER: '2' },
});
const tenant = await createTenant(svc, { plan: 'enterprise' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const draft = { to: 'Dana <dana@acme.example>', subject: 'Tuesday demo', text: 'Tuesday 10:00 works for us.', intent: INTENT };
const db = svc.services.db;

const transitionsOf = async (id: string) =>
  (await db.query(`SELECT event->>'type' AS type FROM machine_transitions WHERE kind = 'review' AND id = $1 ORDER BY version`, [id])).rows.map((r) => r.type);

test('a linked reviewer agent gets the signed work item, opens and edits; the relay receives the edited mail exactly once', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const receiver = await workReceiver();
  const link = await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, webhook_url: receiver.url, hmac_secret: SECRET });
  assert.equal(link.status, 201, link.text);
  assert.match(link.body.id, /^rvl_/);
  assert.deepEqual(
    { ...link.body, id: undefined, created_at: undefined, updated_at: undefined },
    {
      id: undefined,
      inbox_address: agent.address,
      reviewer_agent_id: reviewer.agentId,
      transport: 'webhook',
      webhook_url: receiver.url,
      has_secret: true,
      escalate_after_s: 300,
      max_hops: 3,
      review_deadline_s: 86400,
      active: true,
      consec_failures: 0,
      created_at: undefined,
      updated_at: undefined,
    },
  );
  const sealed = (await db.query('SELECT secret_sealed FROM review_links WHERE id = $1', [link.body.id])).rows[0].secret_sealed as Buffer;
  assert.equal(sealed.includes(Buffer.from(SECRET)), false, 'the secret is stored encrypted');

  const sent = await agent.send(draft);
  assert.equal(sent.status, 202, sent.text);
  const id = sent.body.review_id;
  assert.equal(sent.body.review.route, 'reviewer_agent');
  assert.equal(sent.body.review.reviewer_agent_id, reviewer.agentId);

  const work = await receiver.next(id, 'created');
  assert.equal(work.object, 'reviewer_work');
  assert.deepEqual(work.draft.to, [{ name: 'Dana', email: 'dana@acme.example' }]);
  assert.deepEqual(work.intent, INTENT);
  assert.equal(work.rules_version, 0);
  assert.deepEqual(work.feedback, []);
  assert.deepEqual(work.thread, []);
  assert.deepEqual(work.allowed_actions, ['open', 'approve', 'edit', 'reject']);
  assert.equal(receiver.requests[0]!.headers['x-service-event'], 'reviewer.work');

  const queued = await reviewer.queue();
  assert.equal(queued.status, 200);
  assert.deepEqual(queued.body.data.map((w: any) => w.review_id), [id]);

  const opened = await reviewer.decide(id, { action: 'open' });
  assert.equal(opened.status, 200, opened.text);
  assert.equal(opened.body.state, 'in_review');
  assert.deepEqual(opened.body.allowed_actions, ['approve', 'edit', 'reject', 'chat', 'hand_back']);
  const edited = await reviewer.decide(id, { action: 'edit', parent_revision: 1, text: 'Tuesday 10:00 works. See you then!', feedback: 'warmer close' });
  assert.equal(edited.status, 200, edited.text);
  assert.equal(edited.body.state, 'edited');

  await agent.until(id, 'sent');
  const mails = relay.received.filter((m) => m.mail.subject === 'Tuesday demo' && m.mail.from?.value[0]?.address === agent.address);
  assert.equal(mails.length, 1);
  assert.equal(mails[0]!.mail.text?.trim(), 'Tuesday 10:00 works. See you then!');
  const feedback = await agent.api.get(`/v1/reviews/${id}/feedback`, agent.key);
  assert.deepEqual(feedback.body.data.map((f: any) => [f.kind, f.author, f.feedback]), [['edit', 'reviewer_agent', 'warmer close']]);
  assert.deepEqual((await reviewer.queue()).body.data, [], 'a decided review leaves the queue');
  // Only the creation was pushed: nothing else was routed to the reviewer.
  assert.equal((await receiver.verified()).length, 1);
  assert.equal(receiver.requests.length, 1);
});

test('one link per scope (409 scope_taken); the composer is refused as its own reviewer; the reviewer needs review:act; bad targets are 400', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const receiver = await workReceiver();
  const base = { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, webhook_url: receiver.url, hmac_secret: SECRET };
  const first = await linkReviewer(svc, tenant, base);
  assert.equal(first.status, 201);
  const again = await linkReviewer(svc, tenant, { ...base, transport: 'sse', webhook_url: undefined });
  assert.equal(again.status, 409);
  assert.equal(again.body.code, 'scope_taken');
  assert.equal(again.body.errors[0].field, 'inbox_address');

  const other = await agentWithInbox(svc, tenant);
  const own = await linkReviewer(svc, tenant, { ...base, inbox_address: other.address, reviewer_agent_id: other.agentId });
  assert.equal(own.status, 400);
  assert.equal(own.body.errors[0].field, 'reviewer_agent_id');

  const plain = await tenant.enroll();
  const noPermission = await linkReviewer(svc, tenant, { ...base, inbox_address: other.address, reviewer_agent_id: plain.agentId });
  assert.equal(noPermission.status, 400);
  assert.equal(noPermission.body.errors[0].code, 'missing_permission');

  const ftp = await linkReviewer(svc, tenant, { ...base, inbox_address: other.address, webhook_url: 'ftp://example.com/hook' });
  assert.equal(ftp.status, 400);
  assert.equal(ftp.body.errors[0].field, 'webhook_url');
  const noSecret = await linkReviewer(svc, tenant, { ...base, inbox_address: other.address, hmac_secret: undefined });
  assert.equal(noSecret.status, 400);
  assert.equal(noSecret.body.errors[0].field, 'hmac_secret');
  assert.equal((await db.query('SELECT count(*)::int AS n FROM review_links WHERE inbox_id = $1', [other.inboxId])).rows[0].n, 0);

  const listed = await svc.api.get(`${A}/review-links`, tenant.consoleToken);
  assert.equal(listed.status, 200);
  const mine = listed.body.data.find((l: any) => l.id === first.body.id);
  assert.equal(mine.has_secret, true);
  assert.equal('hmac_secret' in mine, false);

  const patched = await svc.api.patch(`${A}/review-links/${first.body.id}`, { max_hops: 5, active: false }, tenant.consoleToken);
  assert.equal(patched.status, 200);
  assert.equal(patched.body.max_hops, 5);
  assert.equal(patched.body.active, false);
  const inactive = await agent.send(draft);
  assert.equal(inactive.body.review.route, 'human', 'an inactive link routes nothing');

  const removed = await svc.api.del(`${A}/review-links/${first.body.id}`, tenant.consoleToken);
  assert.equal(removed.status, 204);
  assert.equal((await svc.api.del(`${A}/review-links/${first.body.id}`, tenant.consoleToken)).status, 404);
});

test('a reviewer acting on a review not routed to it is 404; humans decide whatever the route', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const stranger = await reviewerAgent(svc, tenant);
  const linked = await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, transport: 'websocket' });
  assert.equal(linked.status, 201, linked.text);
  assert.equal(linked.body.has_secret, false);
  const id = (await agent.send(draft)).body.review_id;

  const foreign = await stranger.decide(id, { action: 'open' });
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.code, 'not_found');
  assert.deepEqual((await stranger.queue()).body.data, []);
  const composerKey = await svc.api.post(`/v1/reviews/${id}/decision`, { action: 'approve' }, agent.key);
  assert.equal(composerKey.status, 403, 'the composer key lacks review:act');
  assert.equal(composerKey.body.code, 'forbidden_scope');

  // Kept in the queue for a reviewer on a live transport.
  assert.deepEqual((await reviewer.queue()).body.data.map((w: any) => w.review_id), [id]);
  const human = await agent.decide(id, { action: 'reject', feedback: 'not this week' });
  assert.equal(human.status, 200);
  assert.equal(human.body.state, 'rejected');
  assert.equal((await reviewer.decide(id, { action: 'approve' })).status, 409, 'a decided review answers with its state');
});

test('each hand_back is a hop; at max_hops the review goes to the human and the reviewer no longer reaches it', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const receiver = await workReceiver();
  await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, webhook_url: receiver.url, hmac_secret: SECRET, max_hops: 2 });
  const id = (await agent.send(draft)).body.review_id;

  assert.equal((await reviewer.decide(id, { action: 'open' })).status, 200);
  const first = await reviewer.decide(id, { action: 'hand_back', feedback: 'name the time zone' });
  assert.equal(first.status, 200, first.text);
  assert.deepEqual([first.body.state, first.body.route, first.body.hops], ['needs_review', 'reviewer_agent', 1]);
  const back = await receiver.next(id, 'handed_back');
  assert.deepEqual(back.feedback.map((f: any) => [f.kind, f.feedback]), [['hand_back', 'name the time zone']]);

  assert.equal((await reviewer.decide(id, { action: 'open' })).status, 200);
  const second = await reviewer.decide(id, { action: 'hand_back', feedback: 'still unclear' });
  assert.deepEqual([second.body.state, second.body.route, second.body.hops, second.body.reviewer_agent_id], ['needs_review', 'human', 2, null]);
  assert.equal((await reviewer.decide(id, { action: 'open' })).status, 404);
  assert.deepEqual((await reviewer.queue()).body.data, []);

  // A revision comes back to needs_review, but the hops are used up: it stays with the human.
  const revised = await agent.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'Tuesday 10:00 CET works.' }, agent.key);
  assert.equal(revised.status, 200, revised.text);
  assert.equal(revised.body.route, 'human');
  const approved = await agent.decide(id, { action: 'approve' });
  assert.equal(approved.status, 200);
  await agent.until(id, 'sent');
});

test('a revision is routed anew: after the human takes over on escalation, the redraft goes back to the reviewer', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, transport: 'sse', escalate_after_s: 1 });
  const id = (await agent.send(draft)).body.review_id;
  const escalated = await waitFor(async () => {
    const r = await agent.review(id);
    return r.body.route === 'human' ? r.body : null;
  }, 'escalation to the human');
  assert.equal(escalated.state, 'needs_review');
  const events = await agent.drain(`?review_id=${id}`);
  assert.deepEqual(events.map((e: any) => e.type), ['review.created', 'review.needs_review']);
  assert.equal((await reviewer.decide(id, { action: 'open' })).status, 404);

  const revised = await agent.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'Tuesday 11:00 works.' }, agent.key);
  assert.equal(revised.status, 200);
  assert.equal(revised.body.route, 'reviewer_agent');
  assert.equal((await reviewer.decide(id, { action: 'approve', parent_revision: 2 })).status, 200);
  await agent.until(id, 'sent');
});

test('review_deadline_s past creation cancels the review with deadline_exceeded', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, transport: 'sse', review_deadline_s: 1 });
  const sent = await agent.send(draft);
  assert.ok(sent.body.review.deadline_at);
  const cancelled = await agent.until(sent.body.review_id, 'cancelled');
  assert.equal(cancelled.cancel_reason, 'deadline_exceeded');
  assert.equal(cancelled.cancelled_by, 'deadline');
});

test('a stale timer does nothing: an escalation due after the review was decided leaves it as it is', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, transport: 'sse', escalate_after_s: 1, review_deadline_s: 2 });
  const id = (await agent.send(draft)).body.review_id;
  assert.equal((await reviewer.decide(id, { action: 'approve' })).status, 200);
  await agent.until(id, 'sent');
  // Wait until both timers have run (completed: refused by the machine and dropped).
  await waitFor(async () => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name IN ('review-escalation', 'review-deadline') AND data->>'review_id' = $1 AND state = 'completed'`,
      [id],
    );
    return rows[0].n === 2;
  }, 'both timers to run', 15_000);
  const review = (await agent.review(id)).body;
  assert.equal(review.state, 'sent');
  assert.equal(review.route, 'reviewer_agent');
  assert.deepEqual(await transitionsOf(id), ['submit', 'approve', 'delivered']);
});

test('an unhealthy link is skipped by routing, and recovers when its reviewer calls in', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const receiver = await workReceiver();
  receiver.respond(500);
  const link = await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, webhook_url: receiver.url, hmac_secret: SECRET });
  const first = (await agent.send(draft)).body;
  assert.equal(first.review.route, 'reviewer_agent');
  // Two attempts (the schedule has one retry), both refused: two failures in a row.
  await waitFor(async () => {
    const { rows } = await db.query(`SELECT status, attempts FROM review_link_deliveries WHERE link_id = $1`, [link.body.id]);
    return rows[0]?.status === 'failed' ? rows[0] : null;
  }, 'the push to give up');
  const attempts = await db.query(
    `SELECT a.attempt, a.status_code FROM review_link_attempts a JOIN review_link_deliveries d ON d.org_id = a.org_id AND d.id = a.delivery_id
      WHERE d.link_id = $1 ORDER BY a.attempt`,
    [link.body.id],
  );
  assert.deepEqual(attempts.rows.map((r) => [r.attempt, r.status_code]), [[1, 500], [2, 500]]);
  const shown = await svc.api.get(`${A}/review-links`, tenant.consoleToken);
  assert.equal(shown.body.data.find((l: any) => l.id === link.body.id).consec_failures, 2);

  const skipped = (await agent.send(draft)).body;
  assert.equal(skipped.review.route, 'human');

  receiver.respond(200);
  assert.deepEqual((await reviewer.queue()).body.data.map((w: any) => w.review_id), [first.review_id]);
  const recovered = (await agent.send(draft)).body;
  assert.equal(recovered.review.route, 'reviewer_agent');
  await receiver.next(recovered.review_id, 'created');
});

test('a refused push is retried on the webhook schedule; the success clears the link\'s failure count', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const receiver = await workReceiver();
  receiver.respond((index) => (index === 0 ? 503 : 200));
  const link = await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, webhook_url: receiver.url, hmac_secret: SECRET });
  const id = (await agent.send(draft)).body.review_id;
  await receiver.next(id, 'created');
  const delivery = await waitFor(async () => {
    const { rows } = await db.query(`SELECT id, status, attempts FROM review_link_deliveries WHERE link_id = $1`, [link.body.id]);
    return rows[0]?.status === 'succeeded' ? rows[0] : null;
  }, 'the retried push to succeed');
  assert.equal(delivery.attempts, 2);
  const attempts = await db.query('SELECT attempt, status_code FROM review_link_attempts WHERE delivery_id = $1 ORDER BY attempt', [delivery.id]);
  assert.deepEqual(attempts.rows.map((r) => [r.attempt, r.status_code]), [[1, 503], [2, 200]]);
  assert.equal(receiver.requests.length, 2);
  const shown = await svc.api.get(`${A}/review-links`, tenant.consoleToken);
  assert.equal(shown.body.data.find((l: any) => l.id === link.body.id).consec_failures, 0);
});

test('the reviewer\'s allowed_actions never lie: in each state a listed verb is taken and an unlisted one is 409', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, transport: 'websocket' });
  const reach: Record<string, Array<Record<string, unknown>>> = {
    needs_review: [],
    in_review: [{ action: 'open' }],
    chatting: [{ action: 'open' }, { action: 'chat', message: 'Which time zone?' }],
  };
  const bodies: Record<string, Record<string, unknown>> = {
    open: { action: 'open' },
    approve: { action: 'approve' },
    edit: { action: 'edit', text: 'Edited.' },
    reject: { action: 'reject', feedback: 'no' },
    chat: { action: 'chat', message: 'A question.' },
    hand_back: { action: 'hand_back', feedback: 'redo' },
  };
  for (const [state, steps] of Object.entries(reach)) {
    for (const [verb, body] of Object.entries(bodies)) {
      const id = (await agent.send(draft)).body.review_id;
      for (const step of steps) assert.equal((await reviewer.decide(id, step)).status, 200);
      const before = (await reviewer.queue()).body.data.find((w: any) => w.review_id === id);
      assert.equal(before.review.state, state);
      const r = await reviewer.decide(id, { ...body, parent_revision: 1 });
      if (before.allowed_actions.includes(verb)) assert.equal(r.status, 200, `${verb} in ${state}: ${r.text}`);
      else {
        assert.equal(r.status, 409, `${verb} in ${state}`);
        assert.deepEqual(r.body.errors.filter((e: any) => e.field === 'allowed_action').map((e: any) => e.code), before.allowed_actions);
      }
      await agent.api.post(`/v1/reviews/${id}/cancel`, {}, agent.key);
    }
  }
});
