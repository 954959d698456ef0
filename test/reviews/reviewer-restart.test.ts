// Reviewer work survives the death of the service: a process running every role is killed
// (SIGKILL) while a webhook push waits for its retry, an escalation timer is armed and an SSE
// item is logged but not yet read; a new process on the same database finishes each of them
// exactly once. Setup and console calls go through a second, API-only service in this process.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { sleep, spawnService, type ServiceProcess } from '../../testkit/drills.ts';
import { openStream } from '../../testkit/sse-client.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { linkReviewer, reviewerAgent, SECRET, workReceiver } from './reviewer-setup.ts';
import { INTENT, agentWithInbox } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const db = svc.services.db;
const env = {
  DATABASE_URL: svc.databaseUrl,
  DATA_DIR: svc.config.dataDir,
  INBOX_DOMAIN: svc.config.inboxDomain,
  SMTP_URL: relay.url,
  WEBHOOK_RETRY_SCHEDULE: '5',
  SSE_HEARTBEAT_SECONDS: '1',
};
const processes: ServiceProcess[] = [];
after(async () => {
  for (const p of processes) await p.stop();
});
const spawn = async () => {
  const p = await spawnService(env);
  processes.push(p);
  return p;
};
const draft = (subject: string) => ({ to: 'Dana <dana@acme.example>', subject, text: 'Tuesday 10:00 works for us.', intent: INTENT });
const mailsWith = (subject: string) => relay.received.filter((m) => m.mail.subject === subject);
const transitions = async (id: string, type: string) =>
  (await db.query(`SELECT 1 FROM machine_transitions WHERE kind = 'review' AND id = $1 AND event->>'type' = $2`, [id, type])).rowCount;

test('killed with a push awaiting its retry, an armed escalation and an unread SSE item, a restarted service completes each exactly once', async () => {
  const first = await spawn();

  // A webhook reviewer whose endpoint refuses the first push: the retry waits 5 s.
  const hooked = await agentWithInbox(svc, tenant);
  const hookReviewer = await reviewerAgent(svc, tenant);
  const receiver = await workReceiver();
  receiver.respond((i) => (i === 0 ? 503 : 200));
  await linkReviewer(svc, tenant, { inbox_address: hooked.address, reviewer_agent_id: hookReviewer.agentId, webhook_url: receiver.url, hmac_secret: SECRET });
  // A reviewer that stays silent: escalation to the human after 5 s.
  const silentInbox = await agentWithInbox(svc, tenant);
  const silent = await reviewerAgent(svc, tenant);
  await linkReviewer(svc, tenant, { inbox_address: silentInbox.address, reviewer_agent_id: silent.agentId, transport: 'sse', escalate_after_s: 5 });
  // An SSE reviewer that is not connected when its work arrives.
  const streamed = await agentWithInbox(svc, tenant);
  const sseReviewer = await reviewerAgent(svc, tenant);
  await linkReviewer(svc, tenant, { inbox_address: streamed.address, reviewer_agent_id: sseReviewer.agentId, transport: 'sse' });

  const pushedId = (await hooked.send(draft('restart push'))).body.review_id;
  const escalatedId = (await silentInbox.send(draft('restart escalation'))).body.review_id;
  const streamedId = (await streamed.send(draft('restart stream'))).body.review_id;
  await waitFor(() => receiver.requests.length >= 1, 'the first, refused push', 15_000);
  // Killed only once the refusal is recorded (the second attempt queued): killed before that, the
  // first attempt's job would wait for its 60 s expiry instead, which is another drill.
  await waitFor(async () => (await db.query(
    `SELECT 1 FROM pgboss.job WHERE name = 'reviewer-push' AND state = 'created' AND (data->>'attempt')::int = 2`,
  )).rowCount === 1, 'the second attempt to be queued', 15_000);
  const armed = await db.query(`SELECT name FROM pgboss.job WHERE data->>'review_id' = $1 AND name = 'review-escalation' AND state = 'created'`, [escalatedId]);
  assert.equal(armed.rowCount, 1, 'the escalation timer is armed');

  const killedAt = Date.now();
  first.child.kill('SIGKILL');
  assert.equal((await first.exited).signal, 'SIGKILL');
  assert.equal(receiver.requests.length, 1, 'the retry was still waiting when the service died');
  assert.equal(await transitions(escalatedId, 'escalate'), 0, 'the escalation was still armed when the service died');
  // Both timers fall due while no worker runs.
  await sleep(Math.max(0, killedAt + 5_500 - Date.now()));
  assert.equal(receiver.requests.length, 1);
  assert.equal(await transitions(escalatedId, 'escalate'), 0);

  const second = await spawn();
  // The push is retried and delivered once; the reviewer approves; one mail.
  await waitFor(() => receiver.requests.length >= 2, 'the retried push', 15_000);
  const work = JSON.parse(receiver.requests[1]!.raw.toString('utf8'));
  assert.deepEqual([work.review_id, work.reason], [pushedId, 'created']);
  assert.equal((await hookReviewer.decide(pushedId, { action: 'approve', parent_revision: 1 })).status, 200);
  await hooked.until(pushedId, 'sent', 15_000);

  // The escalation fires once: the review is the human's now.
  await waitFor(async () => (await silentInbox.review(escalatedId)).body.route === 'human', 'the escalation', 15_000);
  const approved = await silentInbox.decide(escalatedId, { action: 'approve' });
  assert.equal(approved.status, 200, approved.text);
  await silentInbox.until(escalatedId, 'sent', 15_000);

  // The SSE reviewer connects to the new process and finds its item waiting.
  const stream = await openStream(second.url, '/v1/reviewer/stream', { token: sseReviewer.key });
  after(() => stream.close());
  const [ev] = await stream.waitForEvents(1);
  assert.equal(JSON.parse(ev!.data).review_id, streamedId);
  assert.equal((await second.api.post(`/v1/reviews/${streamedId}/decision`, { action: 'approve', parent_revision: 1 }, sseReviewer.key)).status, 200);
  await streamed.until(streamedId, 'sent', 15_000);

  // Settle, then count: nothing happened twice.
  await stream.waitForComment(/^heartbeat$/, 5_000);
  await sleep(1_500);
  assert.equal(stream.events.length, 1);
  assert.equal((await receiver.verified()).filter((w) => w.review_id === pushedId).length, 2, 'the refused push and its one retry');
  assert.equal(receiver.requests.length, 2);
  const attempts = await db.query(`SELECT status, attempts FROM review_link_deliveries WHERE review_id = $1`, [pushedId]);
  assert.deepEqual(attempts.rows, [{ status: 'succeeded', attempts: 2 }]);
  assert.equal(await transitions(escalatedId, 'escalate'), 1);
  assert.equal(mailsWith('restart push').length, 1);
  assert.equal(mailsWith('restart escalation').length, 1);
  assert.equal(mailsWith('restart stream').length, 1);
});
