// Delivery faults against a real relay on loopback: a refusal, a temporary refusal, a connection
// lost after DATA, and a worker process killed mid-delivery. Whatever happens, a message reaches
// the relay at most once.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { after, test } from '../../testkit/test.ts';
import { deliverReview, reconcileDelivery, sweepDeliveries } from '../../actors/delivery.ts';
import { createTenant, startTestService, type TestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay, type Relay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, type Agent } from './setup.ts';

const run = promisify(execFile);
const relays: Relay[] = [];
after(async () => {
  for (const r of relays) {
    r.release();
    await r.close();
  }
});
async function relayIn(mode: Parameters<typeof startRelay>[0]) {
  const r = await startRelay(mode);
  relays.push(r);
  return r;
}

const depsOf = (svc: TestService) => ({ db: svc.services.db, queue: svc.services.queue, config: svc.config, log: svc.services.log });

async function approved(agent: Agent, to = 'dana@acme.example'): Promise<string> {
  const r = await agent.send({ to, subject: 'Quote', text: 'Our quote is attached.', intent: INTENT });
  assert.equal(r.status, 202);
  const d = await agent.decide(r.body.review_id, { action: 'approve' });
  assert.equal(d.status, 200);
  return r.body.review_id;
}

test('a relay that refuses the message fails the review; only the composer\'s cancel closes it', async () => {
  const relay = await relayIn('refuse');
  const svc = await startTestService({ env: { SMTP_URL: relay.url } });
  const agent = await agentWithInbox(svc, await createTenant(svc));
  const id = await approved(agent);
  const failed = await agent.until(id, 'failed');
  assert.match(failed.last_error, /550/);
  assert.deepEqual(failed.allowed_actions, ['cancel']);

  const events = await agent.drain(`?review_id=${id}`);
  assert.deepEqual(events.map((e) => e.type), ['review.created', 'review.approved', 'review.failed']);

  const human = await agent.decide(id, { action: 'cancel' });
  assert.equal(human.status, 409);
  assert.equal(human.body.code, 'wrong_state');
  assert.deepEqual(human.body.errors.filter((e: any) => e.field === 'allowed_action'), [], 'nothing is left to the human');
  const reapprove = await agent.decide(id, { action: 'approve' });
  assert.equal(reapprove.status, 409);
  assert.equal(reapprove.body.code, 'wrong_state');

  const cancelled = await svc.api.post(`/v1/reviews/${id}/cancel`, { reason: 'giving up' }, agent.key);
  assert.equal(cancelled.status, 200);
  assert.equal(cancelled.body.state, 'cancelled');
  assert.equal(cancelled.body.cancelled_by, 'composer');
  assert.equal(relay.received.length, 0);
  const more = await agent.drain(`?review_id=${id}`);
  assert.equal(more.at(-1).type, 'review.cancelled');
  assert.equal(more.at(-1).from_state, 'failed');
});

test('a temporary refusal (4xx) is retried by the queue and the message goes out once', async () => {
  const relay = await relayIn('defer-once');
  const svc = await startTestService({ env: { SMTP_URL: relay.url } });
  const agent = await agentWithInbox(svc, await createTenant(svc));
  const id = await approved(agent);
  await agent.until(id, 'sent', 20_000);
  assert.equal(relay.received.length, 1);
  const { rows } = await svc.services.db.query('SELECT phase, tries FROM review_deliveries WHERE review_id = $1', [id]);
  assert.deepEqual(rows, [{ phase: 'sent', tries: 2 }]);
});

test('a connection dropped after DATA parks the review for reconciliation, listed by reconcile --list, counted in /metrics and on the console, and it is never sent again', async () => {
  const relay = await relayIn('drop-after-data');
  const svc = await startTestService({ env: { SMTP_URL: relay.url } });
  const agent = await agentWithInbox(svc, await createTenant(svc));
  const id = await approved(agent);
  const parked = await waitFor(async () => {
    const r = await agent.review(id);
    return r.body.send_needs_reconciliation ? r.body : null;
  }, 'the review to be parked');
  assert.equal(parked.state, 'approved');
  assert.deepEqual(parked.allowed_actions, []);
  assert.equal(relay.received.length, 1);

  const verb = await svc.api.post(`/v1/reviews/${id}/cancel`, {}, agent.key);
  assert.equal(verb.status, 409);
  assert.equal(verb.body.code, 'send_needs_reconciliation');
  assert.deepEqual(verb.body.errors.map((e: any) => e.field), ['state', 'revision', 'version']);
  assert.equal(verb.body.errors[0].code, 'approved');

  // Retried jobs and the sweep never resend it.
  relay.mode = 'accept';
  await deliverReview(depsOf(svc), { org_id: await orgOf(svc, id), review_id: id });
  assert.equal(await sweepDeliveries(depsOf(svc), 0), 0);
  assert.equal(relay.received.length, 1);
  assert.equal((await agent.review(id)).body.state, 'approved');

  // It does not wait silently: the operator's list names it, /metrics counts it, and the console's
  // list of parked sends (the notice the humans see) has it.
  const listed = JSON.parse((await cli(svc, 'reconcile', '--list', '--json')).stdout);
  assert.deepEqual(listed.map((r: any) => [r.id, r.state, r.to]), [[id, 'approved', ['dana@acme.example']]]);
  assert.match((await cli(svc, 'reconcile', '--list')).stdout, new RegExp(`${id}.*dana@acme\\.example.*Quote`));
  const metrics = await svc.api.get('/metrics');
  assert.match(metrics.text, /^agent_inbox_deliveries_awaiting_reconciliation 1$/m);
  const onConsole = await svc.api.get(`${agent.A}/reviews?needs_reconciliation=true`, agent.console);
  assert.equal(onConsole.status, 200, onConsole.text);
  assert.deepEqual(onConsole.body.data.map((r: any) => [r.id, r.send_needs_reconciliation]), [[id, true]]);

  // An operator who found the Message-ID in the relay's log reconciles it.
  const done = await reconcileDelivery(depsOf(svc), { review_id: id, outcome: 'delivered', reason: 'found in relay log' });
  assert.equal(done.message_id, `<${id}.1@agents.test>`);
  const sent = await agent.until(id, 'sent');
  assert.equal(sent.send_needs_reconciliation, false);
  assert.match(sent.sent_message_id, /^msg_/);
  assert.equal(relay.received.length, 1);
  assert.match((await cli(svc, 'reconcile', '--list')).stdout, /no sends await reconciliation/);
  assert.match((await svc.api.get('/metrics')).text, /^agent_inbox_deliveries_awaiting_reconciliation 0$/m);
  assert.deepEqual((await svc.api.get(`${agent.A}/reviews?needs_reconciliation=true`, agent.console)).body.data, []);
});

/** The operator's command line on the service's database. */
function cli(svc: TestService, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', ...args], {
    env: { ...process.env, DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, INBOX_DOMAIN: 'agents.test', LOG_LEVEL: 'silent' },
  });
}

async function orgOf(svc: TestService, id: string): Promise<string> {
  return (await svc.services.db.query(`SELECT org_id FROM machine_instances WHERE id = $1`, [id])).rows[0].org_id;
}

function startWorkerProcess(svc: TestService, smtpUrl: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'start', '--role', 'worker'], {
    env: { ...process.env, DATABASE_URL: svc.databaseUrl, SMTP_URL: smtpUrl, DATA_DIR: svc.config.dataDir, INBOX_DOMAIN: 'agents.test', LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

for (const stage of ['hold-greeting', 'hold-data'] as const) {
  const when = stage === 'hold-greeting' ? 'before the message was handed over' : 'after the relay had the whole message';
  test(`a worker killed mid-delivery (${when}) and restarted leaves exactly one mail at the relay`, async () => {
    const relay = await relayIn(stage);
    const svc = await startTestService({ roles: ['api'], env: { SMTP_URL: relay.url } });
    const agent = await agentWithInbox(svc, await createTenant(svc));
    const id = await approved(agent);

    const child = startWorkerProcess(svc, relay.url);
    try {
      await relay.held;
      child.kill('SIGKILL');
      await exited(child);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    relay.mode = 'accept';
    relay.release();

    const restarted = await startTestService({ roles: ['worker'], databaseUrl: svc.databaseUrl, env: { SMTP_URL: relay.url } });
    // The dead worker's job stays taken until it expires; the sweep hands the review to this one.
    const settled = await waitFor(async () => {
      await sweepDeliveries(depsOf(restarted), 0);
      const r = (await agent.review(id)).body;
      return r.state === 'sent' || r.send_needs_reconciliation ? r : null;
    }, 'the restarted worker to settle the delivery', 20_000);

    // Once stopped, no job of the restarted worker holds the review: a further delivery attempt
    // (as a retried job would make) must find it settled and leave the relay alone.
    await restarted.stop();
    await deliverReview(depsOf(svc), { org_id: await orgOf(svc, id), review_id: id });
    const atRelay = relay.received.filter((m) => m.mail.messageId === `<${id}.1@agents.test>`);
    assert.equal(atRelay.length, 1, 'exactly one mail at the relay');
    if (stage === 'hold-greeting') {
      assert.equal(settled.state, 'sent', 'nothing was handed over, so the restarted worker sent it');
    } else {
      assert.equal(settled.state, 'approved');
      assert.equal(settled.send_needs_reconciliation, true, 'the relay may have taken it, so it is parked, never resent');
    }
  });
}
