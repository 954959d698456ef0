// Operators' commands: a review's snapshot, the machines' diagrams, the local outbox.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import { test } from '../../testkit/test.ts';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { toMermaid } from '../../machines/mermaid.ts';
import { reviewRequestMachine } from '../../machines/review-request.ts';
import { ruleMachine } from '../../machines/rule.ts';
import { categoryMachine } from '../../machines/category.ts';
import { signupMachine } from '../../machines/self-signup.ts';
import { supportCaseMachine } from '../../machines/support-case.ts';
import { ConfigError } from '../../service/config.ts';
import { createLogger } from '../../service/logger.ts';
import { logOutboundRoute } from '../../mail/outbound/relay.ts';
import { createTenant, startTestService, testConfig } from '../../testkit/service.ts';
import { linkReviewer, reviewerAgent } from './reviewer-setup.ts';
import { INTENT, agentWithInbox } from './setup.ts';

const run = promisify(execFile);
const svc = await startTestService({ roles: ['api', 'worker'] });
const env = { ...process.env, DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, LOG_LEVEL: 'silent' };
const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', ...args], { env });
const tenant = await createTenant(svc);

test('snapshot <id> prints the persisted snapshot, version, transitions and legal verbs', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const id = (await agent.send({ to: 'dana@acme.example', text: 'x', intent: INTENT })).body.review_id;
  await agent.decide(id, { action: 'open' });
  const out = JSON.parse((await cli('snapshot', id)).stdout);
  assert.equal(out.id, id);
  assert.equal(out.kind, 'review');
  assert.equal(out.state, 'in_review');
  assert.equal(out.version, 2);
  assert.equal(out.snapshot.context.draft.text, 'x');
  assert.deepEqual(out.transitions.map((t: any) => t.event.type), ['submit', 'open']);
  assert.ok(out.allowed_actions.includes('approve'));
  await assert.rejects(cli('snapshot', 'rr_unknown'), (err: any) => err.code === 1 && /no machine rr_unknown/.test(err.stderr));
});

test('snapshot of a review routed to a reviewer agent shows its route, hops, reviewer and armed timers', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const linked = await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, transport: 'sse', max_hops: 2 });
  assert.equal(linked.status, 201, linked.text);
  const id = (await agent.send({ to: 'dana@acme.example', text: 'x', intent: INTENT })).body.review_id;
  await reviewer.decide(id, { action: 'open' });
  await reviewer.decide(id, { action: 'hand_back', feedback: 'shorter' });
  const out = JSON.parse((await cli('snapshot', id)).stdout);
  assert.deepEqual([out.route, out.hops, out.max_hops, out.reviewer_agent_id], ['reviewer_agent', 1, 2, reviewer.agentId]);
  // The deadline, and one escalation per arming (submit, open, hand_back): the later epochs make the earlier stale.
  assert.deepEqual(out.timers.map((t: any) => [t.queue, t.epoch]).sort(), [
    ['review-deadline', null],
    ['review-escalation', 1],
    ['review-escalation', 2],
    ['review-escalation', 3],
  ]);
});

test('machines --mermaid prints the review, signup, rule, support case and category diagrams generated from the machines', async () => {
  const { stdout } = await cli('machines', '--mermaid');
  assert.equal(
    stdout,
    `%% review\n${toMermaid(reviewRequestMachine)}\n%% signup\n${toMermaid(signupMachine)}\n%% rule\n${toMermaid(ruleMachine)}\n%% support_case\n${toMermaid(supportCaseMachine)}\n%% category\n${toMermaid(categoryMachine)}`,
  );
  assert.match(stdout, /waiting_on_customer --> working : customer_reply \[noReplyPending\]/);
  assert.match(stdout, /resolved --> deleted : delete/);
  assert.match(stdout, /pending_verification --> locked : wrong_code \[lastTry\]/);
  assert.match(stdout, /^stateDiagram-v2$/m);
  assert.match(stdout, /needs_review --> in_review : open \[mayDecide\]/);
  assert.match(stdout, /failed --> cancelled : cancel \[composerCancels\]/);
});

test('snapshot <id> of a support case prints its state, the events that led there and the legal verbs', async () => {
  const { agentKey } = await tenant.enroll();
  const filed = await svc.api.post(`/v1/projects/${tenant.projectId}/feedback`, {
    client_id: crypto.randomUUID(), category: 'other', user_intent: 'Read mail', observed_behavior: 'Nothing arrives', outcome: 'blocked',
  }, agentKey);
  assert.equal(filed.status, 201, filed.text);
  const id = filed.body.linked_cases[0].id;
  const out = JSON.parse((await cli('snapshot', id)).stdout);
  assert.equal(out.kind, 'support_case');
  assert.equal(out.state, 'received');
  assert.equal(out.version, 1);
  assert.equal(out.snapshot.context.impact, 'blocked');
  assert.deepEqual(out.transitions.map((t: any) => t.to_state), ['received']);
  assert.deepEqual(out.allowed_actions, ['staff_update', 'customer_reply']);
});

test('snapshot <cat_ id> prints a category\'s graduation machine with its legal verbs', async () => {
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const cat = await svc.api.post(`${A}/categories`, { name: 'Demos' }, tenant.consoleToken);
  await svc.api.post(`${A}/categories/${cat.body.id}/pin`, {}, tenant.consoleToken);
  const out = JSON.parse((await cli('snapshot', cat.body.id)).stdout);
  assert.equal(out.kind, 'category');
  assert.equal(out.state, 'pinned');
  assert.deepEqual(out.transitions.map((t: any) => t.event.type), ['create', 'pin']);
  assert.deepEqual(out.allowed_actions, ['unpin']);
});

test('outbox lists the mail kept for other domains without a relay, and prints one as sent', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const id = (await agent.send({ to: 'dana@acme.example', subject: 'Kept locally', text: 'In the outbox.', intent: INTENT })).body.review_id;
  await agent.decide(id, { action: 'approve' });
  await agent.until(id, 'sent');
  const list = JSON.parse((await cli('outbox', '--json')).stdout);
  const entry = list.find((o: any) => o.review_id === id);
  assert.ok(entry);
  assert.deepEqual(entry.envelope_to, ['dana@acme.example']);
  const raw = (await cli('outbox', entry.id, '--raw')).stdout;
  assert.match(raw, /Subject: Kept locally/);
  assert.match(raw, new RegExp(`Message-ID: <${id}\\.1@agents\\.test>`));
  await assert.rejects(cli('reconcile', id, '--delivered'), (err: any) => err.code === 1 && /not parked/.test(err.stderr));
});

test('the start-up log says where mail for other domains goes, and a bad SMTP_URL stops the start', async () => {
  const said = (smtpUrl: string | null) => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    logOutboundRoute(smtpUrl, createLogger('info', sink));
    return JSON.parse(lines[0]!);
  };
  const outbox = said((await testConfig({})).smtpUrl);
  assert.equal(outbox.level, 40);
  assert.match(outbox.msg, /no SMTP_URL relay configured: outbound mail to other domains is kept in the local outbox/);
  const relayed = said((await testConfig({ SMTP_URL: 'smtp://user:secret@127.0.0.1:2599' })).smtpUrl);
  assert.match(relayed.msg, /goes through the SMTP_URL relay/);
  assert.equal(relayed.relay, 'smtp://user:***@127.0.0.1:2599', 'the password is not logged');
  await assert.rejects(testConfig({ SMTP_URL: 'http://relay.example' }), (err: any) => err instanceof ConfigError && /SMTP_URL must start with smtp:\/\/ or smtps:\/\//.test(err.message));
});
